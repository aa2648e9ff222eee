"""What went wrong with the installation file, in words that fit the fault and say the fix.

A storage failure reaches us as an ``sqlite3.Error`` (with SQLite's result code), an ``OSError`` (with its
errno) or our :class:`~engine.store.schema.JournalError` wrapping one of them. :func:`classify` names the
fault — ``full``, ``read_only``, ``locked`` (another process), ``missing_folder``, ``corrupt`` or ``io`` —
and :func:`storage_words` gives one line for people. A "disk I/O error" on a file system with no free
space is a full disk (SQLite reports a failed write of its ``-shm`` or ``-wal`` that way).
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from engine.store.lock import InUse

FULL_BELOW = 64 * 1024  # bytes free under which an I/O error is taken for a full disk

FIXES = {
    "full": "free some space on the disk; the unit goes on by itself once there is room",
    "read_only": "the file or its folder is read-only (a read-only mount, or the wrong owner): remount it "
                 "read-write or chown it to the user that runs the kiosk",
    "locked": "another boardbank process holds the file: stop it (read-only commands work meanwhile)",
    "missing_folder": "create the folder first, or pass another --db",
    "corrupt": "restore a backup: `boardbank restore BACKUP --force` (the damaged file is kept beside it)",
    "io": "check the disk (dmesg): the file could not be read or written",
}

_SQLITE_KINDS = {13: "full", 8: "read_only", 5: "locked", 6: "locked", 11: "corrupt", 26: "corrupt", 10: "io"}
_ERRNO_KINDS = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EROFS: "read_only", errno.EACCES: "read_only",
                errno.EPERM: "read_only", errno.ENOENT: "missing_folder", errno.EIO: "io"}
_TEXT_KINDS = (("in use by", "locked"), ("disk is full", "full"), ("readonly", "read_only"), ("read-only", "read_only"),
               ("database is locked", "locked"), ("malformed", "corrupt"),
               ("not a database", "corrupt"), ("corrupt", "corrupt"), ("does not exist", "missing_folder"),
               ("disk i/o error", "io"), ("unable to open database file", "cantopen"))


@dataclass(frozen=True, slots=True)
class Fault:
    """A storage fault: its ``kind`` (a key of :data:`FIXES`), what happened, and the fix."""

    kind: str
    detail: str

    @property
    def fix(self) -> str:
        return FIXES[self.kind]

    def line(self) -> str:
        return f"{self.detail} — {self.fix}"


def _free(path: Path | None) -> int | None:
    probe = path
    while probe is not None and not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if probe is None:
        return None
    try:
        import shutil  # only when a fault is classified: no journal's open loads it

        return shutil.disk_usage(probe if probe.is_dir() else probe.parent).free
    except OSError:
        return None


def _writable(path: Path) -> bool:
    folder = path.parent
    return folder.is_dir() and os.access(folder, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))


def classify(exc: BaseException, path: Path | None = None) -> Fault:
    """The fault behind ``exc`` (an error about the installation file ``path``, if known)."""
    kind: str | None = "locked" if isinstance(exc, InUse) else None
    for e in ([] if kind else _chain(exc)):
        code = getattr(e, "sqlite_errorcode", None)
        if isinstance(code, int) and (code & 0xFF) in _SQLITE_KINDS:
            kind = _SQLITE_KINDS[code & 0xFF]
            break
        if isinstance(e, OSError) and e.errno in _ERRNO_KINDS:
            kind = _ERRNO_KINDS[e.errno]
            break
    text = str(exc)
    if kind is None:
        lowered = text.lower()
        kind = next((k for needle, k in _TEXT_KINDS if needle in lowered), "io")
    if kind in ("io", "cantopen", "read_only", "corrupt") and path is not None:
        free = _free(path)
        if free is not None and free < FULL_BELOW and kind != "corrupt":
            kind = "full"
        elif kind in ("io", "cantopen") and not path.parent.is_dir():
            kind = "missing_folder"
        elif kind in ("io", "cantopen") and not _writable(path):
            kind = "read_only"
    if kind == "cantopen":
        kind = "io"
    return Fault(kind, text)


def _chain(exc: BaseException) -> list[BaseException]:
    out, seen = [], set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        out.append(e)
        e = e.__cause__ or e.__context__
    return out


def storage_words(exc: BaseException, path: Path | None = None) -> str:
    """One line for people: what happened and the fix."""
    fault = classify(exc, path)
    names = {"full": "the disk is full", "read_only": "the installation file cannot be written",
             "locked": "the installation file is held by another process", "missing_folder": "the folder is missing",
             "corrupt": "the installation file is damaged", "io": "the installation file could not be read or written"}
    return f"{names[fault.kind]} ({fault.detail}); {fault.fix}"


__all__ = ["FIXES", "Fault", "classify", "storage_words"]
