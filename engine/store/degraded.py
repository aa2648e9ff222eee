"""The journal of a unit that cannot write its file: a full disk or a read-only mount.

The unit then comes up read-only with the reason (``ui/compose.py``): the game is shown, and every command
is refused with ``error.storage`` by the read-only connection. SQLite needs its ``-shm`` beside the file to
read a WAL file; when it cannot make one there and no ``-wal`` is left (so nothing is missing from the
file), the file is opened ``immutable``: nothing else can write it meanwhile either.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from engine.store.faults import storage_words
from engine.store.journal import Journal, JournalError


def open_degraded(path: str | os.PathLike[str]) -> Journal:
    """The read-only journal at ``path`` (see the module docstring); :class:`JournalError` if it cannot be
    read at all."""
    p = Path(path)
    try:
        return Journal.open(p, read_only=True)
    except JournalError:
        if Path(f"{p}-wal").exists() or not p.is_file():
            raise
    try:
        conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro&immutable=1", uri=True, isolation_level=None,
                               check_same_thread=False)
        conn.execute("SELECT count(*) FROM log").fetchone()
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read the journal {p}: {storage_words(exc, p)}") from exc
    return Journal(p, conn, read_only=True)


def table_reader(path: Path) -> sqlite3.Connection:
    """A read-only connection for the other tables of such a file (the card registry, the settings)."""
    uri = path.resolve().as_uri()
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.Error:
        return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, check_same_thread=False)
