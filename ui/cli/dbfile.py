"""The check every command makes before it opens the installation file: refuse a damaged or foreign one.

``headless``, ``run``, ``replay`` and ``export`` get it through ``engine.store.journal.Journal.open``; the
commands that open the file through another component first (``cards`` through the card registry,
``doctor``, ``backup``, ``restore``) call :func:`refuse_unusable` so that a text file, a truncated SQLite
file, another application's SQLite file or a file of zeros is reported in one line and left byte-identical
(no ``-wal``/``-shm`` file is left next to it either).
"""

from __future__ import annotations

from pathlib import Path

from engine.store.inspect import inspect_file
from engine.store.schema import JournalError


def refuse_unusable(path: Path) -> None:
    """Raise :class:`JournalError` if ``path`` exists and is not an intact boardbank installation file.

    A missing file, an empty one and an intact boardbank file pass; nothing is ever written.
    """
    if not path.exists():
        return
    if not path.is_file():
        raise JournalError(f"{path} is not a file (expected the installation's SQLite file)")
    inspect_file(path)
