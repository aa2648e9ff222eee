"""A power cut while the journal file is being created: its first transaction (the tables, written before
the switch to WAL) is cut off and leaves a hot rollback journal. The next start must roll it back and go
on, not refuse the file as corrupt (found by bench/bench_kill_touch.py: kill 91 of 100 refused the file
"attempt to write a readonly database"). A foreign file with a hot journal is still refused, untouched.
source: docs/architecture.md, section 4 (a restart resumes the journal's game; nothing acknowledged is lost)
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from engine.store.journal import APPLICATION_ID, Journal, JournalError

ROOT = Path(__file__).resolve().parents[2]

CUT_OFF = """
import os, sqlite3, sys
sys.path.insert(0, {root!r})
from engine.store.schema import _SCHEMA
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA cache_size=1")  # pages spill into the file mid-transaction, as a large one does
conn.execute("BEGIN IMMEDIATE")
conn.execute("PRAGMA application_id={app_id}")
for statement in ({schema} if {ours} else ("CREATE TABLE more_notes (x)",)):
    conn.execute(statement)
conn.execute("CREATE TABLE pad (x)")
for i in range(200):
    conn.execute("INSERT INTO pad VALUES (?)", ("x" * 500,))
os._exit(9)  # SIGKILL-like: no rollback, no close
"""


def _cut_off(db: Path, app_id: int, ours: bool) -> None:
    code = CUT_OFF.format(root=str(ROOT), app_id=app_id, schema="_SCHEMA", ours=ours)
    subprocess.run([sys.executable, "-c", code, str(db)], check=False, timeout=60)
    assert Path(f"{db}-journal").stat().st_size > 0, "the child left no hot journal: the test proves nothing"


def _digest(*paths: Path) -> list[str]:
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]


def test_a_cut_off_creation_is_rolled_back_and_the_journal_opens(tmp_path: Path) -> None:
    db = tmp_path / "boardbank.sqlite3"
    _cut_off(db, APPLICATION_ID, ours=True)
    with Journal.open(db) as journal:
        assert journal.latest_game() is None
        gid = journal.create_game("ultimate-uk", 7, {})
    with Journal.open(db) as journal:
        assert journal.latest_game() == gid
    assert not Path(f"{db}-journal").exists()


def test_a_foreign_file_with_a_hot_journal_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite3"
    db.write_bytes(b"")
    import sqlite3

    with sqlite3.connect(db) as conn:  # another application's committed file...
        conn.execute("PRAGMA application_id=1234")
        conn.execute("CREATE TABLE notes (x)")
    _cut_off(db, 1234, ours=False)  # ...cut off in its next transaction
    journal = Path(f"{db}-journal")
    before = _digest(db, journal)
    with pytest.raises(JournalError, match="another application"):
        Journal.open(db)
    assert _digest(db, journal) == before
