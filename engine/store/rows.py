"""Reading the journal's log rows back: decoding, checking their order, and naming the first bad one.

Each row of the ``log`` table holds one accepted command and all its events as one JSON text
(``{"command": {...}, "events": [...]}``). Reading checks what writing promised: command numbers 1, 2, ...
per game, event seqs 1, 2, ... without a gap, every event carrying its row's command number, valid UTF-8
and valid JSON, and (schema 3) each row's link of the game's hash chain. The first row that breaks a
promise is named by its command number and the seq its events would have started at, so
:meth:`~engine.store.journal.Journal.salvage` can show what is intact before it. Amounts inside the
records are ``int`` in the edition's money unit; nothing here reads them.

The hash chain (docs/architecture.md, "Each record guarded"): row ``n`` of game ``g`` stores
``chain_n = BLAKE2b-128(chain_{n-1} || n || input id || payload bytes)`` with ``chain_0`` derived from the
game's id. A flipped bit anywhere in a payload, a row moved to another game or place, or a row removed
from the middle makes that row's link (and every later one) disagree.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

Record = dict[str, Any]


class BadRow(Exception):
    """The first damaged row of a game: its command ``number``, the ``seq`` its events should start at,
    and what is wrong with it."""

    def __init__(self, number: int, seq: int, problem: str) -> None:
        super().__init__(number, seq, problem)
        self.number, self.seq, self.problem = number, seq, problem

    def __str__(self) -> str:
        return f"command {self.number} (events from seq {self.seq}) is damaged: {self.problem}"


@dataclass(frozen=True, slots=True)
class LogRow:
    """One decoded, checked row: the command ``number``, its record, its event records, its input id."""

    number: int
    command: Record
    events: list[Record]
    input_id: str | None


CHAIN_BYTES = 16


def chain_start(game_id: int) -> bytes:
    """The link before a game's first row."""
    return hashlib.blake2b(f"boardbank game {game_id}".encode("ascii"), digest_size=CHAIN_BYTES).digest()


def link(previous: bytes, number: int, input_id: str | None, payload: bytes) -> bytes:
    """The chain's link of one row (``payload``: its text as UTF-8 bytes, as SQLite stores it): the hash of
    ``previous || NUL number NUL input id NUL || payload``."""
    ident = input_id.encode("utf-8", "surrogatepass") if input_id else b""
    h = _EMPTY_LINK.copy()  # a ready state: no parameters parsed, and the payload is hashed where it lies
    h.update(b"%b\x00%d\x00%b\x00" % (previous, number, ident))
    h.update(payload)
    return h.digest()


_BLAKE2B = hashlib.blake2b
_EMPTY_LINK = hashlib.blake2b(digest_size=CHAIN_BYTES)


def decode_rows(rows: Iterator[tuple[int, str | None, bytes | str, bytes | None]], batch: int = 2048,
                chain: bytes | None = None) -> Iterator[LogRow]:
    """Decode ``(number, input_id, payload, link)`` rows in order; raise :class:`BadRow` at the first
    row that is not what the journal wrote. ``chain``: the game's :func:`chain_start`, to check each row's
    link (None: a file of schema 2, whose rows carry none). Rows are parsed ``batch`` at a time as one
    JSON array (about twice as fast as a parse per row); a batch that does not parse is parsed row by row
    to name the bad one."""
    expected_number, next_seq = 1, 1
    while True:
        chunk = list(islice(rows, batch))
        if not chunk:
            return
        broken: int | None = None
        if chain is not None:
            chain, broken = _links(chunk, chain)
        parsed, bad = _parsed(chunk if broken is None else chunk[:broken + 1], next_seq)
        for index, (number, input_id, data) in enumerate(parsed):
            if number != expected_number:
                raise BadRow(expected_number, next_seq, f"expected command {expected_number}, found command {number}")
            command, events = _parts(data, number, next_seq)
            seq = next_seq
            for event in events:
                if event.__class__ is not dict or event.get("seq") != seq or event.get("command") != number:
                    raise BadRow(number, next_seq, f"expected event seq {seq} of command {number}, found {event!r:.120}")
                seq += 1
            if index == broken:  # well formed, yet not the text that was written
                raise BadRow(number, next_seq, "its checksum does not match its text (the record was changed "
                                               "after it was written)")
            yield LogRow(number, command, events, input_id)
            expected_number += 1
            next_seq = seq
        if bad is not None:
            raise bad


def _links(chunk: list[tuple[int, str | None, bytes | str, bytes | None]], chain: bytes) -> tuple[bytes, int | None]:
    """Check the chunk's links from ``chain``: (the last good link, the index of the first bad row or None)."""
    blake, size = _BLAKE2B, CHAIN_BYTES
    for i, (number, input_id, raw, stored) in enumerate(chunk):
        data = raw if raw.__class__ is bytes else str(raw).encode("utf-8", "surrogatepass")
        ident = input_id.encode("utf-8", "surrogatepass") if input_id else b""
        chain = blake(b"%b\x00%d\x00%b\x00%b" % (chain, number, ident, data), digest_size=size).digest()
        if stored != chain:
            return chain, i
    return chain, None


Parsed = list[tuple[int, str | None, object]]


def _parsed(chunk: list[tuple[int, str | None, bytes | str, bytes | None]], seq: int) -> tuple[Parsed, BadRow | None]:
    """The chunk's payloads parsed, all at once or, when that fails, row by row up to the bad row: the rows
    before it and the :class:`BadRow` (``seq``: where this chunk's events start)."""
    try:
        raws = [raw for _, _, raw, _ in chunk]
        if all(raw.__class__ is bytes for raw in raws):  # the texts as stored (UTF-8): one decode for the batch
            datas = json.loads(b"[" + b",".join(raws) + b"]")  # type: ignore[arg-type]
        else:
            datas = json.loads("[" + ",".join(r.decode("utf-8") if isinstance(r, bytes) else str(r) for r in raws) + "]")
        if len(datas) == len(chunk):
            return [(n, i, d) for (n, i, _, _), d in zip(chunk, datas, strict=True)], None
    except (UnicodeDecodeError, ValueError):
        pass
    out: Parsed = []
    for n, input_id, raw, _ in chunk:  # slow path: which row is bad (its seq as far as the rows before say)
        try:
            data = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else str(raw))
        except UnicodeDecodeError as exc:
            return out, BadRow(n, _seq_at(out, seq), f"its text is not valid UTF-8 ({exc.reason} at byte {exc.start})")
        except ValueError as exc:
            return out, BadRow(n, _seq_at(out, seq), f"its text is not valid JSON ({exc})")
        out.append((n, input_id, data))
    return out, None


def _seq_at(parsed: Parsed, seq: int) -> int:
    """The seq the next row's events start at, after the ``parsed`` rows of this chunk."""
    for _, _, data in parsed:
        events = data.get("events") if isinstance(data, dict) else None
        seq += len(events) if isinstance(events, list) else 0
    return seq


def _parts(data: object, number: int, seq: int) -> tuple[Record, list[Record]]:
    if data.__class__ is dict:
        command, events = data.get("command"), data.get("events")
        if command.__class__ is dict and events.__class__ is list:
            return command, events
    raise BadRow(number, seq, "expected an object with a command and a list of events")


def payload_text(command: Record, events: list[Record]) -> str:
    """The JSON text of one log row (compact, keys sorted, non-ASCII kept as it is): the definition, with the
    standard library's encoder (:func:`payload_row` writes the same text faster)."""
    return _ENCODE({"command": command, "events": events})


_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode
"""One encoder for every row (``json.dumps`` with options builds a new one per call)."""


def payload_row(command: Mapping[str, Any], events: list[Record]) -> tuple[str, bytes]:
    """The text of one log row, exactly :func:`payload_text`'s, and its UTF-8 bytes (as SQLite stores it, what
    the chain hashes). orjson writes it when installed (about 0.6 us against 5 us per row): for the values a
    record holds (str, int, bool, None, lists, dicts with str keys) its compact, key-sorted output is the
    standard library's byte for byte. Whatever it could write differently goes to the standard library:
    what it refuses (an int past 64 bits, a lone surrogate, a key that is not a str, a subclass of a JSON
    type, a dataclass) and any text holding ``.``, ``e+`` or ``e-``, as every float orjson writes does (the
    two write some floats differently: ``1e-7`` against ``1e-07``; a string such as ``"v1.2"`` or
    ``"re-roll"`` only costs the slower encoder). The searches run in the decoded text (a search in the bytes
    first tries its needle as an integer and formats the TypeError it drops), for single characters first
    (``"-"`` before ``"e-"``: a two-character search costs four times one for a character, and a row rarely
    holds a sign); a regular expression cost 15k instructions. Not caught: NaN and infinities, which orjson writes as
    ``null`` and json as ``NaN`` (not JSON; no record holds a float)."""
    if _DUMPS is not None and command.__class__ is dict:
        try:
            data = _DUMPS({"command": command, "events": events}, option=_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError
            pass
        else:
            text = data.decode("utf-8")
            if "." not in text and ("-" not in text or "e-" not in text) and ("+" not in text or "e+" not in text):
                return text, data
    text = _ENCODE({"command": dict(command), "events": events})
    return text, text.encode("utf-8", "surrogatepass")


def _orjson() -> tuple[Callable[..., bytes] | None, int]:
    """orjson's ``dumps`` and its options for :func:`payload_row` (None when orjson is not installed)."""
    try:
        orjson = importlib.import_module("orjson")
    except ImportError:
        return None, 0
    return orjson.dumps, (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
                          | orjson.OPT_PASSTHROUGH_DATETIME)


_DUMPS, _OPTIONS = _orjson()
