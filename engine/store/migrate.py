"""Converting a journal of schema 1 (a ``commands`` row per command and an ``events`` row per event) to
schema 2 (one ``log`` row per command holding the command and its events), in one transaction.

The texts are joined as they are stored, never parsed, so a damaged record stays exactly as damaged
(and :meth:`~engine.store.journal.Journal.salvage` can still show what is intact before it). A power cut
during the conversion leaves the file of schema 1, converted again at the next start.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from engine.store.schema import SCHEMA_VERSION


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
