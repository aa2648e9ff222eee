"""The journal's schema and its error: constants shared by the journal and its file checks.

The file is marked as ours by ``PRAGMA application_id`` (:data:`APPLICATION_ID`) and a ``meta`` table
holding the schema version.
"""

from __future__ import annotations

from engine.errors import EngineError

APPLICATION_ID = 0x42424E4B  # "BBNK": PRAGMA application_id of a boardbank installation file
SCHEMA_VERSION = 1
_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100  # bytes of the SQLite file header
_OUR_TABLES = ("meta", "games", "commands", "events")
# Tables other boardbank components keep in the same file (they do not set the application id): a
# file with application_id 0 holding only these is an installation file the journal adopts.
SIBLING_TABLES = frozenset({"card_registry", "settings"})

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS games (
        id INTEGER PRIMARY KEY,
        edition TEXT NOT NULL,
        seed INTEGER NOT NULL,
        options TEXT NOT NULL,
        created_seq INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS commands (
        game_id INTEGER NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,
        type TEXT NOT NULL,
        payload TEXT NOT NULL,
        event_count INTEGER NOT NULL,
        PRIMARY KEY (game_id, number)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        command INTEGER NOT NULL,
        type TEXT NOT NULL,
        payload TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID""",
)


class JournalError(EngineError, OSError):
    """The journal file cannot be used, or a write to it failed (a refused file is left untouched)."""
