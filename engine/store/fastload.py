"""The load of a game's rows on its usual path: every row regular, decoded and checked in one pass.

:func:`fast_events` reads the rows a batch at a time (``fetchmany``), checks that their command numbers run
1, 2, ... and each row's link of the hash chain over its bytes as stored, parses the batch's payloads as one
JSON array (:data:`LOADS`), and builds the events with the compiled constructors of engine/records.py
(:func:`~engine.records.event_loaders`), which check each event's fields as the general decoder does and
that the seqs run 1, 2, ... with each event's command number its row's. It promises nothing about a
damaged game: at the first thing that is not regular it answers None, and the caller reads the game again
on the exact path (engine/store/rows.py), which names the damage as before. The cyclic garbage collector
is paused meanwhile (the events make no cycles, and its passes over the growing list cost more than the
decoding), and the events join its oldest generation unwalked when it resumes (:func:`promote_young`).
Amounts are not read here.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import json
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

from engine.store.rows import CHAIN_BYTES, chain_start


def _fast_json() -> Callable[[bytes], Any]:
    """orjson's ``loads`` when it is installed (about twice as fast as the standard library's on these rows),
    else ``json.loads``. Either is safe here: where orjson reads a text differently (an integer past 64 bits
    becomes a float) the constructors' exact type checks refuse it, and where it refuses a text the standard
    library takes (NaN, a lone surrogate), the exact path, which parses with ``json``, decides."""
    try:
        return importlib.import_module("orjson").loads  # type: ignore[no-any-return]
    except ImportError:
        return json.loads


LOADS = _fast_json()
"""The parser of the rows' JSON on this path (see :func:`_fast_json`)."""

FETCH = 128
"""Rows fetched and parsed at a time: a small batch's parsed records are still in the processor's cache
when they are built into events (a 100,000-event game: 0.44 CPU s with 64 to 128 rows, 0.63 s with 4096)."""


def select(conn: sqlite3.Connection, game_id: int, chained: bool) -> sqlite3.Cursor:
    """The game's rows in order: (number, input id, the text's bytes as SQLite stores them, its link or NULL
    when the file has no ``chain`` column). The bytes are UTF-8 unless something damaged the file; the chain
    hashes them as they are, with no decoding and encoding again."""
    return conn.execute(f"SELECT number, input_id, CAST(payload AS BLOB), {'chain' if chained else 'NULL'} "
                        "FROM log WHERE game_id = ? ORDER BY id", (game_id,))


def fast_events(conn: sqlite3.Connection, game_id: int, chained: bool,
                loaders: Mapping[str, Callable[[dict[str, Any], int, int], Any]]) -> list[Any] | None:
    """The events of game ``game_id`` in order (read inside the caller's transaction), or None if any row is
    not regular (see the module's text). ``chained``: whether the rows carry their links (not in schema 2);
    ``loaders``: the compiled constructors by event type, which check each event's seq and command number
    (engine/records.py :func:`~engine.records.event_loaders`)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _events(select(conn, game_id, chained), chain_start(game_id) if chained else None, loaders)
    except Exception:  # not regular: the exact path says what
        return None
    finally:
        if collecting:
            promote_young()
            gc.enable()


def promote_young() -> None:
    """Move every object of the collector's young generations into its oldest one without a pass over them
    (``gc.freeze`` then ``gc.unfreeze``: two list splices), unless something else keeps objects frozen (they
    stay as they are). The collector counted each event made while it was paused, so its first allocation
    afterwards ran a young pass over all of them (about 25 ms for 100,000 events, a tenth of the load); they
    make no cycles and live as long as the game, so that pass could free nothing. Young cyclic garbage of
    the rest of the process waits for the next full collection instead."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


def _events(cursor: sqlite3.Cursor, chain: bytes | None,
            loaders: Mapping[str, Callable[[dict[str, Any], int, int], Any]]) -> list[Any] | None:
    fresh, loads = hashlib.blake2b(digest_size=CHAIN_BYTES).copy, LOADS  # a copy: no setup per row
    events: list[Any] = []
    append = events.append
    number, seq = 0, 1  # the last row's command number; the next event's seq
    while True:
        chunk = cursor.fetchmany(FETCH)
        if not chunk:
            return events
        raws = []
        for row_number, input_id, raw, stored in chunk:
            number += 1
            if row_number != number or raw.__class__ is not bytes:
                return None
            if chain is not None:
                h = fresh()
                h.update(b"%b\x00%d\x00%b\x00" % (chain, number, input_id.encode("utf-8", "surrogatepass")
                                                      if input_id else b""))
                h.update(raw)
                chain = h.digest()
                if stored != chain:
                    return None
            raws.append(raw)
        datas = loads(b"[" + b",".join(raws) + b"]")
        if len(datas) != len(chunk):
            return None
        number -= len(chunk)
        for data in datas:
            number += 1
            if data["command"].__class__ is not dict:
                return None
            for record in data["events"]:
                append(loaders[record["type"]](record, seq, number))
                seq += 1
