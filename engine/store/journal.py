"""The journal: every game's commands and events in one SQLite file (with engine/store/, the only I/O of
the engine).

The file is the installation's single SQLite database (docs/architecture.md, "Where state lives"): the
journal's tables live next to tables of other components (the card registry, settings), which the
journal never touches. Durability rules:

* WAL mode and ``synchronous=FULL`` on every connection, so a commit is on disk when it returns;
* :meth:`Journal.append` writes one command and all of its events in ONE transaction, as ONE row of the
  ``log`` table (schema 2: about one page written per command; :meth:`Journal.start_game` creates a game
  and writes its ``StartGame`` in one transaction too);
* SQLite's automatic checkpoints are off on the journal's connection, so a tap never waits for one:
  the caller runs :meth:`Journal.checkpoint` when the unit is idle and at the end of a game;
* :meth:`Journal.open` refuses a file that is not ours, not SQLite, truncated or corrupt with a
  :class:`JournalError`, and never writes to such a file (the checks use a read-only connection).

The file is marked as ours by ``PRAGMA application_id`` (:data:`APPLICATION_ID`) and a ``meta`` table
holding the schema version. Another component that creates the file first must set the same
application id, or keep only tables named in :data:`SIBLING_TABLES` (the journal then adopts the file).

A file of schema 1 (a row per event) is converted in one transaction when it is opened for writing. Amounts
in the stored events are ``int`` in the edition's money unit; the journal never reads them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import weakref
from collections.abc import Generator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.editions import load_edition
from engine.errors import EditionError, RecordError
from engine.events import Event
from engine.records import event_decoder, event_loaders, event_records
from engine.store import lock
from engine.store.fastload import fast_events, select
from engine.store.faults import storage_words
from engine.store.inspect import inspect_file
from engine.store.migrate import create_schema, migrate_chain, migrate_v1
from engine.store.rows import BadRow, LogRow, chain_start, decode_rows, link, payload_row
from engine.store.schema import _VIEWS, APPLICATION_ID, SCHEMA_VERSION, SIBLING_TABLES, JournalError
from engine.store.tail import Tails, continues
from engine.store.writes import WAL_LIMIT, Also, Writes, connect_writer, dumps_record, reading

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "SIBLING_TABLES", "WAL_LIMIT", "GameInfo", "Journal", "JournalError",
           "dumps_record"]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game of the journal: its edition, seed, options and how far it has got.

    ``created_seq`` is the number of log rows in the whole file when the game was created (it orders
    games against each other without a wall clock); ``commands`` and ``events`` are counts.
    """

    id: int
    edition: str
    seed: int
    options: Mapping[str, object]
    created_seq: int
    commands: int
    events: int


class Journal:
    """An open journal file. Create with :meth:`open`; use as a context manager or call :meth:`close`."""

    def __init__(self, path: Path, conn: sqlite3.Connection, *, read_only: bool = False) -> None:
        self.path = path
        self._conn = conn
        self.read_only = read_only
        self._closed = False
        self._has_chain: bool | None = None
        self._tails = Tails(path)  # where the games written through this connection end
        self._writes = Writes(conn, self._tails)  # its transactions: one per write, or one per input
        # a writer's lock goes with it: at close(), or when a journal never closed is collected
        self._release = weakref.finalize(self, lock.release, path) if not read_only else (lambda: None)

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, read_only: bool = False) -> Journal:
        """Open the journal at ``path``, creating the file (and our tables) if needed.

        Raises :class:`JournalError` for a file that is not ours, not SQLite, truncated or corrupt;
        such a file is never modified. ``read_only``: never create or write anything (for replay and
        export); the file must exist and hold a journal.
        """
        p = Path(path)
        if read_only and not p.is_file():
            raise JournalError(f"no journal file at {p}")
        if read_only:
            return cls._open_read_only(p)
        if not p.parent.is_dir():
            raise JournalError(f"cannot create the journal {p}: the folder {p.parent} does not exist")
        # the checks only read (a refused file gets no lock file either); ``raw``: no descriptor of the file
        # outside SQLite while this process has it open (engine/store/lock.py)
        needs_schema = inspect_file(p, raw=not lock.held_here(p)) if p.exists() else True
        lock.acquire(p)  # one writer: a second process is refused here, before it writes anything
        try:
            return cls._open_writable(p, needs_schema)
        except BaseException:
            lock.release(p)
            raise

    @classmethod
    def _open_read_only(cls, p: Path) -> Journal:
        """A reader (``mode=ro``: it never writes, checkpoints, deletes or truncates the WAL)."""
        if inspect_file(p, raw=not lock.held_here(p)):
            raise JournalError(f"{p} holds no boardbank journal yet (no games were ever recorded in it)")
        try:
            conn = sqlite3.connect(f"file:{p}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {p} read-only: {exc}") from exc
        return cls(p, conn, read_only=True)

    @classmethod
    def _open_writable(cls, p: Path, needs_schema: bool) -> Journal:
        try:
            conn = connect_writer(p)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {p}: {storage_words(exc, p)}") from exc
        try:
            if needs_schema:
                create_schema(conn)
            migrate_v1(conn, _VIEWS)
            migrate_chain(conn)
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal":
                raise JournalError(f"{p}: expected journal_mode 'wal', SQLite gave {mode!r}")
        except sqlite3.Error as exc:
            conn.close()
            raise JournalError(f"cannot initialise the journal {p}: {storage_words(exc, p)}") from exc
        except JournalError:
            conn.close()
            raise
        return cls(p, conn)

    def close(self) -> None:
        """Close the connection (committed data is already on disk) and, for a writer, its lock; idempotent."""
        if self._closed:
            return
        self._closed = True
        self._conn.close()
        self._release()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return self._writes.transaction()

    @property
    def connection(self) -> sqlite3.Connection:
        """The journal's connection, for engine/store's tables written in its transactions (the record)."""
        return self._conn

    @property
    def committing(self) -> bool:
        """Whether the input under way has written a command (its transaction is open)."""
        return self._writes.open

    def begin_input(self) -> None:
        """An input starts: its writes join one transaction, committed by :meth:`finish_input` (writes.py)."""
        self._writes.begin()

    def finish_input(self, also: Also | None = None) -> bool:
        """The input is over: ``also(connection)`` written with its commands and all committed with one
        fsync, or (no command) ``also`` written without waiting for the disk; True when commands were
        committed. :class:`JournalError` if the commit failed: nothing of the input is on disk."""
        try:
            return self._writes.finish(also)
        except (sqlite3.Error, ValueError) as exc:
            raise JournalError(f"cannot commit to {self.path}: {storage_words(exc, self.path)}") from exc

    # -- games -----------------------------------------------------------------------------------

    def create_game(self, edition_id: str, seed: int, options: Mapping[str, object]) -> int:
        """Record a new game (no command yet) and return its id."""
        try:
            with self._transaction() as conn:
                game_id = self._insert_game(conn, edition_id, seed, options)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot record a new game of edition {edition_id!r} in {self.path}: {exc}") from exc
        self._tails.wrote(game_id, (0, 0), None, None)
        return game_id

    def start_game(self, edition_id: str, seed: int, options: Mapping[str, object],
                   command_record: Mapping[str, Any], events: Sequence[Event], input_id: str | None = None) -> int:
        """Record a new game and its first command (``StartGame``) with its events in ONE transaction, so
        a power cut leaves either no game or a started one; return the game's id."""
        records = event_records(events)
        try:
            with self._transaction() as conn:
                game_id = self._insert_game(conn, edition_id, seed, options)
                end = continues(game_id, (0, 0), events)
                row, chain = self._insert_row(conn, game_id, 1, input_id, command_record, records, chain_start(game_id))
        except (sqlite3.Error, ValueError) as exc:
            raise JournalError(f"cannot start a game of edition {edition_id!r} in {self.path}: {exc}") from exc
        self._tails.wrote(game_id, end, row, chain)
        return game_id

    @staticmethod
    def _insert_game(conn: sqlite3.Connection, edition_id: str, seed: int, options: Mapping[str, object]) -> int:
        total = conn.execute("SELECT coalesce(max(id), 0) FROM log").fetchone()[0]
        cur = conn.execute("INSERT INTO games (edition, seed, options, created_seq) VALUES (?, ?, ?, ?)",
                           (edition_id, seed, dumps_record(dict(options)), total))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def games(self) -> list[GameInfo]:
        """Every game in the file, oldest first."""
        counts = dict(self._conn.execute(
            "SELECT game_id, count(*) || ' ' || sum(json_array_length(payload, '$.events')) FROM log GROUP BY game_id"
        ).fetchall()) if self._valid_json() else {}
        rows = self._conn.execute("SELECT id, edition, seed, options, created_seq FROM games ORDER BY id").fetchall()
        out = []
        for r in rows:
            commands, events = (int(x) for x in counts.get(r[0], "0 0").split())
            out.append(GameInfo(r[0], r[1], r[2], json.loads(r[3]), r[4], commands, events))
        return out

    def _valid_json(self) -> bool:
        """Whether every log payload is valid JSON (the counts of :meth:`games` read inside them)."""
        try:
            bad: int = self._conn.execute("SELECT count(*) FROM log WHERE NOT json_valid(payload)").fetchone()[0]
            return bad == 0
        except sqlite3.Error:
            return False

    def game(self, game_id: int) -> GameInfo:
        """The game ``game_id``; :class:`JournalError` if the file has no such game."""
        for info in self.games():
            if info.id == game_id:
                return info
        known = [g.id for g in self.games()]
        raise JournalError(f"{self.path} has no game {game_id!r} (games: {known})")

    def latest_game(self) -> int | None:
        """The id of the most recently created game, or None if there is none."""
        row = self._conn.execute("SELECT max(id) FROM games").fetchone()
        return None if row[0] is None else int(row[0])

    def game_edition(self, game_id: int) -> str:
        """The edition id the game was created with."""
        row = self._conn.execute("SELECT edition FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path} has no game {game_id!r}")
        return str(row[0])

    # -- writing ---------------------------------------------------------------------------------

    def append(self, game_id: int, command_record: Mapping[str, Any], events: Sequence[Event],
               input_id: str | None = None) -> None:
        """Store one command and all its events in one transaction (one row); return once it is on disk.

        The events' ``seq`` must continue the game's sequence without a gap and all carry the same
        ``command`` number, which must be the next command number; otherwise nothing is written and
        :class:`JournalError` says what was expected. ``input_id`` is the id of the input line that
        caused the command (see :meth:`input_ids`).
        """
        records = event_records(events)
        try:
            self._writes.before_statement()
            if self._tails.append_known(self._conn, game_id, events, input_id,
                                        lambda: payload_row(command_record, records)):
                return
            with self._transaction() as conn:
                end = continues(game_id, self._tails.of(conn, game_id), events)
                row, chain = self._insert_row(conn, game_id, end[0], input_id, command_record, records,
                                              self._tails.link_of(game_id))
        except (sqlite3.Error, ValueError) as exc:  # ValueError: a record SQLite cannot store (bad text)
            self._writes.failed()
            raise JournalError(f"cannot append to game {game_id} in {self.path}: {exc}") from exc
        self._tails.wrote(game_id, end, row, chain)

    @staticmethod
    def _insert_row(conn: sqlite3.Connection, game_id: int, number: int, input_id: str | None,
                    command_record: Mapping[str, Any], records: list[dict[str, Any]],
                    previous: bytes) -> tuple[int | None, bytes]:
        """Insert the row, chained after the link ``previous``; its id and its link."""
        text, data = payload_row(command_record, records)
        chain = link(previous, number, input_id, data)
        row = conn.execute("INSERT INTO log (game_id, number, input_id, payload, chain) VALUES (?, ?, ?, ?, ?)",
                           (game_id, number, input_id, text, chain)).lastrowid
        return row, chain

    def _chained(self) -> bool:
        """Whether the file's rows carry their chain links (schema 3; a schema 2 file opened read-only has
        none, and its rows are checked without them)."""
        if self._has_chain is None:
            self._has_chain = any(r[1] == "chain" for r in self._conn.execute("PRAGMA table_info(log)"))
        return self._has_chain

    def _check_game(self, conn: sqlite3.Connection, game_id: int) -> None:
        if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise JournalError(f"{self.path} has no game {game_id!r}")

    def checkpoint(self) -> tuple[int, int]:
        """Copy the WAL into the database file (``PASSIVE``: never waits for readers); call it when the unit
        is idle and at the end of a game. Returns (frames in the WAL, frames copied)."""
        try:
            _, frames, copied = self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot checkpoint {self.path}: {exc}") from exc
        return int(frames), int(copied)

    # -- reading ---------------------------------------------------------------------------------

    def _rows(self, game_id: int) -> Generator[LogRow, None, None]:
        """The game's decoded, checked rows in order, read in one transaction (consume or close it)."""
        conn = self._conn
        with reading(conn):
            self._check_game(conn, game_id)
            rows = select(conn, game_id, self._chained()).fetchall()
            yield from decode_rows(iter(rows), chain=chain_start(game_id) if self._chained() else None)

    def _fast(self, game_id: int, ruleset: str) -> list[Event] | None:
        """The game's events if every row is regular (engine/store/fastload.py), read in one transaction."""
        conn = self._conn
        with reading(conn):
            self._check_game(conn, game_id)
            return fast_events(conn, game_id, self._chained(), event_loaders(ruleset))

    def _checked(self, game_id: int) -> list[LogRow]:
        try:
            return list(self._rows(game_id))
        except BadRow as bad:
            raise JournalError(f"game {game_id} in {self.path}: {bad}; boardbank replay --salvage shows what "
                               f"is intact before it") from None

    def event_records(self, game_id: int) -> list[dict[str, Any]]:
        """The game's event records in ``seq`` order, checked (see engine/store/rows.py)."""
        return [record for row in self._checked(game_id) for record in row.events]

    def command_records(self, game_id: int) -> list[dict[str, Any]]:
        """The game's command records in order, each with its ``number`` added."""
        return [{"number": row.number, **row.command} for row in self._checked(game_id)]

    def input_ids(self, game_id: int) -> dict[str, int]:
        """Input id -> the number of the command it caused, for the game's commands that carry one."""
        self._check_game(self._conn, game_id)
        rows = self._conn.execute("SELECT input_id, number FROM log WHERE game_id = ? AND input_id IS NOT NULL",
                                  (game_id,)).fetchall()
        return {str(i): int(n) for i, n in rows}

    def input_firsts(self, game_id: int) -> dict[str, int]:
        """Input id -> the first of its commands, for the ids of the game's inputs that applied several."""
        return {str(i): int(n) for i, n in self._conn.execute(
            "SELECT input_id, min(number) FROM log WHERE game_id = ? AND input_id IS NOT NULL GROUP BY input_id "
            "HAVING count(*) > 1", (game_id,))}

    def load(self, game_id: int, ruleset: str | None = None) -> tuple[str, list[Event]]:
        """The game's edition id and its events in ``seq`` order (for ``Game.replay``), decoded as events of
        ``ruleset`` (by default the ruleset of the built-in edition the game was recorded with)."""
        edition, events, problem = self.salvage(game_id, ruleset)
        if problem is not None:
            raise JournalError(f"game {game_id} in {self.path}: {problem}; boardbank replay --salvage shows what "
                               f"is intact before it")
        return edition, events

    def salvage(self, game_id: int, ruleset: str | None = None) -> tuple[str, list[Event], str | None]:
        """What is intact of a damaged game: its edition, the events of every command before the first bad
        row, and what is wrong with that row (None when nothing is). Reads only; never repairs."""
        edition, ruleset = self._edition_and_ruleset(game_id, ruleset)
        events: list[Event] = []
        if (fast := self._fast(game_id, ruleset)) is not None:  # every row regular (engine/store/fastload.py)
            return edition, fast, None
        decode, rows = event_decoder(ruleset), self._rows(game_id)  # the exact path: it names the damage
        try:
            for row in rows:
                try:
                    decoded = [decode(r) for r in row.events]
                except RecordError as exc:
                    first = row.events[0].get("seq", "?") if row.events else "?"
                    return edition, events, f"command {row.number} (events from seq {first}) is damaged: {exc}"
                events.extend(decoded)
        except BadRow as bad:
            return edition, events, str(bad)
        finally:
            rows.close()
        return edition, events, None

    def _edition_and_ruleset(self, game_id: int, ruleset: str | None) -> tuple[str, str]:
        edition = self.game_edition(game_id)
        if ruleset is None:
            try:
                ruleset = load_edition(edition).ruleset
            except EditionError as exc:
                raise JournalError(f"{self.path}: game {game_id}: {exc}; name the edition to read it") from None
        return edition, ruleset

