"""The banker's record: what the players are in the middle of and the engine does not know, kept in the
installation file so that a power cut forgets nothing (docs/flows.md, "Across a power cut").

One row of the table ``banker_record`` holds one JSON object: the banker's state and its gesture, the setup
choices of a game being registered, its timers and the recent input ids. The unit writes it on the
journal's own connection, in the transaction of the input's commands (:meth:`BankerRecordStore.write`
called by :meth:`engine.store.journal.Journal.finish_input`): the record and the commands it goes with are
on disk together, with one fsync, or neither is; an input that applied no command writes it without
waiting for the disk (engine/store/writes.py). :meth:`BankerRecordStore.save` (a connection of its own,
``synchronous=FULL``) is for tools and tests. The banker builds and reads the object
(:mod:`engine.banker.resume`); this module only stores it. A row that is not valid JSON is ignored
(None), and the banker then resumes from the journal alone.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.store.schema import JournalError

_TABLE = "CREATE TABLE IF NOT EXISTS banker_record (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


class BankerRecordStore:
    """The banker's record in the installation file at ``path`` (its own connection; the journal's file)."""

    def __init__(self, path: str | os.PathLike[str], conn: sqlite3.Connection | None = None) -> None:
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = conn  # given: the journal's (never closed here)
        self._shared = conn is not None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
                conn.execute("PRAGMA busy_timeout=10000")
                conn.execute("PRAGMA synchronous=FULL")
                conn.execute("PRAGMA journal_size_limit=4194304")  # as the journal's (engine/store/journal.py)
                conn.execute(_TABLE)
            except sqlite3.Error as exc:
                raise JournalError(f"cannot open the banker's record in {self.path}: {exc}") from exc
            self._conn = conn
        return self._conn

    def load(self) -> dict[str, Any] | None:
        """The record last saved, or None (none yet, or not readable: the journal alone then decides)."""
        try:
            row = self._connection().execute("SELECT value FROM banker_record WHERE key = 'banker'").fetchone()
        except (sqlite3.Error, JournalError):
            return None
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except (ValueError, TypeError):
            return None
        return value if isinstance(value, dict) else None

    def save(self, record: Mapping[str, Any]) -> None:
        """Replace the record (durable when this returns); raises :class:`JournalError` if the write failed."""
        try:
            self.write(self._connection(), record)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot save the banker's record in {self.path}: {exc}") from exc

    def create(self) -> None:
        """Make the table if the file has none yet (nothing is written when it has one)."""
        try:
            self._connection().execute(_TABLE)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot make the banker's record in {self.path}: {exc}") from exc

    def write(self, conn: sqlite3.Connection, record: Mapping[str, Any]) -> None:
        """Replace the record through ``conn`` inside the caller's transaction (raises what SQLite raises)."""
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        conn.execute(_TABLE)  # (each time: a transaction that created it may have been rolled back)
        # UPDATE keeps the key's index entry: one page written, where a REPLACE also rewrites the index
        if conn.execute("UPDATE banker_record SET value = ? WHERE key = 'banker'", (text,)).rowcount == 0:
            conn.execute("INSERT INTO banker_record (key, value) VALUES ('banker', ?)", (text,))

    def close(self) -> None:
        """Close the connection (a later call opens it again); the journal's is left to the journal."""
        if self._shared:
            return
        if self._conn is not None:
            self._conn.close()
            self._conn = None
