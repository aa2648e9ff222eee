"""The installation's settings: the banker's (gesture timeout, auction countdown, menu PIN) and the UI's
(volume, mute, language), kept across restarts in the installation's SQLite file (docs/architecture.md).

One table, ``settings(key TEXT PRIMARY KEY, value TEXT NOT NULL)``, each value JSON. The store never
touches another table (the journal adopts a file holding only ``card_registry`` / ``settings``). Its
connection uses WAL and ``synchronous=FULL``, so a saved setting survives a power cut. Getters are typed
and take a default: a missing key gives the default, a stored value that is not valid JSON or not valid
for its setting is ignored with one warning (never an exception), so a damaged row cannot stop the unit.
Times are seconds (``float``); the volume is 0.0-1.0.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from engine.banker.pin import SALT_BYTES, hash_pin, is_pin, is_record
from reader.registry import connect_installation_db

log = logging.getLogger(__name__)

T = TypeVar("T")

_SCHEMA = "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


class SettingsError(OSError):
    """The settings table cannot be opened or written."""


def _positive_seconds(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 86400


def _pin(value: Any) -> bool:
    return isinstance(value, str) and is_pin(value)


def _pin_record(value: Any) -> bool:
    return value == "" or is_record(value)


def _count(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1000


def _names(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and k.isascii() and k.isdigit() and 1 <= int(k) <= 8 and isinstance(v, str)
        and 1 <= len(v.strip()) <= 24 and v.isprintable() for k, v in value.items())


def _volume(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0


class SettingsStore:
    """Key -> JSON value in the ``settings`` table; safe to share between threads."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.execute(_SCHEMA)

    @classmethod
    def open(cls, path: str | Path) -> SettingsStore:
        """Open (creating the table if needed) the settings in the SQLite file at ``path``."""
        try:
            return cls(connect_installation_db(path))
        except sqlite3.DatabaseError as exc:
            raise SettingsError(f"cannot open the settings in {str(path)!r}: {exc}") from exc

    def close(self) -> None:
        """Close the connection; idempotent."""
        self._db.close()

    # -- raw access ------------------------------------------------------------------------------------
    def get(self, key: str, default: T, valid: Callable[[Any], bool]) -> T | Any:
        """The stored value of ``key`` if it is JSON and ``valid(value)``, else ``default``."""
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        try:
            value = json.loads(row[0])
        except (TypeError, ValueError):
            value = _INVALID
        if value is _INVALID or not valid(value):
            log.warning("ignoring the stored setting %s=%r (not valid); using %r", key, row[0], default)
            return default
        return value

    def save(self, values: Mapping[str, Any]) -> None:
        """Store every ``key: value`` (JSON) in one transaction."""
        rows = [(key, json.dumps(value, ensure_ascii=False)) for key, value in values.items()]
        try:
            with self._lock, self._db:
                self._db.executemany(
                    "INSERT INTO settings (key, value) VALUES (?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value", rows)
        except sqlite3.Error as exc:
            raise SettingsError(f"cannot save the settings {sorted(values)}: {exc}") from exc

    # -- typed settings ----------------------------------------------------------------------------------
    def banker(self, timeout_s: float = 10.0, auction_s: float = 10.0) -> dict[str, Any]:
        """The banker's ``timeout_s``, ``auction_s`` (seconds), its PIN as a salted hash (``pin_hash``; None:
        no PIN yet), the wrong entries in a row and the seconds the PIN is still locked, as ``Banker``
        keyword arguments. A plain PIN kept by an earlier version is replaced by its hash here."""
        record = self.get("pin_hash", "", _pin_record)
        plain = self.get("pin", None, _pin)
        if not record and plain is not None:
            record = hash_pin(plain, os.urandom(SALT_BYTES))
            self.save({"pin_hash": record})
            self.forget("pin")
        return {
            "timeout_s": float(self.get("timeout_s", timeout_s, _positive_seconds)),
            "auction_s": float(self.get("auction_s", auction_s, _positive_seconds)),
            "pin_hash": record or None,
            "pin_failures": int(self.get("pin_failures", 0, _count)),
            "pin_locked_s": float(self.get("pin_locked_s", 0.0, _count)),
            "names": {int(seat): name for seat, name in self.get("names", {}, _names).items()},
        }

    def forget(self, key: str) -> None:
        """Remove ``key`` from the settings."""
        try:
            with self._lock, self._db:
                self._db.execute("DELETE FROM settings WHERE key = ?", (key,))
        except sqlite3.Error as exc:
            raise SettingsError(f"cannot remove the setting {key}: {exc}") from exc

    def next_edition(self) -> str | None:
        """The edition kept for the next new game (``--edition`` given at a start, else the edition of the
        last game started; ``next_edition``), or None. Whether it still loads is the caller's check."""
        value = self.get("next_edition", None, lambda v: isinstance(v, str) and 0 < len(v) <= 64
                         and v.replace("-", "").replace("_", "").isalnum() and v.isascii())
        return value if isinstance(value, str) else None

    def volume(self, default: float = 1.0) -> float:
        """The sound volume, 0.0-1.0."""
        return float(self.get("volume", default, _volume))

    def muted(self, default: bool = False) -> bool:
        """Whether the sounds are muted."""
        return bool(self.get("muted", default, lambda v: isinstance(v, bool)))

    def language(self, languages: tuple[str, ...], default: str | None = None) -> str | None:
        """The UI language, one of ``languages``; ``default`` when none (valid) is stored."""
        value = self.get("lang", default, lambda v: isinstance(v, str) and v in languages)
        return value if isinstance(value, str) else default


_INVALID = object()
