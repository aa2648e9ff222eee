"""Checkpoints of the journal when the unit is idle, never inside a tap.

The journal turns SQLite's automatic checkpoints off (engine/store/journal.py), so a commit never pays for
copying the WAL into the database file. This thread does it instead, on a connection of its own: every
``poll_s`` seconds it looks at the WAL file, and once nothing was written to it for ``idle_s`` seconds (the
table is idle, or a game has just ended) it runs a passive checkpoint, which never blocks a writer. Times
are seconds of the monotonic clock and of the file's modification time.

The connection is opened once, when the thread starts, and closed when it stops: opening and closing the
file at each checkpoint inside the running unit once dropped the unit's SQLite locks (a ``close()`` of
another descriptor of the file cancels a process's POSIX locks), and a second process could then delete
the live WAL (engine/store/lock.py).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

from engine.store.journal import Journal, JournalError

log = logging.getLogger(__name__)


class IdleCheckpointer:
    """Checkpoints ``db``'s WAL after ``idle_s`` seconds without a write; :meth:`stop` ends the thread."""

    def __init__(self, db: Path, idle_s: float = 5.0, poll_s: float = 1.0) -> None:
        self.db, self.idle_s, self.poll_s = Path(db), idle_s, poll_s
        self.checkpoints = 0  # how many ran (for tests and logs)
        self._stop = threading.Event()
        self._done_mtime: float | None = None
        self._thread = threading.Thread(target=self._run, name="journal-checkpoint", daemon=True)
        self._journal: Journal | None = None
        self._mutex = threading.Lock()

    def start(self) -> IdleCheckpointer:
        self._thread.start()
        return self

    def _open(self) -> Journal | None:
        """The checkpointer's own connection, opened once (the unit already holds and checked the file)."""
        if self._journal is None:
            try:
                self._journal = Journal.open(self.db)
            except JournalError as exc:
                log.warning("journal checkpoint skipped: %s", exc)
        return self._journal

    def stop(self) -> None:
        """Stop the thread (waits for a checkpoint under way); idempotent."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        with self._mutex:
            if self._journal is not None:
                self._journal.close()
                self._journal = None

    def _wal_mtime(self) -> float | None:
        try:
            wal = os.stat(f"{self.db}-wal")
        except OSError:
            return None
        return wal.st_mtime if wal.st_size > 0 else None

    def due(self, now: float) -> bool:
        """Whether the WAL has writes not yet checkpointed and none for ``idle_s`` seconds (``now``: wall s)."""
        mtime = self._wal_mtime()
        return mtime is not None and mtime != self._done_mtime and now - mtime >= self.idle_s

    def run_once(self) -> bool:
        """Checkpoint now; True when it copied the whole WAL."""
        with self._mutex:
            journal = self._open()
            if journal is None:
                return False
            try:
                frames, copied = journal.checkpoint()
            except JournalError as exc:
                log.warning("journal checkpoint skipped: %s", exc)
                return False
        self._done_mtime = self._wal_mtime()
        self.checkpoints += 1
        return frames == copied

    def _run(self) -> None:
        while not self._stop.wait(self.poll_s):
            if self.due(time.time()):
                self.run_once()
