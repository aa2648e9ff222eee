"""The journal's schema and its error: constants shared by the journal and its file checks.

The file is marked as ours by ``PRAGMA application_id`` (:data:`APPLICATION_ID`) and a ``meta`` table
holding the schema version.
"""

from __future__ import annotations

from engine.errors import EngineError

APPLICATION_ID = 0x42424E4B  # "BBNK": PRAGMA application_id of a boardbank installation file
SCHEMA_VERSION = 3  # 1: tables commands and events (a row per event); 2: one log row per command;
# 3: each log row carries its link of the game's hash chain (engine/store/rows.py)
_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100  # bytes of the SQLite file header
_OUR_TABLES = ("meta", "games", "log")
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
    # One row per accepted command: the command and all its events in one JSON payload, appended at the
    # end of one rowid B-tree, so a commit writes about one page (no secondary index to keep up).
    """CREATE TABLE IF NOT EXISTS log (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        input_id TEXT,
        payload TEXT NOT NULL,
        chain BLOB
    )""",
)

_VIEWS = (
    # Read-only views in the shape of schema 1, for people and tools that query the file with SQL.
    """CREATE VIEW IF NOT EXISTS commands AS
        SELECT game_id, number, json_extract(payload, '$.command.type') AS type,
               json_extract(payload, '$.command') AS payload,
               json_array_length(payload, '$.events') AS event_count, input_id
        FROM log""",
    """CREATE VIEW IF NOT EXISTS events AS
        SELECT l.game_id AS game_id, json_extract(e.value, '$.seq') AS seq, l.number AS command,
               json_extract(e.value, '$.type') AS type, e.value AS payload
        FROM log AS l, json_each(l.payload, '$.events') AS e""",
)

class JournalError(EngineError, OSError):
    """The journal file cannot be used, or a write to it failed (a refused file is left untouched)."""
