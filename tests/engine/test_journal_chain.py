"""Each record guarded: the log rows' hash chain (engine/store/rows.py; docs/architecture.md, "Each record
guarded"; issue: one digit of a price changed inside an event's JSON went unnoticed and the game replayed
to a different state).
"""

from __future__ import annotations

import io
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.commands import BuyDeed, PassGo, PayRent, PlayerSpec, StartGame
from engine.editions import load_edition
from engine.store.durable import DurableGame
from engine.store.export import export_jsonl
from engine.store.journal import Journal, JournalError

ROOT = Path(__file__).resolve().parents[2]


def _game(path: Path) -> int:
    """A game with a few commands, one of them a purchase (an event holding a price); its id."""
    ed = load_edition("ultimate-uk")
    with Journal.open(path) as journal:
        game = DurableGame.start(journal, ed, StartGame((PlayerSpec("p1"), PlayerSpec("p2")), {}, 5))
        game.apply(PassGo("p1"), "i1")
        game.apply(BuyDeed("p1", 2))
        game.apply(PayRent("p2", 2), "i3")
        return game.game_id


def _flip_a_digit(path: Path) -> int:
    """Change one digit inside the first event that holds a price (valid JSON still); the seq of that event."""
    with sqlite3.connect(path) as conn:
        for row_id, payload in conn.execute("SELECT id, payload FROM log ORDER BY id").fetchall():
            for event in json.loads(payload)["events"]:
                if "price" in event:
                    text = payload.replace(f'"price":{event["price"]}', f'"price":{event["price"] + 1}', 1)
                    assert text != payload
                    conn.execute("UPDATE log SET payload = ? WHERE id = ?", (text, row_id))
                    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                    return int(json.loads(payload)["events"][0]["seq"])
    conn.close()
    raise AssertionError("no event with a price")


def test_a_flipped_digit_inside_an_event_is_refused_with_its_seq(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    gid = _game(path)
    seq = _flip_a_digit(path)
    for read_only in (False, True):
        with Journal.open(path, read_only=read_only) as journal:
            with pytest.raises(JournalError, match=rf"events from seq {seq}\) is damaged: its checksum does not match"):
                journal.load(gid)
            with pytest.raises(JournalError, match=rf"from seq {seq}\)"):
                export_jsonl(journal, gid, io.StringIO())
            _, intact, problem = journal.salvage(gid)
            assert [e.seq for e in intact] == list(range(1, seq)) and problem is not None and "checksum" in problem
    done = subprocess.run([sys.executable, "-m", "ui.cli", "replay", "--salvage", "--json", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)["salvage"]["intact_events"] == seq - 1
    assert re.search(rf"from seq {seq}\) is damaged: its checksum", done.stderr)


def test_a_row_moved_to_another_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    first, second = _game(path), _game(path)
    with sqlite3.connect(path) as conn:  # the second game's rows replaced by the first's, same numbers
        conn.execute("UPDATE log SET payload = (SELECT payload FROM log AS o WHERE o.game_id = ? AND "
                     "o.number = log.number), chain = (SELECT chain FROM log AS o WHERE o.game_id = ? AND "
                     "o.number = log.number) WHERE game_id = ?", (first, first, second))
    conn.close()
    with Journal.open(path) as journal:
        journal.load(first)
        with pytest.raises(JournalError, match=r"command 1 \(events from seq 1\) is damaged: its checksum"):
            journal.load(second)


def test_a_schema_2_file_is_upgraded_in_place_and_guarded(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    gid = _game(path)
    with Journal.open(path) as journal:
        want = journal.load(gid)
    with sqlite3.connect(path) as conn:  # as boardbank of schema 2 left it: no chain column
        conn.execute("DROP VIEW commands")
        conn.execute("DROP VIEW events")
        conn.execute("ALTER TABLE log DROP COLUMN chain")
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.close()
    with Journal.open(path, read_only=True) as journal:  # a reader reads it as it is, never writes
        assert journal.load(gid) == want
    with Journal.open(path) as journal:  # a writer upgrades it
        assert journal.load(gid) == want
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "3"
        assert conn.execute("SELECT count(*) FROM log WHERE chain IS NULL").fetchone()[0] == 0
    conn.close()
    seq = _flip_a_digit(path)
    with Journal.open(path) as journal, pytest.raises(JournalError, match=rf"from seq {seq}\) is damaged"):
        journal.load(gid)


def test_appends_after_a_reopen_continue_the_chain(tmp_path: Path) -> None:
    """The chain goes on from the file's last row after a restart (the tail read from the file), and
    from memory after that (the one-statement append)."""
    path = tmp_path / "bank.db"
    gid = _game(path)
    with Journal.open(path) as journal:
        game = DurableGame.open(journal, gid)
        game.apply(BuyDeed("p2", 4), "i4")
        game.apply(PassGo("p2"))
        events = list(game.game.events)
    with Journal.open(path, read_only=True) as journal:
        assert journal.load(gid)[1] == events
        assert journal.input_ids(gid) == {"i1": 2, "i3": 4, "i4": 5}
