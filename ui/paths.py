"""Default data paths of an installation (platformdirs), overridable by ``--db`` and ``$BOARDBANK_DB`` (the
cache by ``$BOARDBANK_CACHE``)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "boardbank"
DB_FILE = "boardbank.sqlite3"


def data_dir() -> Path:
    """The platform's user data directory for boardbank (e.g. ``~/.local/share/boardbank``)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """``$BOARDBANK_CACHE`` if set, else the platform's user cache directory (e.g. ``~/.cache/boardbank``):
    files rebuilt from the installation's own when missing (the compiled translation catalogs)."""
    env = os.environ.get("BOARDBANK_CACHE")
    return Path(env) if env else Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def default_db_path() -> Path:
    """``$BOARDBANK_DB`` if set, else ``boardbank.sqlite3`` in :func:`data_dir`."""
    env = os.environ.get("BOARDBANK_DB")
    return Path(env) if env else data_dir() / DB_FILE


def resolve_db(cli_value: str | None) -> Path:
    """The installation's SQLite file: ``--db`` first, then ``$BOARDBANK_DB``, then the default."""
    return Path(cli_value) if cli_value else default_db_path()
