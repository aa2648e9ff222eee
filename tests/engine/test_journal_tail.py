"""The journal's lean append (engine/store/tail.py): where each game ends is kept in memory and trusted only
while no other connection appended to the log; writes to the installation file's other tables do not
make the append read the file again. Source: hardware/kiosk/README.md, "The journal on an SD card"."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import events as ev
from engine.store.bankerrecord import BankerRecordStore
from engine.store.journal import Journal, JournalError


def _salary(seq: int, command: int) -> ev.SalaryPaid:
    return ev.SalaryPaid(seq, command, "p1", 200)


class _Writer:
    """One connection's view of one game: the next command and seq it believes in."""

    def __init__(self, journal: Journal, game_id: int) -> None:
        self.journal, self.game_id = journal, game_id
        self.number, self.seq = 1, 1

    def append(self) -> None:
        self.journal.append(self.game_id, {"type": "PassGo", "player": "p1"}, [_salary(self.seq, self.number)])
        self.number, self.seq = self.number + 1, self.seq + 1

    def learn(self, other: _Writer) -> None:
        self.number, self.seq = other.number, other.seq


def _numbers(path: Path, game_id: int) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [n for (n,) in conn.execute("SELECT number FROM log WHERE game_id = ? ORDER BY id", (game_id,))]


def test_a_stale_writer_is_refused_after_another_connection_appended(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    with Journal.open(path) as first, Journal.open(path) as second:
        gid = first.create_game("ultimate-uk", 1, {})
        a, b = _Writer(first, gid), _Writer(second, gid)
        a.append()
        a.append()  # first now knows the game ends at command 2
        b.learn(a)
        b.append()  # command 3, through the other connection
        with pytest.raises(JournalError, match="expected command number 4, got 3"):
            a.append()  # first's memory says 3 is next: the file says otherwise, nothing is written
        assert _numbers(path, gid) == [1, 2, 3]
        a.learn(b)
        a.append()
        assert _numbers(path, gid) == [1, 2, 3, 4]
        assert [e.seq for e in first.load(gid)[1]] == [1, 2, 3, 4]


def test_an_append_is_one_guarded_statement_even_after_other_tables_were_written(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    with Journal.open(path) as journal:
        gid = journal.create_game("ultimate-uk", 1, {})
        writer = _Writer(journal, gid)
        writer.append()
        record = BankerRecordStore(path)  # the banker's record: another connection, another table
        statements: list[str] = []
        journal._conn.set_trace_callback(statements.append)
        for _ in range(3):
            record.save({"state": "idle", "n": writer.number})
            writer.append()
        record.close()
        journal._conn.set_trace_callback(None)
    guarded = "INSERT INTO log (game_id, number, input_id, payload, chain) VALUES"  # payload NULL unless the
    # log's last row is the one written last
    assert len(statements) == 3 and all(s.startswith(guarded) for s in statements), statements


def test_another_game_appended_elsewhere_sends_the_append_to_the_file(tmp_path: Path) -> None:
    """Another connection's row in another game: the one-statement append does not go in (the log's last
    row changed), the append reads the file, finds its own game's end unchanged and writes it."""
    path = tmp_path / "bank.db"
    with Journal.open(path) as first, Journal.open(path) as second:
        mine, theirs = first.create_game("ultimate-uk", 1, {}), second.create_game("ultimate-uk", 2, {})
        a, b = _Writer(first, mine), _Writer(second, theirs)
        a.append()
        b.append()
        statements: list[str] = []
        first._conn.set_trace_callback(statements.append)
        a.append()
        first._conn.set_trace_callback(None)
        assert statements[0].startswith("INSERT INTO log (game_id, number, input_id, payload, chain) VALUES")
        assert "BEGIN IMMEDIATE" in statements  # the guarded insert wrote nothing: the file was read
        assert _numbers(path, mine) == [1, 2] and _numbers(path, theirs) == [1]


def test_a_new_connection_reads_where_the_game_ends_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bank.db"
    with Journal.open(path) as journal:
        gid = journal.create_game("ultimate-uk", 1, {})
        writer = _Writer(journal, gid)
        for _ in range(4):
            writer.append()
    with Journal.open(path) as reopened:
        with pytest.raises(JournalError, match="expected event seq 5 of command 5"):
            reopened.append(gid, {"type": "PassGo"}, [_salary(9, 5)])
        writer.journal = reopened
        writer.append()
    assert _numbers(path, gid) == [1, 2, 3, 4, 5]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ab"), st.booleans()), min_size=1, max_size=12))
def test_two_writers_in_any_order_never_break_the_sequence(tmp_path_factory: pytest.TempPathFactory,
                                                          steps: list[tuple[str, bool]]) -> None:
    """Each step, one writer appends what it believes is next (or first catches up with the file): the
    journal accepts exactly the appends that continue the file, and the file stays 1, 2, 3, ..."""
    path = tmp_path_factory.mktemp("tail") / "bank.db"
    with Journal.open(path) as first, Journal.open(path) as second:
        gid = first.create_game("ultimate-uk", 1, {})
        writers = {"a": _Writer(first, gid), "b": _Writer(second, gid)}
        on_file = 0
        for name, catch_up in steps:
            writer = writers[name]
            if catch_up:
                writer.number, writer.seq = on_file + 1, on_file + 1
            if writer.number == on_file + 1:
                writer.append()
                on_file += 1
            else:
                with pytest.raises(JournalError, match="expected command number"):
                    writer.append()
        assert _numbers(path, gid) == list(range(1, on_file + 1))


def test_saving_the_banker_record_again_writes_one_page(tmp_path: Path) -> None:
    """The banker's record is replaced in place: one WAL page per save, not the row and its key's index."""
    path = tmp_path / "bank.db"
    Journal.open(path).close()
    record = BankerRecordStore(path)
    record.save({"state": "idle", "n": 0})
    wal = Path(f"{path}-wal")
    before = wal.stat().st_size
    for n in range(1, 6):
        record.save({"state": "idle", "n": n})
    frames = (wal.stat().st_size - before) // (4096 + 24)  # page size 4096, a WAL frame header of 24 bytes
    assert frames == 5
    assert record.load() == {"state": "idle", "n": 5}
    record.close()


@pytest.mark.parametrize("payload_column", ["payload TEXT NOT NULL", "payload TEXT"])
def test_the_one_statement_append_writes_nothing_after_another_writer(payload_column: str) -> None:
    """Both forms of the guard (the journal's schema, whose payload refuses NULL, and a log whose payload
    would take it): appended while the log's last row is ours, nothing written once another row came."""
    from engine.store.rows import chain_start
    from engine.store.tail import Tails

    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    conn.execute(f"CREATE TABLE log (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, number INTEGER NOT NULL, "
                 f"input_id TEXT, {payload_column}, chain BLOB)")
    conn.execute("INSERT INTO games (id) VALUES (1)")
    tails = Tails(Path("test.db"))
    text = '{"command":{},"events":[]}'
    assert tails.of(conn, 1) == (0, 0)
    tails.wrote(1, (0, 0), 0, chain_start(1))  # as if the log's last row (none: id 0) were ours
    conn.execute("INSERT INTO log (id, game_id, number, payload) VALUES (0, 9, 1, '{}')")  # ours, "row 0"
    assert tails.append_known(conn, 1, [_salary(1, 1)], None, lambda: (text, text.encode()))
    conn.execute("INSERT INTO log (game_id, number, payload) VALUES (9, 2, '{}')")  # another writer's row
    assert not tails.append_known(conn, 1, [_salary(2, 2)], None, lambda: (text, text.encode()))
    rows = conn.execute("SELECT game_id, number, payload IS NULL FROM log ORDER BY id").fetchall()
    assert rows == [(9, 1, 0), (1, 1, 0), (9, 2, 0)]
