"""The journal: every game's commands and events in one SQLite file (with engine/store/, the only I/O of
the engine).

The file is the installation's single SQLite database (docs/architecture.md, "Where state lives"): the
journal's tables live next to tables of other components (the card registry, settings), which the
journal never touches. Durability rules:

* WAL mode and ``synchronous=FULL`` on every connection, so a commit is on disk when it returns;
* :meth:`Journal.append` writes one command and all of its events in ONE transaction;
* :meth:`Journal.open` refuses a file that is not ours, not SQLite, truncated or corrupt with a
  :class:`JournalError`, and never writes to such a file (the checks use a read-only connection).

The file is marked as ours by ``PRAGMA application_id`` (:data:`APPLICATION_ID`) and a ``meta`` table
holding the schema version. Another component that creates the file first must set the same
application id, or keep only tables named in :data:`SIBLING_TABLES` (the journal then adopts the file).

Amounts inside the stored events are ``int`` in the edition's money unit; the journal never reads them.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.editions import load_edition
from engine.errors import EditionError
from engine.events import Event
from engine.records import event_from_record, event_to_record
from engine.store.inspect import inspect_file
from engine.store.schema import _SCHEMA, APPLICATION_ID, SCHEMA_VERSION, SIBLING_TABLES, JournalError

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "SIBLING_TABLES", "GameInfo", "Journal", "JournalError", "dumps_record"]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game of the journal: its edition, seed, options and how far it has got.

    ``created_seq`` is the number of events in the whole file when the game was created (it orders
    games against each other without a wall clock); ``commands`` and ``events`` are counts.
    """

    id: int
    edition: str
    seed: int
    options: Mapping[str, object]
    created_seq: int
    commands: int
    events: int


def dumps_record(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _connect(path: Path) -> sqlite3.Connection:
    """A read-write connection with the durability pragmas (they are per connection)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
    conn.execute("PRAGMA busy_timeout=10000")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


class Journal:
    """An open journal file. Create with :meth:`open`; use as a context manager or call :meth:`close`."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn

    # -- opening ---------------------------------------------------------------------------------

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
        needs_schema = inspect_file(p) if p.exists() else True
        if read_only:
            if needs_schema:
                raise JournalError(f"{p} holds no boardbank journal yet (no games were ever recorded in it)")
            try:
                conn = sqlite3.connect(f"file:{p}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
            except sqlite3.Error as exc:
                raise JournalError(f"cannot open the journal {p} read-only: {exc}") from exc
            return cls(p, conn)
        if not p.parent.is_dir():
            raise JournalError(f"cannot create the journal {p}: the folder {p.parent} does not exist")
        try:
            conn = _connect(p)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {p}: {exc}") from exc
        try:
            if needs_schema:
                cls._create_schema(conn)
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal":
                raise JournalError(f"{p}: expected journal_mode 'wal', SQLite gave {mode!r}")
        except sqlite3.Error as exc:
            conn.close()
            raise JournalError(f"cannot initialise the journal {p}: {exc}") from exc
        except JournalError:
            conn.close()
            raise
        return cls(p, conn)

    @staticmethod
    def _create_schema(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('application', 'boardbank')")
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        """Close the connection (committed data is already on disk)."""
        self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # -- games -----------------------------------------------------------------------------------

    def create_game(self, edition_id: str, seed: int, options: Mapping[str, object]) -> int:
        """Record a new game (no events yet) and return its id."""
        try:
            with self._transaction() as conn:
                total = conn.execute("SELECT count(*) FROM events").fetchone()[0]
                cur = conn.execute(
                    "INSERT INTO games (edition, seed, options, created_seq) VALUES (?, ?, ?, ?)",
                    (edition_id, seed, dumps_record(dict(options)), total),
                )
        except sqlite3.Error as exc:
            raise JournalError(f"cannot record a new game of edition {edition_id!r} in {self.path}: {exc}") from exc
        game_id = cur.lastrowid
        assert game_id is not None
        return game_id

    def games(self) -> list[GameInfo]:
        """Every game in the file, oldest first."""
        rows = self._conn.execute(
            """SELECT g.id, g.edition, g.seed, g.options, g.created_seq,
                      (SELECT count(*) FROM commands c WHERE c.game_id = g.id),
                      (SELECT count(*) FROM events e WHERE e.game_id = g.id)
               FROM games g ORDER BY g.id"""
        ).fetchall()
        return [GameInfo(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6]) for r in rows]

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

    # -- writing ---------------------------------------------------------------------------------

    def append(self, game_id: int, command_record: Mapping[str, Any], events: Sequence[Event]) -> None:
        """Store one command and all its events in one transaction; return once it is on disk.

        The events' ``seq`` must continue the game's sequence without a gap and all carry the same
        ``command`` number, which must be the next command number; otherwise nothing is written and
        :class:`JournalError` says what was expected.
        """
        records = [event_to_record(e) for e in events]
        try:
            with self._transaction() as conn:
                self._check_game(conn, game_id)
                last_cmd, last_seq = conn.execute(
                    "SELECT coalesce(max(number), 0), "
                    "(SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?) "
                    "FROM commands WHERE game_id = ?",
                    (game_id, game_id),
                ).fetchone()
                number = events[0].command if events else last_cmd + 1
                if number != last_cmd + 1:
                    raise JournalError(
                        f"game {game_id}: expected command number {last_cmd + 1}, got {number} "
                        f"(another writer, or events of an old command)"
                    )
                for offset, event in enumerate(events, start=1):
                    if event.seq != last_seq + offset or event.command != number:
                        raise JournalError(
                            f"game {game_id}: expected event seq {last_seq + offset} of command {number}, "
                            f"got seq {event.seq} of command {event.command}: {event!r}"
                        )
                conn.execute(
                    "INSERT INTO commands VALUES (?, ?, ?, ?, ?)",
                    (game_id, number, str(command_record.get("type", "?")), dumps_record(command_record), len(events)),
                )
                conn.executemany(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                    [(game_id, e.seq, e.command, r["type"], dumps_record(r)) for e, r in zip(events, records, strict=True)],
                )
        except (sqlite3.Error, ValueError) as exc:  # ValueError: a record SQLite cannot store (bad text)
            raise JournalError(f"cannot append to game {game_id} in {self.path}: {exc}") from exc

    def _check_game(self, conn: sqlite3.Connection, game_id: int) -> None:
        if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise JournalError(f"{self.path} has no game {game_id!r}")

    # -- reading ---------------------------------------------------------------------------------

    def event_records(self, game_id: int) -> list[dict[str, Any]]:
        """The game's event records in ``seq`` order, checked for gaps and half-written commands."""
        return [record for chunk in self._record_chunks(game_id) for record in chunk]

    def _record_chunks(self, game_id: int, size: int = 4096) -> Generator[list[dict[str, Any]], None, None]:
        """The checked event records in ``seq`` order, ``size`` at a time (bounded extra memory).

        Read in one transaction, so a concurrent writer cannot slip a command in between the checks;
        consume the iterator fully (or close it) to end that transaction.
        """
        conn = self._conn
        conn.execute("BEGIN")
        try:
            self._check_game(conn, game_id)
            self._check_events(conn, game_id)
            cursor = conn.execute("SELECT payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
            while rows := cursor.fetchmany(size):
                try:
                    chunk = json.loads("[" + ",".join(r[0] for r in rows) + "]")  # one parse per chunk: 2x faster
                except ValueError as exc:
                    raise JournalError(f"game {game_id} in {self.path}: an event is not valid JSON ({exc})") from exc
                yield chunk
        finally:
            conn.execute("COMMIT")

    def _check_events(self, conn: sqlite3.Connection, game_id: int) -> None:
        """Seqs 1..n without a gap, and every command with exactly the events it was written with."""
        n, first, last = conn.execute(
            "SELECT count(*), coalesce(min(seq), 1), coalesce(max(seq), 0) FROM events WHERE game_id = ?",
            (game_id,),
        ).fetchone()
        where = f"game {game_id} in {self.path}"
        if n != last or first != 1:
            raise JournalError(f"{where}: expected event seqs 1..{last} without a gap, found {n} events")
        per_command = dict(conn.execute(
            "SELECT command, count(*) FROM events WHERE game_id = ? GROUP BY command", (game_id,)
        ).fetchall())
        expected = dict(conn.execute(
            "SELECT number, event_count FROM commands WHERE game_id = ? AND event_count > 0", (game_id,)
        ).fetchall())
        if per_command != expected:
            bad = min(k for k in per_command.keys() | expected.keys() if per_command.get(k) != expected.get(k))
            raise JournalError(
                f"{where}: command {bad} should have {expected.get(bad, 0)} events, found {per_command.get(bad, 0)}"
            )

    def command_records(self, game_id: int) -> list[dict[str, Any]]:
        """The game's command records in order, each with its ``number`` added."""
        self._check_game(self._conn, game_id)
        rows = self._conn.execute(
            "SELECT number, payload FROM commands WHERE game_id = ? ORDER BY number", (game_id,)
        ).fetchall()
        return [{"number": number, **json.loads(payload)} for number, payload in rows]

    def load(self, game_id: int, ruleset: str | None = None) -> tuple[str, list[Event]]:
        """The game's edition id and its events in ``seq`` order (for ``Game.replay``), decoded as events of
        ``ruleset`` (by default the ruleset of the built-in edition the game was recorded with)."""
        edition = self.game_edition(game_id)
        if ruleset is None:
            try:
                ruleset = load_edition(edition).ruleset
            except EditionError as exc:
                raise JournalError(f"{self.path}: game {game_id}: {exc}; name the edition to read it") from None
        chunks = self._record_chunks(game_id)
        try:
            return edition, [event_from_record(r, ruleset) for chunk in chunks for r in chunk]
        finally:
            chunks.close()  # ends the read transaction at once, even after a bad record

    def game_edition(self, game_id: int) -> str:
        """The edition id the game was created with."""
        row = self._conn.execute("SELECT edition FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path} has no game {game_id!r}")
        return str(row[0])
