"""Exports of a game's journal for other tools: JSON lines and CSV (``boardbank export``).

Amounts inside the records are ``int`` in the edition's money unit, as the journal stores them.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any, TextIO

from engine.store.journal import Journal, dumps_record

CSV_COLUMNS = ("kind", "game", "command", "seq", "type", "data")
"""Columns of :func:`export_csv`: ``data`` is the record's remaining fields as JSON (amounts in money units)."""


def export_rows(journal: Journal, game_id: int) -> Iterator[dict[str, Any]]:
    """The game as plain records: one ``game`` row, then each command followed by its events."""
    info = journal.game(game_id)
    yield {
        "kind": "game", "game": info.id, "edition": info.edition, "seed": info.seed,
        "options": dict(info.options), "created_seq": info.created_seq,
    }
    events_by_command: dict[int, list[dict[str, Any]]] = {}
    for record in journal.event_records(game_id):
        events_by_command.setdefault(int(record["command"]), []).append(record)
    for command in journal.command_records(game_id):
        number = command.pop("number")
        yield {"kind": "command", "game": game_id, "command": number, **command}
        for event in events_by_command.get(number, []):
            yield {"kind": "event", "game": game_id, **event}


def export_jsonl(journal: Journal, game_id: int, out: TextIO) -> int:
    """Write the game as JSON lines (see :func:`export_rows`); return the number of lines."""
    lines = 0
    for row in export_rows(journal, game_id):
        out.write(dumps_record(row) + "\n")
        lines += 1
    return lines


def export_csv(journal: Journal, game_id: int, out: TextIO) -> int:
    """Write the game as CSV with :data:`CSV_COLUMNS`; return the number of data rows."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    rows = 0
    for row in export_rows(journal, game_id):
        fixed = {k: row.pop(k, "") for k in ("kind", "game", "command", "seq", "type")}
        writer.writerow([*fixed.values(), dumps_record(row)])
        rows += 1
    return rows
