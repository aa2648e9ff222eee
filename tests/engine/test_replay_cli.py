"""``boardbank replay`` and ``boardbank export``, and DurableGame's reopen and failed-write behaviour."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import commands as c
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.game import Game
from engine.rulesets.ultimate.sim import GameRunner
from engine.store.durable import DurableGame
from engine.store.journal import Journal, JournalError
from ui.cli import main as cli_main

UK = load_edition("ultimate-uk")


def _played(db: Path, seed: int, players: int = 3, turn_cap: int = 2000) -> DurableGame:
    journal = Journal.open(db)
    gid = journal.create_game(UK.id, seed, {})
    durable = DurableGame(journal, gid, Game(UK))
    GameRunner(UK, players, seed, game=durable.game, apply=durable.apply, turn_cap=turn_cap).play()
    return durable


def _replay_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert cli_main(["replay", *argv, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_replay_json_matches_the_live_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bank.db"
    durable = _played(db, seed=3)
    durable.journal.close()
    s = durable.game.state
    out = _replay_json(capsys, str(db))
    assert out["phase"] == s.phase == "over" and out["status"] == "over"
    assert {p["id"]: p["balance"] for p in out["players"]} == {p: s.balance(p) for p in s.order}
    assert {d["deed"]: (d["owner"], d["level"]) for d in out["deeds"] if d["owner"]} == {
        d: (o, s.level[d]) for d, o in s.owner.items()}
    assert len(out["deeds"]) == 22
    assert [x["player"] for x in out["standings"]] == [x.player for x in s.standings_final]
    assert out["commands"] == durable.game.commands_applied
    assert out["seq"] == len(durable.game.events)
    assert sum(p["bankrupt"] for p in out["players"]) == 1


def test_replay_picks_the_game_and_prints_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bank.db"
    _played(db, seed=3).journal.close()
    running = _played(db, seed=4, turn_cap=4)  # stopped mid-game
    running.journal.close()
    assert _replay_json(capsys, str(db))["game"] == 2
    assert _replay_json(capsys, str(db))["phase"] != "over"
    assert _replay_json(capsys, str(db), "--game", "1")["phase"] == "over"
    assert cli_main(["replay", str(db)]) == 0
    table = capsys.readouterr().out
    assert "game 2 (ultimate-uk, ultimate)" in table and "rank player" in table
    for p in running.game.state.order:
        assert p in table


def test_replay_refuses_missing_foreign_and_corrupt_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.db"
    assert cli_main(["replay", str(missing), "--json"]) == 2
    assert "no journal file" in capsys.readouterr().err and not missing.exists()
    text = tmp_path / "notes.db"
    text.write_text("not a database at all, just some words\n" * 5)
    assert cli_main(["replay", str(text)]) == 2
    assert "expected an SQLite 3 file" in capsys.readouterr().err
    db = tmp_path / "bank.db"
    _played(db, seed=5).journal.close()
    data = bytearray(db.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 300] = b"\x00" * 300
    db.write_bytes(bytes(data))
    assert cli_main(["replay", str(db)]) == 2
    assert "corrupt" in capsys.readouterr().err
    assert db.read_bytes() == bytes(data)
    empty = tmp_path / "empty.db"
    Journal.open(empty).close()
    assert cli_main(["replay", str(empty)]) == 2
    assert "holds no game" in capsys.readouterr().err
    assert cli_main(["replay", str(empty), "--game", "3"]) == 2


def test_replay_exit_status_in_a_subprocess(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "ui.cli", "replay", str(tmp_path / "none.db")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "no journal file" in run.stderr and run.stdout == ""


def test_export_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bank.db"
    durable = _played(db, seed=6)
    n_events, n_commands = len(durable.game.events), durable.game.commands_applied
    durable.journal.close()
    assert cli_main(["export", str(db), "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    kinds = [r["kind"] for r in rows]
    assert kinds.count("event") == n_events and kinds.count("command") == n_commands and kinds[0] == "game"
    assert cli_main(["export", str(db), "--format", "csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(table) == 1 + n_commands + n_events
    assert cli_main(["export", str(tmp_path / "missing.db")]) == 2


def test_reopen_rebuilds_the_exact_state_and_continues(tmp_path: Path) -> None:
    db = tmp_path / "bank.db"
    durable = _played(db, seed=8, turn_cap=6)
    before = durable.game.state.snapshot()
    durable.journal.close()
    with Journal.open(db) as journal:
        reopened = DurableGame.open(journal, 1)
        assert reopened.game.state.snapshot() == before
        assert reopened.game.events == durable.game.events
        result = GameRunner(UK, 3, 99, game=reopened.game, apply=reopened.apply).play()
        assert result.completed and not result.violations
        seqs = [e.seq for e in journal.load(1)[1]]
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_failed_write_leaves_nothing_half_applied(tmp_path: Path) -> None:
    db = tmp_path / "bank.db"
    durable = _played(db, seed=8, turn_cap=2)
    state = durable.game.state.snapshot()
    player = durable.game.state.turn
    assert player is not None
    durable.journal._conn.execute("PRAGMA query_only=ON")  # the next write fails inside SQLite
    with pytest.raises(JournalError, match="cannot append"):
        durable.apply(c.PassGo(player))
    assert durable.game.state.snapshot() == state
    durable.journal._conn.execute("PRAGMA query_only=OFF")
    events = durable.apply(c.PassGo(player))
    assert events[0].seq == len(durable.game.events) and durable.game.state.balance(player) > 0
    with pytest.raises(IllegalCommand):
        durable.apply(c.BuyDeed("nobody", 1))
    reopened = DurableGame.open(durable.journal, durable.game_id)
    assert reopened.game.state == durable.game.state


def test_start_records_the_game(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "bank.db") as journal:
        start = c.StartGame((c.PlayerSpec("a", "Ann", "red"), c.PlayerSpec("b", "Bob", "blue")), {"jail_fee": 50}, 12)
        durable = DurableGame.start(journal, UK, start)
        info = journal.game(durable.game_id)
        assert (info.edition, info.seed, dict(info.options), info.commands) == ("ultimate-uk", 12, {"jail_fee": 50}, 1)
        assert DurableGame.open(journal, durable.game_id).game.state.options.jail_fee == 50


def test_open_with_an_explicit_edition(tmp_path: Path) -> None:
    durable = _played(tmp_path / "bank.db", seed=2, turn_cap=3)
    again = DurableGame.open(durable.journal, durable.game_id, UK)
    assert again.game.edition is UK and again.game.state == durable.game.state
    with pytest.raises(JournalError, match="recorded with edition 'ultimate-uk', not 'ultimate-ru'"):
        DurableGame.open(durable.journal, durable.game_id, load_edition("ultimate-ru"))


def test_a_failed_write_with_an_unreadable_journal_shows_the_last_acknowledged_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    durable = _played(tmp_path / "bank.db", seed=8, turn_cap=2)
    state = durable.game.state.snapshot()
    player = durable.game.state.turn
    assert player is not None

    def no_disk(*_args: object, **_kwargs: object) -> None:
        raise JournalError("disk gone")

    monkeypatch.setattr(durable.journal, "append", no_disk)
    monkeypatch.setattr(durable.journal, "load", no_disk)
    with pytest.raises(JournalError, match="disk gone"):
        durable.apply(c.PassGo(player))
    assert durable.game.state.snapshot() == state  # the unacknowledged PassGo is not shown
    with pytest.raises(JournalError, match="reopen it"):
        durable.apply(c.PassGo(player))
