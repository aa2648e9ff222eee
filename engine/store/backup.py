"""Backing up and restoring the installation file through SQLite's online backup API.

:func:`backup` copies the file while a game may be running in another process: ``Connection.backup``
with one step reads one snapshot of the database (a WAL reader: the writer is not blocked and the copy
holds whole transactions only, so whole commands with all of their events). The copy is written next to
the destination under a temporary name, checked (``PRAGMA quick_check``, and the file checks the journal
makes before it opens a file), made a single self-contained file (``journal_mode=DELETE``) and only then
renamed to the destination, so a failed backup leaves no half file behind. An existing destination is
replaced only with ``force=True``.

:func:`backup` refuses every destination that is, or belongs to, the live file: the file under another
spelling, through a symbolic or a hard link, and its ``-wal``, ``-shm``, ``-journal`` and ``.lock``.

:func:`restore` puts a backup back. The backup is checked completely before anything is touched
(:func:`check_backup`: not empty, SQLite's ``integrity_check``, boardbank's ``application_id`` and schema,
every record decodes and its hash chain holds, every game replays and passes its invariants). It is
refused while a unit holds the installation file (engine/store/lock.py), and held itself for the restore.
The copy is written beside the target under a temporary name and checked again; the file it replaces is
kept beside it (``NAME.before-restore``, or ``NAME.damaged`` for a damaged one, with its ``-wal``/``-shm``),
never deleted, and only then is the copy renamed into place.

Nothing here raises anything but :class:`JournalError` (an ``OSError``), and a refusal writes nothing.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from engine.editions import load_edition
from engine.errors import EngineError
from engine.game import Game
from engine.records import command_from_record
from engine.store import lock
from engine.store.inspect import check_words, existing_sidecars, inspect_file
from engine.store.journal import Journal
from engine.store.schema import _OUR_TABLES, APPLICATION_ID, JournalError

__all__ = ["BackupReport", "backup", "check_backup", "restore", "verify"]

SIDECARS = ("-wal", "-shm", "-journal", ".lock")
"""What belongs to the installation file beside it: SQLite's files and our writer's lock file."""


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
                raise JournalError(f"{path} is corrupt ({check_words('quick_check', problems)})")
            has_games = ro.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='games'").fetchone()
            return int(ro.execute("SELECT count(*) FROM games").fetchone()[0]) if has_games else 0
    except sqlite3.Error as exc:
        raise JournalError(f"cannot check {path}: {exc}") from exc


def check_backup(path: Path) -> int:
    """Check a backup completely (see the module docstring) without writing to it; its game count.
    Raises :class:`JournalError` naming the first problem."""
    if not path.is_file():
        raise JournalError(f"no backup file at {path}")
    if path.stat().st_size == 0:
        raise JournalError(f"{path} is empty (0 bytes): not a backup")
    if inspect_file(path):
        raise JournalError(f"{path} holds no boardbank journal (no games were ever recorded in it): not a backup")
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as ro:
            app_id = ro.execute("PRAGMA application_id").fetchone()[0]
            if app_id != APPLICATION_ID:
                raise JournalError(f"{path} is not a boardbank file (application_id {app_id:#010x})")
            problems = [row[0] for row in ro.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise JournalError(f"{path} is corrupt ({check_words('integrity_check', problems)})")
            tables = {r[0] for r in ro.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            missing = [t for t in _OUR_TABLES if t not in tables]
            if missing:
                raise JournalError(f"{path} lacks the journal's tables {missing}: not a boardbank backup")
    except sqlite3.Error as exc:
        raise JournalError(f"cannot check {path}: {exc}") from exc
    with Journal.open(path, read_only=True) as journal:
        games = journal.games()
        for info in games:
            _check_game(journal, info.id, path)
    return len(games)


def _check_game(journal: Journal, game_id: int, path: Path) -> None:
    """Every record of the game decodes (chain included) and the game replays with its invariants."""
    try:
        edition_id, events = journal.load(game_id)
        ruleset = load_edition(edition_id).ruleset
        for record in journal.command_records(game_id):
            command_from_record({k: v for k, v in record.items() if k != "number"}, ruleset)
        problems = Game.replay(load_edition(edition_id), events).invariants()
    except (EngineError, ValueError, KeyError, TypeError) as exc:
        raise JournalError(f"{path}: game {game_id} does not replay: {exc}") from None
    if problems:
        raise JournalError(f"{path}: game {game_id} replays into a broken state: {'; '.join(problems[:3])}")


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
        return a.resolve() == b.resolve() or (b.exists() and a.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def belongs_to(live: Path, other: Path) -> str | None:
    """How ``other`` is, or belongs to, the installation file ``live`` (None when it does not): the file
    itself under any spelling or link, or one of its :data:`SIDECARS`."""
    if _same_file(live, other):
        return "the installation file itself"
    real = live.resolve()
    for suffix in SIDECARS:
        sidecar = Path(f"{real}{suffix}")
        if _same_file(sidecar, other) or other.resolve() == sidecar:
            return f"the installation file's {suffix.lstrip('-.')} file"
    return None


def backup(source: str | os.PathLike[str], dest: str | os.PathLike[str], *, force: bool = False) -> BackupReport:
    """Copy the installation file ``source`` to ``dest`` (consistent while another process writes to it).

    Refused (nothing written): a missing, damaged or foreign ``source``; ``dest`` the same file, a folder,
    or an existing file without ``force``; a copy that fails its checks.
    """
    src, dst = Path(source), Path(dest)
    _source(src, "installation file")
    what = belongs_to(src, dst)
    if what is not None:
        raise JournalError(f"{dst} is {what} ({src}); name another file")
    if dst.is_dir():
        raise JournalError(f"{dst} is a folder; name the backup file, e.g. {dst / 'boardbank-backup.sqlite3'}")
    if dst.exists() and not force:
        raise JournalError(f"{dst} exists; pass --force to replace it")
    games = _copy_into_new(src, dst)
    return BackupReport(src, dst, dst.stat().st_size, games)


def _aside(path: Path, label: str) -> Path:
    """Move ``path`` and its ``-wal``/``-shm``/``-journal`` files to ``NAME.LABEL`` (``.LABEL-2``...)."""
    n = 1
    while True:
        aside = path.with_name(path.name + (f".{label}" if n == 1 else f".{label}-{n}"))
        if not aside.exists() and not existing_sidecars(aside):
            break
        n += 1
    for sidecar in existing_sidecars(path):
        os.replace(sidecar, Path(str(aside) + str(sidecar)[len(str(path)):]))
    os.replace(path, aside)
    return aside


def restore(backup_file: str | os.PathLike[str], target: str | os.PathLike[str], *,
            force: bool = False) -> BackupReport:
    """Put the backup ``backup_file`` back as the installation file ``target`` (see the module docstring).

    A missing ``target`` is created; an existing one needs ``force`` and is kept beside it. Refused with
    nothing touched: a backup that fails :func:`check_backup`, a backup that is or belongs to ``target``,
    a ``target`` a running unit holds.
    """
    src, dst = Path(backup_file), Path(target)
    what = belongs_to(dst, src)
    if what is not None:
        raise JournalError(f"{src} is {what}; name a backup file")
    check_backup(src)
    if dst.exists() and not dst.is_file():
        raise JournalError(f"{dst} is not a file (expected the installation's SQLite file)")
    if not dst.parent.is_dir():
        raise JournalError(f"cannot restore into {dst}: the folder {dst.parent} does not exist")
    lock.acquire(dst)  # refused while the kiosk or headless runs on it
    try:
        if dst.exists() and not force:
            raise JournalError(f"{dst} exists; pass --force to replace it with {src} (it is kept beside it)")
        tmp = dst.with_name(f".{dst.name}.restoring-{os.getpid()}")
        try:
            _copy(src, tmp)
            games = check_backup(tmp)
            moved: Path | None = None
            if dst.exists():
                try:
                    inspect_file(dst)
                    label = "before-restore"
                except JournalError:
                    label = "damaged"
                moved = _aside(dst, label)
            os.replace(tmp, dst)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot restore {src} into {dst}: {exc}") from exc
        except OSError as exc:
            if isinstance(exc, JournalError):
                raise
            raise JournalError(f"cannot restore {src} into {dst}: {exc.strerror or exc}") from exc
        finally:
            for p in (tmp, *existing_sidecars(tmp)):
                p.unlink(missing_ok=True)
        _fsync_folder(dst.parent)
    finally:
        lock.release(dst)
    return BackupReport(src, dst, dst.stat().st_size, games, moved)
