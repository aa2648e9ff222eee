"""Checking an existing installation file before the journal opens it for writing.

Nothing here writes to the file: the checks read its header and use a read-only SQLite connection, and
remove the ``-wal``/``-shm`` files that such a connection may leave next to a refused file. A file with a
rollback journal next to it (a power cut while its first transaction was being written: the journal
creates its tables before it switches to WAL) is checked as SQLite will leave it after rolling that
transaction back, on a copy in a temporary folder.
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

from engine.store.faults import classify, storage_words
from engine.store.schema import (
    _HEADER_SIZE,
    _OUR_TABLES,
    _SQLITE_MAGIC,
    APPLICATION_ID,
    SCHEMA_VERSION,
    SIBLING_TABLES,
    JournalError,
)

_DATABASE_BANNER = re.compile(r"\*\*\* in database \w+ \*\*\*")


def check_words(pragma: str, problems: list[str], shown: int = 3, limit: int = 240) -> str:
    """SQLite's ``PRAGMA quick_check`` / ``integrity_check`` rows as one line of at most ``limit``
    characters: ``"quick_check: page 3: btreeInitPage() returns error code 11"``. A row may hold several
    lines (``*** in database main ***`` then the problem); the banner goes, the rest is joined with "; ",
    the first ``shown`` problems and how many more."""
    found: list[str] = []
    for row in problems:
        for line in str(row).splitlines():
            line = " ".join(_DATABASE_BANNER.sub("", line).split())
            if line:
                found.append(line[:1].lower() + line[1:] if line.startswith("Page ") else line)
    words = "; ".join(found[:shown]) or "not ok"
    if len(found) > shown:
        words += f" (and {len(found) - shown} more)"
    words = "".join(c if c.isprintable() else "?" for c in words)
    text = f"{pragma}: {words}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def existing_sidecars(path: Path) -> set[Path]:
    return {p for p in (Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")) if p.exists()}


def remove_new_sidecars(path: Path, before: set[Path]) -> None:
    """Remove the -wal/-shm files our read-only check of a refused file created (the file is untouched)."""
    for p in existing_sidecars(path) - before:
        p.unlink(missing_ok=True)


def inspect_file(path: Path, *, raw: bool = True) -> bool:
    """Check an existing file without writing to it; return True if it still needs our schema.

    Raises :class:`JournalError` for anything that is not an intact boardbank file (or an empty one).
    ``raw=False``: this process already has the file open through SQLite, so nothing here may open the
    file outside SQLite (a ``close()`` of another descriptor drops SQLite's POSIX locks, see
    engine/store/lock.py): the header and the rolled-back copy are skipped, SQLite's checks remain.
    """
    journal = Path(f"{path}-journal")
    if raw and journal.is_file() and journal.stat().st_size > 0:
        return _inspect_rolled_back(path, journal)
    return _inspect(path, path, raw=raw)


def _inspect_rolled_back(path: Path, journal: Path) -> bool:
    """:func:`inspect_file` for a file with a (hot) rollback journal: SQLite rolls the cut-off transaction
    back at the next read-write open, which a read-only check cannot do; check a rolled-back copy."""
    import shutil  # only here: opening a journal (a replay's, say) loads neither these nor the compression
    import tempfile  # modules shutil brings (4 ms)

    with tempfile.TemporaryDirectory(prefix="boardbank-inspect-") as tmp:
        copy = Path(tmp) / path.name
        try:
            shutil.copyfile(path, copy)
            shutil.copyfile(journal, f"{copy}-journal")
        except OSError as exc:
            raise JournalError(f"cannot read the journal {path}: {exc}") from exc
        try:
            with closing(sqlite3.connect(copy, isolation_level=None)) as rw:
                rw.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the rollback happens here
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{path} is corrupt or truncated ({exc}); refusing to touch it") from exc
        return _inspect(copy, path)


def _inspect(path: Path, shown: Path, *, raw: bool = True) -> bool:
    """The checks of :func:`inspect_file` on ``path``; messages name ``shown`` (the installation's file)."""
    if not raw:
        header = _SQLITE_MAGIC.ljust(_HEADER_SIZE, b"\0")  # checked when the file was first opened
    else:
        try:
            with path.open("rb") as f:
                header = f.read(_HEADER_SIZE)
        except OSError as exc:
            raise JournalError(f"cannot read the journal {shown}: {exc}") from exc
    if not header:
        return True  # a 0-byte file is an empty SQLite database: nothing in it can be lost
    if len(header) < _HEADER_SIZE or not header.startswith(_SQLITE_MAGIC):
        raise JournalError(
            f"{shown} is not a boardbank journal: expected an SQLite 3 file, found "
            f"{len(header)}+ bytes starting with {header[:16]!r}; refusing to touch it"
        )
    before = existing_sidecars(path)
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)) as ro:
            return _inspect_sqlite(shown, ro)
    except sqlite3.DatabaseError as exc:
        remove_new_sidecars(path, before)
        if classify(exc, shown).kind in ("full", "read_only", "missing_folder", "locked"):
            raise JournalError(f"cannot read {shown}: {storage_words(exc, shown)}") from exc  # not damage
        raise JournalError(f"{shown} is corrupt or truncated ({exc}); refusing to touch it") from exc
    except JournalError:
        remove_new_sidecars(path, before)
        raise


def _inspect_sqlite(path: Path, ro: sqlite3.Connection) -> bool:
    """The checks of :func:`inspect_file` through a read-only connection ``ro``."""
    app_id = ro.execute("PRAGMA application_id").fetchone()[0]
    tables = {r[0] for r in ro.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if app_id != APPLICATION_ID and (app_id != 0 or not tables <= SIBLING_TABLES):
        raise JournalError(
            f"{path} is an SQLite file of another application (application_id "
            f"{app_id:#010x}, tables {sorted(tables)}), not a boardbank journal "
            f"(expected application_id {APPLICATION_ID:#010x}); refusing to touch it"
        )
    problems = [r[0] for r in ro.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise JournalError(f"{path} is corrupt ({check_words('quick_check', problems)}); refusing to touch it")
    if "meta" not in tables:
        return True
    meta = dict(ro.execute("SELECT key, value FROM meta").fetchall())
    version = meta.get("schema_version")
    if meta.get("application") != "boardbank" or version is None or not version.isdigit():
        raise JournalError(f"{path} has a meta table that is not a boardbank journal's: {meta!r}")
    if int(version) > SCHEMA_VERSION:
        raise JournalError(
            f"{path} was written by a newer boardbank (schema {version}; this one reads up to {SCHEMA_VERSION})"
        )
    return any(t not in tables for t in _OUR_TABLES)
