"""Upgrading old journals in place, each step in one transaction: schema 1 to 2 (:func:`migrate_v1`) and
schema 2 to 3 (:func:`migrate_chain`: every row gets its link of the game's hash chain).

Converting a journal of schema 1 (a ``commands`` row per command and an ``events`` row per event) to
schema 2 (one ``log`` row per command holding the command and its events), in one transaction.

The texts are joined as they are stored, never parsed, so a damaged record stays exactly as damaged
(and :meth:`~engine.store.journal.Journal.salvage` can still show what is intact before it). A power cut
during the conversion leaves the file of schema 1, converted again at the next start.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from engine.store.rows import chain_start, link
from engine.store.schema import _SCHEMA, _VIEWS, APPLICATION_ID, SCHEMA_VERSION


def migrate_v1(conn: sqlite3.Connection, views: Sequence[str]) -> bool:
    """Convert the file if it holds schema 1 tables; return whether it did. ``views`` are created after."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'events' AND type = 'table'").fetchone() is None:
        return False
    conn.execute("BEGIN IMMEDIATE")
    try:
        events: dict[tuple[int, int], list[str]] = {}
        for game_id, command, payload in conn.execute(
                "SELECT game_id, command, payload FROM events ORDER BY game_id, seq"):
            events.setdefault((game_id, command), []).append(payload)
        rows = conn.execute("SELECT game_id, number, payload FROM commands ORDER BY game_id, number").fetchall()
        conn.executemany(
            "INSERT INTO log (game_id, number, input_id, payload) VALUES (?, ?, NULL, ?)",
            [(g, n, '{"command":' + p + ',"events":[' + ",".join(events.get((g, n), [])) + "]}")
             for g, n, p in rows])
        conn.execute("DROP TABLE events")
        conn.execute("DROP TABLE commands")
        for statement in views:
            conn.execute(statement)
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return True


def migrate_chain(conn: sqlite3.Connection) -> bool:
    """Give every row of a schema 2 file (or rows :func:`migrate_v1` just wrote) its link of the game's
    hash chain, computed from the texts as stored; return whether anything changed."""
    columns = {r[1] for r in conn.execute("PRAGMA table_info(log)")}
    if "chain" in columns and conn.execute("SELECT 1 FROM log WHERE chain IS NULL LIMIT 1").fetchone() is None:
        return False
    conn.execute("BEGIN IMMEDIATE")
    try:
        if "chain" not in columns:
            conn.execute("ALTER TABLE log ADD COLUMN chain BLOB")
        games = [g for (g,) in conn.execute("SELECT DISTINCT game_id FROM log WHERE chain IS NULL")]
        for game_id in games:
            chain, updates = chain_start(game_id), []
            for row_id, number, input_id, payload in conn.execute(
                    "SELECT id, number, input_id, CAST(payload AS BLOB) FROM log WHERE game_id = ? ORDER BY id",
                    (game_id,)):
                chain = link(chain, number, input_id, bytes(payload))
                updates.append((chain, row_id))
            conn.executemany("UPDATE log SET chain = ? WHERE id = ?", updates)
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return True


def create_schema(conn: sqlite3.Connection) -> None:
    """Create our tables (and the schema 1 views) in a new or adopted file, in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        for statement in _SCHEMA:
            conn.execute(statement)
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'commands' AND type = 'table'").fetchone():
            for statement in _VIEWS:
                conn.execute(statement)
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('application', 'boardbank')")
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                     ("1" if _has_v1_tables(conn) else str(SCHEMA_VERSION),))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _has_v1_tables(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'events' AND type = 'table'").fetchone() is not None
