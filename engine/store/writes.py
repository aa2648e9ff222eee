"""The journal connection's write transactions: one per write, or one per input of the banker.

Outside an input every write of the journal (a game created, a command appended) is its own transaction,
committed with ``synchronous=FULL``: on disk when it returns (one fsync of the WAL).

Inside an input (:meth:`Writes.begin` ... :meth:`Writes.finish`, the banker's tap, press, choice or tick)
the first write opens ONE transaction (``BEGIN IMMEDIATE``) and every later write of the input joins it;
:meth:`Writes.finish` adds what else goes with the input (the banker's record, :mod:`engine.store.bankerrecord`)
and commits it all at once, with ``synchronous=FULL``: a committing tap costs one fsync, and a power cut or a
kill leaves either the whole input (commands and record) or none of it. An input that wrote no command
writes its record (if it changed) in a transaction of its own with ``synchronous=OFF``: handed to the
operating system, never waited for (NORMAL would still sync the WAL's header each time the WAL starts over
after a checkpoint). A kill of the process loses nothing of it; a power cut may lose it, and the unit then
comes back in the prompt of an earlier input, never before the last committed command (docs/architecture.md
"Where state lives"). ``PRAGMA synchronous`` cannot change inside a transaction, so the level is set before
each ``BEGIN``; the WAL is one file written in order, so the next FULL commit's fsync also makes every
unsynced write before it durable, and SQLite's frame checksums drop a torn tail after a power cut.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.store.tail import Tails


def dumps_record(record: Mapping[str, Any]) -> str:
    """A record as the journal stores it: compact JSON, keys sorted, UTF-8 text."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


WAL_LIMIT = 4 * 2**20
"""Bytes of WAL kept when a writer restarts it after a complete checkpoint (the rest goes back to the disk)."""


def connect_writer(path: Path) -> sqlite3.Connection:
    """A read-write connection with the durability pragmas (they are per connection)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
    conn.execute("PRAGMA busy_timeout=10000")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run when the unit is idle, never in a tap
    conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")  # a WAL restarted after a checkpoint gives its space back
    return conn


@contextmanager
def reading(conn: sqlite3.Connection) -> Iterator[None]:
    """One read transaction (or the input's write transaction under way, which sees its own rows)."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


Also = Callable[[sqlite3.Connection], None]
"""What :meth:`Writes.finish` writes with the input, given the connection (inside the transaction)."""


class Writes:
    """The write transactions of one read-write connection of the journal (see the module docstring)."""

    def __init__(self, conn: sqlite3.Connection, tails: Tails) -> None:
        self.conn = conn
        self.tails = tails
        self.batch = False  # an input is under way: its writes wait for finish()
        self.open = False  # the input's transaction has begun (it holds a command)
        self._level = "FULL"  # the connection's synchronous level now (journal.connect_writer sets FULL)

    def _sync(self, level: str) -> None:
        if self._level != level:
            self.conn.execute(f"PRAGMA synchronous={level}")
            self._level = level

    def _open_batch(self) -> None:
        if not self.open:
            self._sync("FULL")
            self.conn.execute("BEGIN IMMEDIATE")
            self.open = True

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write: its own transaction, or (inside an input) the input's."""
        conn = self.conn
        if self.batch:
            self._open_batch()
            try:
                yield conn
            except BaseException:
                self.abort()
                raise
            return
        self._sync("FULL")
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            self.tails.forget()  # what is on disk is read again at the next append
            if conn.in_transaction:  # a failed COMMIT may leave the transaction open
                conn.execute("ROLLBACK")
            raise

    def before_statement(self) -> None:
        """Before a one-statement append (engine/store/tail.py): inside an input it joins the input's
        transaction; outside one it commits by itself, at FULL."""
        if self.batch:
            self._open_batch()
        else:
            self._sync("FULL")

    def failed(self) -> None:
        """A write failed: inside an input, the whole input's transaction is rolled back."""
        if self.batch:
            self.abort()

    def begin(self) -> None:
        """An input starts; a transaction an earlier input left open (it never finished) is committed first,
        so that the disk holds what the game in memory holds."""
        if self.open:
            self.finish(None)
        self.batch = True

    def finish(self, also: Also | None) -> bool:
        """The input is over: ``also`` written with it and everything committed (FULL: one fsync) when it
        wrote a command; else ``also`` alone at OFF (no fsync). True when a command was committed.
        Raises what SQLite raises; the input's writes are then rolled back."""
        self.batch = False
        conn = self.conn
        if self.open:
            try:
                if also is not None:
                    also(conn)
                conn.execute("COMMIT")
            except BaseException:
                self.abort()
                raise
            self.open = False
            return True
        if also is not None:
            self._sync("OFF")
            try:
                conn.execute("BEGIN IMMEDIATE")
                also(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        return False

    def abort(self) -> None:
        """Roll the input's transaction back (nothing of it reaches the disk)."""
        self.tails.forget()
        self.open = False
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
