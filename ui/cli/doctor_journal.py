"""The installation file's checks of ``boardbank doctor``: free space, the journal, its WAL, the PIN.

Nothing here writes to the file or creates it: a damaged or foreign file is reported (and refused by the
doctor, exit status 2) through ``engine.store.inspect.inspect_file``; everything else is read through a
read-only SQLite connection.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from engine.banker.pin import is_pin, is_record
from engine.store import lock
from engine.store.faults import FIXES, classify
from engine.store.schema import JournalError
from ui.cli.dbfile import refuse_unusable
from ui.cli.doctor_checks import FAIL, OK, WARN, Check

SPACE_FAIL = 50 * 2**20  # bytes free below which the journal may soon fail to write
SPACE_WARN = 500 * 2**20
WAL_WARN = 64 * 2**20  # bytes: a WAL this large means checkpoints are not happening
RESTORE_FIX = ("restore a backup: `boardbank restore BACKUP --force` (the damaged file is moved aside); "
               "or move the file away to start afresh")


def _existing_folder(path: Path) -> Path:
    probe = path.parent
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe


def check_space(path: Path) -> Check:
    """Free space on the file system where the journal lives (or will)."""
    folder = _existing_folder(path) if not path.exists() else path.parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError as exc:
        return Check("space", WARN, f"cannot measure free space in {folder}: {exc}")
    detail = f"{free / 2**20:.0f} MiB free in {folder}"
    if free < SPACE_FAIL:
        return Check("space", FAIL, detail, "free space: the journal cannot record a game on a full disk", "full")
    if free < SPACE_WARN:
        return Check("space", WARN, detail, "free some space (old logs: journalctl --vacuum-size=50M)")
    return Check("space", OK, detail)


def _read_only_mount(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def check_journal(path: Path, explicit: bool = True) -> Check:
    """Where the installation file lives, that it can be written, and that it is an intact boardbank file
    (header, application id, schema, ``PRAGMA quick_check``). Each fault has its own words and fix
    (``fault``: full, read_only, missing_folder, corrupt). ``explicit``: the path was named (``--db`` or
    ``$BOARDBANK_DB``), so its folder must exist, as ``run`` and ``headless`` require."""
    folder = path.parent
    if not path.exists():
        if explicit and not folder.is_dir():
            return Check("journal", FAIL, f"{path}: the folder {folder} does not exist (run and headless refuse it)",
                         FIXES["missing_folder"], "missing_folder")
        probe = _existing_folder(path)
        if _read_only_mount(probe):
            return Check("journal", FAIL, f"{path}: cannot be created, {probe} is on a read-only mount",
                         FIXES["read_only"], "read_only")
        if os.access(probe, os.W_OK):
            return Check("journal", OK, f"{path} (will be created)")
        return Check("journal", FAIL, f"{path}: cannot be created, {probe} is not writable",
                     f"create {folder} for this user, or pass --db PATH", "read_only")
    try:
        refuse_unusable(path)
    except JournalError as exc:
        kind = classify(exc, path).kind
        if kind in ("full", "read_only", "missing_folder", "locked"):
            return Check("journal", FAIL, str(exc), FIXES[kind], kind)
        return Check("journal", FAIL, str(exc), RESTORE_FIX, "corrupt")
    size = path.stat().st_size
    if _read_only_mount(folder):
        return Check("journal", FAIL, f"{path} ({size} bytes, intact): on a read-only mount, nothing can be recorded",
                     FIXES["read_only"], "read_only")
    if not (os.access(path, os.R_OK | os.W_OK) and os.access(folder, os.W_OK)):
        return Check("journal", FAIL, f"{path} ({size} bytes): not writable (the WAL needs the folder too)",
                     f"chown the file and {folder} to the user that runs the kiosk", "read_only")
    games = _read(path, "SELECT count(*) FROM games", "games")
    count = f", {games[0][0]} games" if games else ""
    return Check("journal", OK, f"{path} ({size} bytes, quick_check ok{count})")


def check_writer(path: Path) -> Check:
    """Whether a unit (or another writer) holds the file now (engine/store/lock.py): fine while it runs,
    but another writer is then refused."""
    if not _held(path):
        return Check("writer", OK, "no process holds the file for writing")
    return Check("writer", OK, f"held for writing by pid {lock.holder(path)} (a running unit); other writers are refused "
                               "until it stops", FIXES["locked"], "locked")


def _held(path: Path) -> bool:
    try:
        fd = os.open(lock.lock_path(path), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def _read(path: Path, sql: str, table: str) -> list[tuple[object, ...]]:
    """Rows of ``sql`` through a read-only connection; [] when ``table`` does not exist or the file is empty."""
    if path.stat().st_size == 0:
        return []
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as ro:
        if ro.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone() is None:
            return []
        return list(ro.execute(sql).fetchall())


def check_wal(path: Path) -> Check:
    """The size of the journal's write-ahead log (it is folded back into the file at checkpoints)."""
    wal = Path(f"{path}-wal")
    size = wal.stat().st_size if wal.exists() else 0
    detail = f"{wal.name}: {size} bytes" if wal.exists() else "no WAL file (no connection open)"
    if size > WAL_WARN:
        return Check("journal wal", WARN, detail + f" (over {WAL_WARN // 2**20} MiB)",
                     "restart the kiosk: the last connection to close checkpoints the WAL into the file")
    return Check("journal wal", OK, detail)


def check_pin(path: Path) -> Check:
    """Whether the banker's menu has a PIN (its salted hash in the settings; the value is never shown).
    A plain PIN kept by an earlier version counts as set: the unit replaces it by its hash at start."""
    fix = "set a PIN in the banker's menu (Settings): until then anyone can open the menu"
    unset = Check("pin", WARN, "pin: not set (the banker's menu opens without one)", fix)
    if not path.exists():
        return unset
    try:
        rows = dict(_read(path, "SELECT key, value FROM settings WHERE key IN ('pin_hash', 'pin')", "settings"))
    except sqlite3.Error as exc:
        return Check("pin", WARN, f"cannot read the settings: {exc}", fix)
    values = {}
    for key, raw in rows.items():
        try:
            values[key] = json.loads(str(raw))
        except ValueError:
            values[key] = None
    if is_record(values.get("pin_hash")) or is_pin(str(values.get("pin") or "")):
        return Check("pin", OK, "pin: set")
    return unset


def journal_checks(path: Path, explicit: bool = True) -> list[Check]:
    """The installation file's checks, in order; the WAL and the PIN only for a file that passed."""
    journal = check_journal(path, explicit)
    checks = [check_space(path), journal, check_writer(path)]
    if journal.status == OK and path.exists():
        checks += [check_wal(path), check_pin(path)]
    elif journal.status != FAIL:
        checks.append(check_pin(path))
    return checks


__all__ = ["FAIL", "OK", "WARN", "check_journal", "check_pin", "check_space", "check_wal", "check_writer",
           "journal_checks"]
