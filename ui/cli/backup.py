"""``boardbank backup DEST`` and ``boardbank restore BACKUP``: the installation file, copied safely.

``restore`` checks the backup completely first (engine/store/backup.py), is refused while a unit holds
the file, and keeps the file it replaces beside it (``NAME.before-restore``, ``NAME.damaged``).

``backup`` copies the installation file (``--db``, ``$BOARDBANK_DB`` or the default) through SQLite's
online backup API (``engine/store/backup.py``): it is safe while the kiosk plays, the copy is checked
with ``PRAGMA quick_check``, and an existing DEST is replaced only with ``--force``. ``restore`` puts a
backup back (stop the kiosk first); an existing installation file needs ``--force``, and a damaged one
is moved aside to ``NAME.damaged``, never deleted. Exit status 0, or 2 with one line
``boardbank backup: ...`` / ``boardbank restore: ...`` when nothing was done.
"""

from __future__ import annotations

import argparse
import sys

from engine.store.backup import BackupReport, backup, restore
from engine.store.schema import JournalError
from ui.paths import resolve_db


def _done(verb: str, report: BackupReport) -> int:
    print(f"{verb} {report.source} -> {report.dest} ({report.size} bytes, {report.games} games, quick_check ok)")
    if report.moved_aside is not None:
        print(f"the file it replaced was kept as {report.moved_aside}")
    return 0


def backup_main(args: argparse.Namespace) -> int:
    """The ``backup`` subcommand."""
    try:
        report = backup(resolve_db(getattr(args, "db", None)), args.dest, force=bool(args.force))
    except JournalError as exc:
        print(f"boardbank backup: {exc}", file=sys.stderr)
        return 2
    return _done("backed up", report)


def restore_main(args: argparse.Namespace) -> int:
    """The ``restore`` subcommand."""
    try:
        report = restore(args.source, resolve_db(getattr(args, "db", None)), force=bool(args.force))
    except JournalError as exc:
        print(f"boardbank restore: {exc}", file=sys.stderr)
        return 2
    return _done("restored", report)
