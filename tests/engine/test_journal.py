"""The journal store: round trips, refusals that leave files untouched, sequence continuity, export."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import sqlite3
import types
import typing
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import commands
from engine import events as ev
from engine.commands import PlayerSpec, StartGame
from engine.records import command_from_record, command_to_record, event_to_record, record_types
from engine.store.export import CSV_COLUMNS, export_csv, export_jsonl
from engine.store.journal import APPLICATION_ID, Journal, JournalError, dumps_record

EVENT_TYPES, COMMAND_TYPES = record_types("ultimate")

_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
_NS = {**vars(ev), **vars(commands), "Mapping": Mapping}


def _strategy(tp: object) -> st.SearchStrategy[typing.Any]:
    """A strategy for a field type of an event (ints that SQLite and JSON both hold, no lone surrogates)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is int:
        return st.integers(-(2**62), 2**62)
    if tp is str:
        return _TEXT
    if tp is bool:
        return st.booleans()
    if tp is type(None):
        return st.none()
    if tp is object:  # StartGame options: JSON scalars
        return st.one_of(st.booleans(), st.integers(-(2**62), 2**62), _TEXT)
    if origin is tuple:
        return st.lists(_strategy(args[0]), max_size=4).map(tuple)
    if origin is not None and getattr(origin, "__name__", "") == "Mapping":
        return st.dictionaries(_TEXT, _strategy(args[1]), max_size=3)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*[_strategy(a) for a in args])
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp, globalns=_NS)
        return st.builds(tp, **{f.name: _strategy(hints[f.name]) for f in dataclasses.fields(tp)})
    raise TypeError(f"no strategy for {tp!r}")


def _start_record() -> dict[str, object]:
    return command_to_record(StartGame((PlayerSpec("p1"), PlayerSpec("p2")), {}, 7))


def _salary(seq: int, command: int, amount: int = 200) -> ev.SalaryPaid:
    return ev.SalaryPaid(seq, command, "p1", amount)


def _journal_with_events(path: Path, commands: int = 3, per_command: int = 2) -> tuple[Journal, int]:
    j = Journal.open(path)
    gid = j.create_game("ultimate-uk", 7, {"auction": True})
    seq = 0
    for number in range(1, commands + 1):
        events = []
        for _ in range(per_command):
            seq += 1
            events.append(_salary(seq, number))
        j.append(gid, {"type": "PassGo", "player": "p1"}, events)
    return j, gid


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_event_type_round_trips_through_the_file(tmp_path: Path, name: str) -> None:
    cls = EVENT_TYPES[name]

    @settings(max_examples=8, deadline=None)
    @given(_strategy(cls))
    def check(event: typing.Any) -> None:
        event = dataclasses.replace(event, seq=1, command=1)
        path = tmp_path / f"{name}-{abs(hash(event_to_record(event).__repr__()))}.db"
        with Journal.open(path) as j:
            gid = j.create_game("ultimate-uk", 1, {})
            j.append(gid, _start_record(), [event])
        with Journal.open(path) as j:
            edition, loaded = j.load(gid)
        assert edition == "ultimate-uk"
        assert loaded == [event]
        path.unlink()

    check()


def test_new_file_is_marked_as_ours_with_wal_and_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    Journal.open(path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    assert meta == {"application": "boardbank", "schema_version": "3"}
    with Journal.open(path) as j:
        assert j._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_append_after_reopen_continues_the_sequence(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    j, gid = _journal_with_events(path, commands=3, per_command=2)
    j.close()
    with Journal.open(path) as j:
        with pytest.raises(JournalError, match="expected event seq 7 of command 4"):
            j.append(gid, {"type": "PassGo"}, [_salary(1, 4)])
        with pytest.raises(JournalError, match="expected command number 4, got 3"):
            j.append(gid, {"type": "PassGo"}, [_salary(7, 3)])
        j.append(gid, {"type": "PassGo"}, [_salary(7, 4), _salary(8, 4)])
        _, events = j.load(gid)
    assert [e.seq for e in events] == list(range(1, 9))
    assert [e.command for e in events] == [1, 1, 2, 2, 3, 3, 4, 4]
    info = Journal.open(path).game(gid)
    assert (info.commands, info.events, info.seed, dict(info.options)) == (4, 8, 7, {"auction": True})


def test_a_failed_append_writes_nothing_of_the_command(tmp_path: Path) -> None:
    j, gid = _journal_with_events(tmp_path / "bank.db", commands=1, per_command=1)
    bad = ev.SalaryPaid(3, 2, "p1\ud800", 200)  # a lone surrogate cannot be stored as UTF-8
    with pytest.raises(JournalError, match="cannot append to game"):
        j.append(gid, {"type": "PassGo"}, [_salary(2, 2), bad])
    assert [e.seq for e in j.load(gid)[1]] == [1]
    assert j.game(gid).commands == 1
    j.append(gid, {"type": "PassGo"}, [_salary(2, 2)])  # the sequence is intact
    assert [e.seq for e in j.load(gid)[1]] == [1, 2]


def test_unknown_game_is_refused(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "bank.db") as j:
        assert j.latest_game() is None
        with pytest.raises(JournalError, match="has no game 5"):
            j.load(5)
        with pytest.raises(JournalError, match="has no game 5"):
            j.append(5, {"type": "PassGo"}, [_salary(1, 1)])
        assert j.create_game("ultimate-uk", 1, {}) == 1
        assert j.create_game("ultimate-ru", 2, {}) == 2
        assert j.latest_game() == 2
        assert j.game(2).created_seq == 0


def _refused(path: Path, match: str) -> None:
    before = path.read_bytes()
    siblings = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(JournalError, match=match):
        Journal.open(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == siblings


def test_refuses_a_text_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("shopping list: milk, bread\n" * 10)
    _refused(path, "expected an SQLite 3 file")


def test_refuses_a_tiny_file(tmp_path: Path) -> None:
    path = tmp_path / "tiny.db"
    path.write_bytes(b"SQLite format 3\x00abc")
    _refused(path, "not a boardbank journal")


def test_refuses_another_applications_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA application_id=1234")
        conn.execute("CREATE TABLE t (x)")
    _refused(path, "another application")


def test_refuses_a_foreign_sqlite_file_without_application_id(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE photos (x)")
    conn.commit()
    conn.close()
    _refused(path, r"tables \['photos'\]")


def test_refuses_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    Journal.open(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()
    _refused(path, "newer boardbank")


def _checkpointed_journal(path: Path) -> bytes:
    j, _ = _journal_with_events(path, commands=300, per_command=3)
    j.close()  # the last connection checkpoints the WAL into the file
    assert not Path(f"{path}-wal").exists()
    return path.read_bytes()


@pytest.mark.parametrize("fraction", [0.5, 0.8])
def test_refuses_a_truncated_journal(tmp_path: Path, fraction: float) -> None:
    path = tmp_path / "bank.db"
    data = _checkpointed_journal(path)
    path.write_bytes(data[: int(len(data) * fraction)])
    _refused(path, "corrupt")


def test_refuses_a_corrupt_journal(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    data = bytearray(_checkpointed_journal(path))
    page = 4096
    assert len(data) > 6 * page
    data[3 * page + 8 : 3 * page + 600] = b"\xa5" * 592
    path.write_bytes(bytes(data))
    _refused(path, "corrupt")


def test_adopts_an_empty_file_and_a_registry_only_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    with Journal.open(empty) as j:
        assert j.create_game("ultimate-uk", 1, {}) == 1
    registry = tmp_path / "bank.db"
    with sqlite3.connect(registry) as conn:
        conn.execute("CREATE TABLE card_registry (uid TEXT PRIMARY KEY, kind TEXT, value INTEGER)")
        conn.execute("INSERT INTO card_registry VALUES ('04A22B1C', 'player', 1)")
    conn.close()
    Journal.open(registry).close()
    with sqlite3.connect(registry) as conn:
        assert conn.execute("SELECT * FROM card_registry").fetchall() == [("04A22B1C", "player", 1)]
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


def test_keeps_other_components_tables(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    j, gid = _journal_with_events(path)
    j.close()
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE settings (key TEXT, value TEXT)")
        conn.execute("CREATE TABLE somebody_elses (x)")
        conn.execute("INSERT INTO settings VALUES ('lang', 'ru')")
    conn.close()
    with Journal.open(path) as j:
        assert len(j.load(gid)[1]) == 6
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT * FROM settings").fetchall() == [("lang", "ru")]
        assert conn.execute("SELECT count(*) FROM somebody_elses").fetchone()[0] == 0
    conn.close()


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="does not exist"):
        Journal.open(tmp_path / "no" / "such" / "bank.db")


def test_export_jsonl_and_csv(tmp_path: Path) -> None:
    j, gid = _journal_with_events(tmp_path / "bank.db", commands=2, per_command=2)
    out = io.StringIO()
    assert export_jsonl(j, gid, out) == 1 + 2 + 4
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["kind"] for r in rows] == ["game", "command", "event", "event", "command", "event", "event"]
    assert rows[0]["edition"] == "ultimate-uk" and rows[0]["seed"] == 7
    assert [r["seq"] for r in rows if r["kind"] == "event"] == [1, 2, 3, 4]
    assert rows[2] == {"kind": "event", "game": gid, "type": "SalaryPaid", "seq": 1, "command": 1,
                       "player": "p1", "amount": 200}
    out = io.StringIO()
    assert export_csv(j, gid, out) == 7
    table = list(csv.reader(io.StringIO(out.getvalue())))
    assert tuple(table[0]) == CSV_COLUMNS
    assert table[3][:5] == ["event", str(gid), "1", "1", "SalaryPaid"]
    assert json.loads(table[3][5]) == {"player": "p1", "amount": 200}


def test_reopening_a_played_game_gives_the_identical_state(tmp_path: Path) -> None:
    from engine.editions import load_edition
    from engine.game import Game
    from engine.rulesets.ultimate.sim import GameRunner
    from engine.store.durable import DurableGame

    edition = load_edition("ultimate-uk")
    path = tmp_path / "bank.db"
    with Journal.open(path) as j:
        gid = j.create_game(edition.id, 21, {})
        live = DurableGame(j, gid, Game(edition))
        GameRunner(edition, 4, 21, game=live.game, apply=live.apply).play()
    with Journal.open(path) as j:
        edition_id, events = j.load(gid)
        assert edition_id == "ultimate-uk"
        assert tuple(events) == live.game.events
        rebuilt = Game.replay(edition, events)
        assert rebuilt.state == live.game.state
        assert rebuilt.state.snapshot() == live.game.state.snapshot()
        assert rebuilt.invariants() == []
        assert j.game(gid).commands == live.game.commands_applied


def _damage(path: Path, sql: str, *args: object) -> None:
    """A tool (not the journal) changes the file behind the journal's back."""
    with sqlite3.connect(path) as conn:
        conn.execute(sql, args)
    conn.close()


def test_load_detects_a_half_written_command_and_a_gap(tmp_path: Path) -> None:
    """Each damage names the command and the seq where the intact part ends (docs/architecture.md, section 4)."""
    path = tmp_path / "bank.db"
    j, gid = _journal_with_events(path, commands=3, per_command=2)
    j.close()
    _damage(path, "UPDATE log SET payload = json_remove(payload, '$.events[0]') WHERE number = 2")
    with Journal.open(path) as j, pytest.raises(JournalError, match=r"command 2 \(events from seq 3\) is damaged: expected event seq 3"):
        j.load(gid)
    _damage(path, "DELETE FROM log WHERE number = 2")
    with Journal.open(path) as j, pytest.raises(JournalError, match="expected command 2, found command 3"):
        j.load(gid)


def test_load_refuses_damaged_payloads_and_stays_usable(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    j, gid = _journal_with_events(path, commands=2, per_command=1)
    j.close()
    _damage(path, "UPDATE log SET payload = '{\"command\": {\"type\": \"PassGo\"}, \"events\"' WHERE number = 2")
    with Journal.open(path) as j:
        with pytest.raises(JournalError, match=r"command 2 \(events from seq 2\) is damaged: its text is not valid JSON"):
            j.load(gid)
        gid2 = j.create_game("ultimate-uk", 2, {})  # no read transaction was left open
        j.append(gid2, {"type": "PassGo"}, [_salary(1, 1)])
    _damage(path, "UPDATE log SET payload = ? WHERE number = 2 AND game_id = 1",
            '{"command":{"type":"PassGo"},"events":[{"type":"Nonsense","seq":2,"command":2}]}')
    with Journal.open(path) as j, pytest.raises(JournalError, match=r"command 2 \(events from seq 2\) is damaged: its checksum does not match"):
        j.load(gid)


def test_a_payload_that_is_not_utf8_is_refused_with_its_seq_and_salvaged(tmp_path: Path) -> None:
    """16 bytes changed inside one event's text: PRAGMA integrity_check still passes, the load names the
    seq, and salvage gives every event before it."""
    path = tmp_path / "bank.db"
    j, gid = _journal_with_events(path, commands=4, per_command=2)
    j.close()
    with sqlite3.connect(path) as conn:
        (text,) = conn.execute("SELECT payload FROM log WHERE number = 3").fetchone()
        raw = bytearray(text.encode())
        raw[20:36] = b"\xff" * 16
        conn.execute("UPDATE log SET payload = CAST(? AS TEXT) WHERE number = 3", (bytes(raw),))
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with Journal.open(path) as j:
        with pytest.raises(JournalError, match=r"command 3 \(events from seq 5\) is damaged: its text is not valid UTF-8"):
            j.load(gid)
        edition, intact, problem = j.salvage(gid)
        assert edition == "ultimate-uk" and [e.seq for e in intact] == [1, 2, 3, 4]
        assert problem is not None and "command 3" in problem
        assert j.salvage(gid2 := j.create_game("ultimate-uk", 1, {}))[1:] == ([], None)
        assert gid2 == 2


def test_starting_a_game_is_one_transaction(tmp_path: Path) -> None:
    """A game and its StartGame are written together: a failed write leaves no empty game behind."""
    path = tmp_path / "bank.db"
    with Journal.open(path) as j:
        with pytest.raises(JournalError, match="cannot start a game"):
            j.start_game("ultimate-uk", 1, {}, {"type": "StartGame"}, [ev.SalaryPaid(1, 1, "p1\ud800", 1)])
        assert j.latest_game() is None
        gid = j.start_game("ultimate-uk", 1, {}, {"type": "StartGame"}, [_salary(1, 1)], input_id="line-1")
        assert (j.latest_game(), j.game(gid).commands, j.input_ids(gid)) == (gid, 1, {"line-1": 1})


def test_a_schema_1_file_is_converted_and_reads_the_same(tmp_path: Path) -> None:
    """Installation files of the earlier layout (a row per event) open and read identically."""
    path = tmp_path / "bank.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('application', 'boardbank'), ('schema_version', '1');
        CREATE TABLE games (id INTEGER PRIMARY KEY, edition TEXT NOT NULL, seed INTEGER NOT NULL,
                            options TEXT NOT NULL, created_seq INTEGER NOT NULL);
        CREATE TABLE commands (game_id INTEGER NOT NULL, number INTEGER NOT NULL, type TEXT NOT NULL,
                               payload TEXT NOT NULL, event_count INTEGER NOT NULL,
                               PRIMARY KEY (game_id, number)) WITHOUT ROWID;
        CREATE TABLE events (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, command INTEGER NOT NULL,
                             type TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
        INSERT INTO games VALUES (1, 'ultimate-uk', 7, '{}', 0);
    """)
    for number, seqs in ((1, [1, 2]), (2, []), (3, [3])):
        conn.execute("INSERT INTO commands VALUES (1, ?, 'PassGo', '{\"type\":\"PassGo\"}', ?)", (number, len(seqs)))
        for seq in seqs:
            conn.execute("INSERT INTO events VALUES (1, ?, ?, 'SalaryPaid', ?)",
                         (seq, number, dumps_record(event_to_record(_salary(seq, number)))))
    conn.close()
    with Journal.open(path) as j:
        assert [(e.seq, e.command) for e in j.load(1)[1]] == [(1, 1), (2, 1), (3, 3)]
        assert [r["number"] for r in j.command_records(1)] == [1, 2, 3]
        j.append(1, {"type": "PassGo"}, [_salary(4, 4)])
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "3"
        assert conn.execute("SELECT count(*), max(seq) FROM events").fetchone() == (4, 4)  # the view
    conn.close()


@pytest.mark.parametrize("name", sorted(COMMAND_TYPES))
def test_every_command_type_round_trips_through_the_file(tmp_path: Path, name: str) -> None:
    cls = COMMAND_TYPES[name]

    @settings(max_examples=8, deadline=None)
    @given(_strategy(cls))
    def check(command: typing.Any) -> None:
        path = tmp_path / "bank.db"
        with Journal.open(path) as j:
            gid = j.create_game("ultimate-uk", 1, {})
            j.append(gid, command_to_record(command), [_salary(1, 1)])
        with Journal.open(path) as j:
            [record] = j.command_records(gid)
        assert record.pop("number") == 1
        assert command_from_record(record) == command
        path.unlink()

    check()


def test_a_journal_finalized_inside_another_s_lock_acquire_does_not_hang(tmp_path: Path) -> None:
    """A journal never closed is released by its finalizer, which the garbage collector may run while
    ``lock.acquire`` holds the lock table's mutex on the same thread (a banker is a reference cycle, so its
    journal goes only with a collection): the release must not wait for that mutex forever (a test run
    hung so once)."""
    import threading

    from engine.store import lock

    def finalized_inside() -> None:
        with lock._MUTEX:  # as acquire() holds it when the collector runs the finalizer
            lock.release(tmp_path / "other.sqlite3")

    worker = threading.Thread(target=finalized_inside, daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive(), "release() waited for the mutex its own thread holds"
