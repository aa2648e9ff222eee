"""One writer per installation file: an exclusive lock on a sidecar file, held for the writer's life.

Every process that writes to the installation file (``run``, ``headless``, ``cards enroll``, ``restore``)
takes an exclusive ``flock`` on ``NAME.lock`` beside it before its first write and keeps it until it
closes the file; a second such process is refused at once with one line ("the installation file ... is in
use by pid N"), before it opens an SQLite connection, so it can never delete or truncate the first one's
WAL. Read-only commands (``replay``, ``export``, ``doctor``, ``backup``) take no lock.

The lock is on a separate file, never on the database file: SQLite's own POSIX locks on the database
file are dropped by the kernel when any descriptor of that file is closed in the same process ("How To
Corrupt An SQLite Database File", section 2.2), so nothing of ours opens the database file outside an
SQLite connection once a connection is open (:func:`held_here` tells the file checks so). ``flock`` locks
belong to the open file description, so closing another descriptor of the lock file drops nothing either.

Inside one process the lock is counted: a second open of the same file by the same process (tests, the
banker's own connections) shares it. The lock file holds the holder's pid as text; it is never deleted
(deleting a lock file opens a race between two starters).
"""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from engine.store.schema import JournalError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock (the kiosk is Linux)
    fcntl = None  # type: ignore[assignment]


class InUse(JournalError):
    """Another process holds the installation file for writing."""


@dataclass
class _Held:
    fd: int | None
    count: int


T = TypeVar("T")
_HELD: dict[str, _Held] = {}
_MUTEX = threading.RLock()  # re-entrant: a journal never closed is released by its finalizer, which the
# garbage collector may run inside acquire() on the same thread (a plain Lock then waited for itself forever)


def lock_path(db: Path) -> Path:
    """The sidecar lock file of the installation file ``db``."""
    return Path(f"{db}.lock")


def _key(db: Path) -> str:
    return os.path.realpath(db)


def held_here(db: Path) -> bool:
    """Whether this process holds ``db`` open for writing (its SQLite locks must not be disturbed)."""
    with _MUTEX:
        return _key(db) in _HELD


def holder(db: Path) -> int | None:
    """The pid written in ``db``'s lock file by its last holder (None when unknown)."""
    try:
        text = lock_path(db).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _open_lock_file(path: Path) -> int | None:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if exc.errno in (errno.EROFS, errno.EACCES, errno.ENOSPC, errno.EDQUOT):
            try:  # a read-only mount or a full disk: an existing lock file still locks
                return os.open(path, os.O_RDONLY)
            except OSError:
                return None  # nothing can write there either: SQLite reports the file as it is
        if exc.errno == errno.ENOENT:
            raise JournalError(f"the folder {path.parent} does not exist; create it first, or pass another --db") from None
        raise JournalError(f"cannot create the lock file {path}: {exc.strerror or exc}") from exc


def acquire(db: Path) -> None:
    """Hold ``db`` for writing (counted per process); :class:`InUse` when another process holds it."""
    key = _key(db)
    with _MUTEX:
        held = _HELD.get(key)
        if held is not None:
            held.count += 1
            return
        path = lock_path(Path(key))
        fd = _open_lock_file(path) if fcntl is not None else None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise JournalError(f"cannot lock {path}: {exc.strerror or exc}") from exc
                pid = holder(db)
                who = f"pid {pid}" if pid is not None else "another process"
                raise InUse(f"the installation file {db} is in use by {who}; stop it first "
                            f"(read-only commands such as replay, export, backup and doctor work meanwhile)") from None
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
            except OSError:
                pass  # a full disk or a read-only lock file: the lock holds all the same
        _HELD[key] = _Held(fd, 1)


def opened(db: Path, opener: Callable[[Path], T]) -> T:
    """``opener(db)`` while holding ``db`` (:func:`acquire`); the lock is dropped again if it fails (the
    caller :func:`release`-s it after closing what it opened)."""
    acquire(db)
    try:
        return opener(db)
    except BaseException:
        release(db)
        raise


def release(db: Path) -> None:
    """Undo one :func:`acquire` of ``db``; the last one drops the lock."""
    key = _key(db)
    with _MUTEX:
        held = _HELD.get(key)
        if held is None:
            return
        held.count -= 1
        if held.count > 0:
            return
        del _HELD[key]
        if held.fd is not None:
            os.close(held.fd)  # closing the only descriptor of the lock file drops the flock
