"""Backing up and restoring the installation file through SQLite's online backup API.

:func:`backup` copies the file while a game may be running in another process: ``Connection.backup``
with one step reads one snapshot of the database (a WAL reader: the writer is not blocked and the copy
holds whole transactions only, so whole commands with all of their events). The copy is written next to
the destination under a temporary name, checked (``PRAGMA quick_check``, and the file checks the journal
makes before it opens a file), made a single self-contained file (``journal_mode=DELETE``) and only then
renamed to the destination, so a failed backup leaves no half file behind. An existing destination is
replaced only with ``force=True``.

:func:`restore` puts a backup back. The backup is checked first. An intact installation file is
overwritten through the backup API (SQLite's own locking and journal, so it is never half written); a
damaged one is moved aside (``NAME.damaged``, with its ``-wal``/``-shm``), never deleted.

Nothing here raises anything but :class:`JournalError` (an ``OSError``), and a refusal writes nothing.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from engine.store.inspect import existing_sidecars, inspect_file
from engine.store.schema import JournalError

__all__ = ["BackupReport", "backup", "restore", "verify"]


@dataclass(frozen=True, slots=True)
class BackupReport:
    """What was copied: ``size`` in bytes, ``games`` recorded in the copy, and a file moved aside (if any)."""

    source: Path
    dest: Path
    size: int
    games: int
    moved_aside: Path | None = None


def verify(path: Path) -> int:
    """Check a copy: an intact boardbank file whose ``PRAGMA quick_check`` says ok; return its game count."""
    inspect_file(path)
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as ro:
            problems = [row[0] for row in ro.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise JournalError(f"{path}: quick_check found {'; '.join(problems[:5])}")
            has_games = ro.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='games'").fetchone()
            return int(ro.execute("SELECT count(*) FROM games").fetchone()[0]) if has_games else 0
    except sqlite3.Error as exc:
        raise JournalError(f"cannot check {path}: {exc}") from exc


def _source(path: Path, what: str) -> None:
    if not path.is_file():
        raise JournalError(f"no {what} at {path}")
    inspect_file(path)  # refuses a damaged or foreign file, and writes nothing to it


def _copy(source: Path, dest: Path) -> None:
    """The backup API from ``source`` (read-only, one snapshot) into ``dest``, as a single-file database."""
    with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src, \
            closing(sqlite3.connect(dest, isolation_level=None)) as dst:
        src.backup(dst)  # pages=-1: every page in one step, from one read snapshot
        dst.execute("PRAGMA journal_mode=DELETE")


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _copy_into_new(source: Path, dest: Path) -> int:
    """Copy ``source`` to a temporary file beside ``dest``, verify it, rename it to ``dest``; the game count."""
    if not dest.parent.is_dir():
        raise JournalError(f"cannot write {dest}: the folder {dest.parent} does not exist")
    tmp = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    try:
        _copy(source, tmp)
        games = verify(tmp)
        os.replace(tmp, dest)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot copy {source} to {dest}: {exc}") from exc
    except OSError as exc:
        if isinstance(exc, JournalError):
            raise
        raise JournalError(f"cannot write {dest}: {exc.strerror or exc}") from exc
    finally:
        for p in (tmp, *existing_sidecars(tmp)):
            p.unlink(missing_ok=True)
    _fsync_folder(dest.parent)
    return games


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def backup(source: str | os.PathLike[str], dest: str | os.PathLike[str], *, force: bool = False) -> BackupReport:
    """Copy the installation file ``source`` to ``dest`` (consistent while another process writes to it).

    Refused (nothing written): a missing, damaged or foreign ``source``; ``dest`` the same file, a folder,
    or an existing file without ``force``; a copy that fails its checks.
    """
    src, dst = Path(source), Path(dest)
    _source(src, "installation file")
    if _same_file(src, dst):
        raise JournalError(f"{dst} is the installation file itself; name another file")
    if dst.is_dir():
        raise JournalError(f"{dst} is a folder; name the backup file, e.g. {dst / 'boardbank-backup.sqlite3'}")
    if dst.exists() and not force:
        raise JournalError(f"{dst} exists; pass --force to replace it")
    games = _copy_into_new(src, dst)
    return BackupReport(src, dst, dst.stat().st_size, games)


def _aside(path: Path) -> Path:
    """Move ``path`` and its ``-wal``/``-shm``/``-journal`` files to ``NAME.damaged`` (``.damaged-2``...)."""
    n = 1
    while True:
        aside = path.with_name(path.name + (".damaged" if n == 1 else f".damaged-{n}"))
        if not aside.exists():
            break
        n += 1
    for sidecar in existing_sidecars(path):
        os.replace(sidecar, Path(str(aside) + str(sidecar)[len(str(path)):]))
    os.replace(path, aside)
    return aside


def restore(backup_file: str | os.PathLike[str], target: str | os.PathLike[str], *,
            force: bool = False) -> BackupReport:
    """Put the backup ``backup_file`` back as the installation file ``target`` (stop the kiosk first).

    The backup is verified before anything is touched. A missing ``target`` is created; an existing one
    needs ``force``: intact, it is overwritten through the backup API; damaged or foreign, it is moved
    aside to ``NAME.damaged`` and a fresh copy takes its place.
    """
    src, dst = Path(backup_file), Path(target)
    _source(src, "backup file")
    verify(src)
    if _same_file(src, dst):
        raise JournalError(f"{src} is the installation file itself")
    if dst.exists() and not dst.is_file():
        raise JournalError(f"{dst} is not a file (expected the installation's SQLite file)")
    if dst.exists() and not force:
        raise JournalError(f"{dst} exists; pass --force to replace it with {src}")
    moved: Path | None = None
    if dst.exists():
        try:
            inspect_file(dst)
        except JournalError:
            moved = _aside(dst)
    if dst.exists():
        try:
            with closing(sqlite3.connect(f"file:{src}?mode=ro", uri=True)) as s, \
                    closing(sqlite3.connect(dst, isolation_level=None, timeout=10.0)) as d:
                s.backup(d)
            games = verify(dst)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot restore {src} into {dst}: {exc}") from exc
    else:
        games = _copy_into_new(src, dst)
    return BackupReport(src, dst, dst.stat().st_size, games, moved)
