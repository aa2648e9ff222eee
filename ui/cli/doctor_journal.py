"""The installation file's checks of ``boardbank doctor``: free space, the journal, its WAL, the PIN.

Nothing here writes to the file or creates it: a damaged or foreign file is reported (and refused by the
doctor, exit status 2) through ``engine.store.inspect.inspect_file``; everything else is read through a
read-only SQLite connection.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from engine.store.schema import JournalError
from ui.cli.dbfile import refuse_unusable
from ui.cli.doctor_checks import FAIL, OK, WARN, Check

DEFAULT_PIN = "1234"  # ui/settings.py SettingsStore.banker's default (a test keeps the two equal)
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
        return Check("space", FAIL, detail, "free space: the journal cannot record a game on a full disk")
    if free < SPACE_WARN:
        return Check("space", WARN, detail, "free some space (old logs: journalctl --vacuum-size=50M)")
    return Check("space", OK, detail)


def check_journal(path: Path) -> Check:
    """Where the installation file lives, that it can be written, and that it is an intact boardbank file
    (header, application id, schema, ``PRAGMA quick_check``)."""
    folder = path.parent
    if not path.exists():
        probe = _existing_folder(path)
        if os.access(probe, os.W_OK):
            return Check("journal", OK, f"{path} (will be created)")
        return Check("journal", FAIL, f"{path}: cannot be created, {probe} is not writable",
                     f"create {folder} for this user, or pass --db PATH")
    try:
        refuse_unusable(path)
    except JournalError as exc:
        return Check("journal", FAIL, str(exc), RESTORE_FIX)
    size = path.stat().st_size
    if not (os.access(path, os.R_OK | os.W_OK) and os.access(folder, os.W_OK)):
        return Check("journal", FAIL, f"{path} ({size} bytes): not writable (the WAL needs the folder too)",
                     f"chown the file and {folder} to the user that runs the kiosk")
    games = _read(path, "SELECT count(*) FROM games", "games")
    count = f", {games[0][0]} games" if games else ""
    return Check("journal", OK, f"{path} ({size} bytes, quick_check ok{count})")


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
    """Whether a menu PIN other than the default was set (the value itself is never shown)."""
    fix = "set a PIN of your own in the banker's menu (Settings)"
    if not path.exists():
        return Check("pin", WARN, f"pin: not set (the menu opens with the default {DEFAULT_PIN})", fix)
    try:
        rows = _read(path, "SELECT value FROM settings WHERE key = 'pin'", "settings")
    except sqlite3.Error as exc:
        return Check("pin", WARN, f"cannot read the settings: {exc}", fix)
    try:
        pin = json.loads(str(rows[0][0])) if rows else None
    except ValueError:
        pin = None
    if not isinstance(pin, str) or pin == DEFAULT_PIN:
        return Check("pin", WARN, f"pin: not set (the menu opens with the default {DEFAULT_PIN})", fix)
    return Check("pin", OK, "pin: set")


def journal_checks(path: Path) -> list[Check]:
    """The installation file's checks, in order; the WAL and the PIN only for a file that passed."""
    journal = check_journal(path)
    checks = [check_space(path), journal]
    if journal.status == OK and path.exists():
        checks += [check_wal(path), check_pin(path)]
    elif journal.status != FAIL:
        checks.append(check_pin(path))
    return checks


__all__ = ["DEFAULT_PIN", "FAIL", "OK", "WARN", "check_journal", "check_pin", "check_space", "check_wal",
           "journal_checks"]
