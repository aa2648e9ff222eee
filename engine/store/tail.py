"""Where each game of the journal ends, for appending: its last command number and its last event seq.

An append must continue its game without a gap (:meth:`engine.store.journal.Journal.append`). Reading
where the game ends costs a look-up of the game, a read of its last ``log`` row and a JSON parse of that
row, about a tenth of a command's whole cost on a disk with a fast fsync. :class:`Tails` keeps the ends
of the games this connection wrote and trusts them only while nobody else appended: inside the write
transaction it compares the file's last ``log`` row id (``max(id)``, one step down the rowid B-tree) with
the one it wrote last. Writes to other tables of the installation file (the banker's record, settings,
the card registry) do not touch ``log`` and leave the ends valid; any other writer of ``log`` makes
them be read again from the file. Games are never deleted, so a game seen once exists.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.events import Event
from engine.store.rows import chain_start, link
from engine.store.schema import JournalError

_GUARDED = ("INSERT INTO log (game_id, number, input_id, payload, chain) "
            "VALUES (?, ?, ?, CASE WHEN (SELECT max(id) FROM log) IS ? THEN ? END, ?)")
"""The one-statement append: the row goes in only while the log's last row is the one written last through
this connection; otherwise its payload is NULL, which ``payload TEXT NOT NULL`` refuses (an IntegrityError,
nothing written). A plain ``INSERT ... VALUES``: about 4 us of CPU less per append than the same guard as
``INSERT ... SELECT ... WHERE``, which makes SQLite copy the row through a temporary table first because
the SELECT reads the table it inserts into."""

_GUARDED_NO_INPUT = _GUARDED.replace("VALUES (?, ?, ?,", "VALUES (?, ?, NULL,")
"""The same for a command without an input id, its NULL written in the statement: Python's sqlite3 binds
None, like bytes, through its adaptation protocol, whose failed look-up of ``__adapt__`` builds and drops
an AttributeError (about 1.7k instructions a parameter); the link is bound as a ``bytearray``, which it
binds directly (the same BLOB)."""

_GUARDED_SELECT = ("INSERT INTO log (game_id, number, input_id, payload, chain) SELECT ?, ?, ?, ?, ? "
                   "WHERE (SELECT max(id) FROM log) IS ?")
"""The same guard for a file whose ``payload`` would take NULL (none the journal wrote): nothing goes in
(``rowcount`` 0) when the guard fails."""

Tail = tuple[int, int]
"""(the last command number, the last event seq) of a game; (0, 0) before its first command."""


class Tails:
    """The ends of the games written through one connection, valid while the ``log`` table's last row
    is the one written last through it."""

    def __init__(self, path: Path) -> None:
        self.path = path  # the file, for messages
        self._ends: dict[int, Tail] = {}
        self._links: dict[int, bytes] = {}  # game -> the chain link of its last row
        self._last_row: int | None = None  # max(id) of log after our last commit (None: unknown)
        self._required: bool | None = None  # whether log.payload is NOT NULL (the file's schema; None: not read)
        self._cursor: sqlite3.Cursor | None = None  # the one-statement append's, kept (no new cursor per append)

    def _payload_required(self, conn: sqlite3.Connection) -> bool:
        """Whether the file's ``log.payload`` refuses NULL (every schema the journal wrote), so that
        :data:`_GUARDED` may use it; read once."""
        if self._required is None:
            self._required = any(r[1] == "payload" and r[3] for r in conn.execute("PRAGMA table_info(log)"))
        return self._required

    def of(self, conn: sqlite3.Connection, game_id: int) -> Tail:
        """The end of ``game_id``, inside the caller's write transaction; raises :class:`JournalError` for
        a game the file does not have, or a damaged last row."""
        last_row = conn.execute("SELECT max(id) FROM log").fetchone()[0]
        self._payload_required(conn)  # read here, before any one-statement append needs it
        if last_row != self._last_row:  # someone else appended (or nothing is known yet): read the file
            self._ends.clear()
            self._links.clear()
            self._last_row = last_row
        end = self._ends.get(game_id)
        if end is None:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise JournalError(f"{self.path} has no game {game_id!r}")
            end, self._links[game_id] = read_tail(conn, game_id)
        return end

    def link_of(self, game_id: int) -> bytes:
        """The chain link of the game's last row, after :meth:`of` (its start before the first row)."""
        return self._links.get(game_id) or chain_start(game_id)

    def append_known(self, conn: sqlite3.Connection, game_id: int, events: Sequence[Event], input_id: str | None,
                     payload: Callable[[], tuple[str, bytes]]) -> bool:
        """Append the row as ONE statement (its own transaction) when the end of ``game_id`` is known: it
        goes in only if the log's last row is still the one written last through this connection, which
        the statement checks itself. False, with nothing written, when the end is not known, the events do
        not continue it, or another connection appended: the caller then reads the file. Raises what
        SQLite raises (and then trusts nothing)."""
        end, last_row, previous = self._ends.get(game_id), self._last_row, self._links.get(game_id)
        if end is None or last_row is None or previous is None:
            return False
        number, seq = end[0] + 1, end[1]
        for event in events:  # continues(), inline: a mismatch may be known wrong, so the file decides
            seq += 1
            if event.seq != seq or event.command != number:
                return False
        text, data = payload()
        chain = link(previous, number, input_id, data)
        cur = self._cursor
        if cur is None or cur.connection is not conn:
            cur = self._cursor = conn.cursor()
        required = self._required
        try:
            if required is None:
                required = self._payload_required(conn)
            if not required:
                cur.execute(_GUARDED_SELECT, (game_id, number, input_id, text, chain, last_row))
            elif input_id is None:
                cur.execute(_GUARDED_NO_INPUT, (game_id, number, last_row, text, bytearray(chain)))
            else:
                cur.execute(_GUARDED, (game_id, number, input_id, last_row, text, bytearray(chain)))
        except sqlite3.IntegrityError as exc:
            self.forget()
            if "NOT NULL" in str(exc) and "payload" in str(exc):  # the guard: another connection appended
                return False
            raise
        except BaseException:
            self.forget()
            raise
        if cur.rowcount != 1:
            return False
        row = cur.lastrowid
        if row == last_row + 1:  # the usual case of wrote(): the row right after ours
            self._last_row, self._ends[game_id], self._links[game_id] = row, (number, seq), chain
        else:
            self.wrote(game_id, (number, seq), row, chain)
        return True

    def wrote(self, game_id: int, end: Tail, row_id: int | None, chain: bytes | None) -> None:
        """After a commit: ``game_id`` now ends at ``end`` with the link ``chain`` (None: no row yet), and
        ``row_id`` is the log's last row (None: the commit added no row, e.g. a game created without a
        command)."""
        if row_id is not None:
            if self._last_row is not None and row_id != self._last_row + 1:
                self._ends.clear()  # rows we did not see: trust nothing read before
                self._links.clear()
            self._last_row = row_id
        self._ends[game_id] = end
        self._links[game_id] = chain if chain is not None else chain_start(game_id)

    def forget(self) -> None:
        """Trust nothing known (after a failed write: what is on disk is read again)."""
        self._ends.clear()
        self._links.clear()
        self._last_row = None


def read_tail(conn: sqlite3.Connection, game_id: int) -> tuple[Tail, bytes]:
    """The end of ``game_id`` read from the file, from its last row only (and, when that row has no
    events, the count of the events before it), with that row's chain link."""
    row = conn.execute("SELECT number, payload, chain FROM log WHERE game_id = ? ORDER BY id DESC LIMIT 1",
                       (game_id,)).fetchone()
    if row is None:
        return (0, 0), chain_start(game_id)
    if not isinstance(row[2], bytes):
        raise JournalError(f"game {game_id}: its last command {row[0]} has no checksum (damaged)")
    try:
        events = json.loads(row[1])["events"]
        last_seq = events[-1]["seq"] if events else _seq_before(conn, game_id, row[0])
        return (int(row[0]), int(last_seq)), row[2]
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise JournalError(f"game {game_id}: its last command {row[0]} is damaged ({exc!r})") from None


def _seq_before(conn: sqlite3.Connection, game_id: int, number: int) -> int:
    total = conn.execute("SELECT coalesce(sum(json_array_length(payload, '$.events')), 0) FROM log "
                         "WHERE game_id = ? AND number <= ?", (game_id, number)).fetchone()[0]
    return int(total)


def continues(game_id: int, end: Tail, events: Sequence[Event]) -> Tail:
    """Where the game ends after ``events``, which must continue it from ``end`` (the next command number,
    seqs without a gap); else :class:`JournalError` says what was expected."""
    last_cmd, last_seq = end
    number = events[0].command if events else last_cmd + 1
    if number != last_cmd + 1:
        raise JournalError(f"game {game_id}: expected command number {last_cmd + 1}, got {number} "
                           f"(another writer, or events of an old command)")
    for offset, event in enumerate(events, start=1):
        if event.seq != last_seq + offset or event.command != number:
            raise JournalError(f"game {game_id}: expected event seq {last_seq + offset} of command {number}, "
                               f"got seq {event.seq} of command {event.command}: {event!r}")
    return number, events[-1].seq if events else last_seq
