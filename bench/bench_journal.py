"""Journal benchmark (a script that prints numbers; not a test): the journal on this machine's disk.

Measures, side by side on the same disk and interleaved so all sides see the same load:

* durable commands per second: bots' commands through ``DurableGame.apply`` (one transaction each), as
  at the table: between batches (a few turns of play) the table is idle and the kiosk's idle-checkpoint
  thread (``ui/checkpoint.py``, its own connection) copies the WAL into the database, so the next commit
  starts the WAL again from its beginning and overwrites pages the file already has;
* the bare commit loop: the floor, with the same settings (WAL, ``synchronous=FULL``, autocheckpoint
  off), one tiny row per commit and nothing else (its WAL grows all the run, as a loop without
  checkpoints does);
* the bare commits of the same rows: the journal's own rows (the same texts and chain links, precomputed),
  one per transaction (``BEGIN IMMEDIATE``, a plain ``INSERT``, ``COMMIT``) into a table of the journal's
  shape, with the same settings and the same idle checkpoints: the disk's floor for these bytes. A
  command's row is about 200 bytes where the bare loop's is a few, so a leaf of the log fills after about
  18 rows and its split writes more pages (about 1.11 WAL pages per command against 1): that is the data,
  not the statement, the transaction or the Python around it, which is what this comparison weighs;
* two more for the comparison's sake: the bare loop with the same idle checkpoints as the table (a reused
  WAL: the disk's floor for what the journal does), and the durable commands without them (a WAL that
  only grows).

The sides run in small batches in turn (the order rotates every round, so a drift of the machine's load
hits all alike); each round gives ratios, and the bench prints each side's median rate and the median of
the per-round ratios with its spread (10th-90th percentile). The headline is the like-for-like ratio
(durable / the bare commits of the same rows with the same idle checkpoints); its target is >= 0.8. The
former headline (durable / a tiny row per bare commit with the same idle checkpoints) is printed below it. It also prints the CPU
cost of the records' hash chain next to a durable command's (the checksums, side by side). It also
prints the WAL pages (frames) written per command (a bare commit writes one), counted in an untimed pass of
their own (no timed side looks at its WAL: a ``stat`` of the WAL file between two commits slowed the next
one by about a fifth), and the checkpoints' cost:
the idle ones between batches, and one of a whole run's WAL. No checkpoint runs inside a timed command;
automatic checkpoints are off on the journal's connection, so none runs inside a tap either.

The bots' games are played in memory first; the durable sides replay their commands, so they measure
the journal and not the bots. Usage: ``python bench/bench_journal.py [--rounds N] [--batch B]``.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, Step, parse_file, run_script
from engine.commands import Command
from engine.editions import Edition, load_edition
from engine.game import Game
from engine.records import command_to_record, event_to_record
from engine.rulesets.ultimate.sim import GameRunner
from engine.sim.runner import derive_seed
from engine.store.durable import DurableGame
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal
from engine.store.rows import chain_start, link, payload_text

WAL_HEADER, FRAME_HEADER = 32, 24  # bytes
NEED_RATIO = 0.8
TAPS = Path(__file__).resolve().parents[1] / "tests" / "engine" / "taps"
TABLE_SCRIPTS = (("whole_game.tap", "ultimate-uk"), ("classic/whole_game.tap", "classic-us"))
"""Whole games at the table, through the banker: what is written per command besides the command."""


def wal_frames(db: Path, page_size: int) -> int:
    """Frames in the WAL file of ``db`` (0 when there is none)."""
    wal = Path(f"{db}-wal")
    size = wal.stat().st_size if wal.exists() else 0
    return max(0, size - WAL_HEADER) // (page_size + FRAME_HEADER)


def bot_games(edition: Edition, commands: int) -> list[tuple[int, list[Command]]]:
    """(seed, commands) of bots' games played in memory, at least ``commands`` commands in all."""
    games: list[tuple[int, list[Command]]] = []
    total, i = 0, 0
    while total < commands:
        seed = derive_seed(5, i)
        game = Game(edition)
        sent: list[Command] = []

        def apply(cmd: Command, game: Game = game, sent: list[Command] = sent) -> object:
            sent.append(cmd)
            return game.apply(cmd)

        GameRunner(edition, 4, seed, game=game, apply=apply, check_invariants=False).play()  # type: ignore[arg-type]
        games.append((seed, sent))
        total, i = total + len(sent), i + 1
    return games


def chain_cost(edition: Edition, games: list[tuple[int, list[Command]]], limit: int = 2000) -> float:
    """Microseconds of CPU to link one row of the hash chain, over the rows of the first ``limit`` commands
    (the payloads as the journal writes them)."""
    texts: list[bytes] = []
    for _, commands in games:
        game = Game(edition)
        for cmd in commands:
            records = [event_to_record(e) for e in game.apply(cmd)]
            texts.append(payload_text(command_to_record(cmd), records).encode("utf-8"))
            if len(texts) >= limit:
                break
        if len(texts) >= limit:
            break
    best = float("inf")
    for _ in range(5):
        start, chain = time.process_time(), chain_start(1)
        for number, text in enumerate(texts, start=1):
            chain = link(chain, number, None, text)
        best = min(best, time.process_time() - start)
    return best / len(texts) * 1e6


LogRow = tuple[int, int, None, str, bytes]
"""(game id, command number, input id, payload text, chain link): one row of the journal's ``log`` table."""

LOG_TABLE = ("CREATE TABLE log (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, number INTEGER NOT NULL, "
             "input_id TEXT, payload TEXT NOT NULL, chain BLOB)")
"""The journal's ``log`` table (engine/store/schema.py), for the bare commits of the same rows."""


def journal_rows(edition: Edition, games: list[tuple[int, list[Command]]]) -> list[LogRow]:
    """The rows the journal writes for the bots' games' commands (game ids 1, 2, ... as in a new file): the
    same texts (engine/store/rows.py) and chain links, so the bare commits of them write the same bytes."""
    out: list[LogRow] = []
    for game_id, (_, commands) in enumerate(games, start=1):
        game, chain = Game(edition), chain_start(game_id)
        for number, cmd in enumerate(commands, start=1):
            records = [event_to_record(e) for e in game.apply(cmd)]
            text = payload_text(command_to_record(cmd), records)
            chain = link(chain, number, None, text.encode("utf-8"))
            out.append((game_id, number, None, text, chain))
    return out


class BareLoop:
    """The bare commit loop, WAL + synchronous=FULL, no autocheckpoint: one tiny row per transaction, or with
    ``rows``, the journal's own rows one per transaction into a table of the journal's shape (a plain INSERT);
    ``idle_checkpoints``: checkpoint after every batch, as the kiosk does when the table is idle."""

    def __init__(self, db: Path, idle_checkpoints: bool = False, rows: list[LogRow] | None = None) -> None:
        self.idle_checkpoints = idle_checkpoints
        self.conn = sqlite3.connect(db, isolation_level=None)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "wal_autocheckpoint=0"):
            self.conn.execute(f"PRAGMA {pragma}")
        self.conn.execute("CREATE TABLE t (x INTEGER)" if rows is None else LOG_TABLE)
        self.rows = rows
        self.i = 0
        self.cpu_s = 0.0  # CPU seconds of this process spent in the batches

    def batch(self, n: int) -> float:
        """Commits per second of ``n`` commits."""
        conn, rows = self.conn, self.rows
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            conn.execute("BEGIN IMMEDIATE")
            if rows is None:
                conn.execute("INSERT INTO t VALUES (?)", (self.i,))
            else:
                conn.execute("INSERT INTO log (game_id, number, input_id, payload, chain) VALUES (?, ?, ?, ?, ?)",
                             rows[self.i])
            conn.execute("COMMIT")
            self.i += 1
        self.cpu_s += time.process_time() - cpu
        rate = n / (time.perf_counter() - start)
        if self.idle_checkpoints:
            self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        return rate


class DurableSide:
    """The replayed bots' commands through ``DurableGame.apply``, a batch at a time; with
    ``idle_checkpoints``, the kiosk's idle checkpoint (a connection of its own) after every batch. Nothing
    but the commands runs between them (no look at the WAL: a ``stat`` of the WAL file between two commits
    slowed the next one by about a fifth on this machine's disk; :func:`frames_per_command` counts pages
    in a pass of its own)."""

    def __init__(self, journal: Journal, edition: Edition, games: list[tuple[int, list[Command]]],
                 idle_checkpoints: bool = False) -> None:
        self.journal, self.edition = journal, edition
        self.checkpointer = Journal.open(journal.path) if idle_checkpoints else None
        self.checkpoint_ms: list[float] = []  # the idle checkpoints' durations
        self.commands = 0
        self.cpu_s = 0.0  # CPU seconds of this process spent applying the commands
        self._stream = self._each(games)

    def _each(self, games: list[tuple[int, list[Command]]]) -> Iterator[tuple[DurableGame, Command]]:
        for seed, commands in games:
            gid = self.journal.create_game(self.edition.id, seed, {})
            durable = DurableGame(self.journal, gid, Game(self.edition))
            for cmd in commands:
                yield durable, cmd

    def batch(self, n: int) -> float:
        """Commands per second of the next ``n`` commands (a game's creation is not timed)."""
        elapsed = 0.0
        for _ in range(n):
            durable, cmd = next(self._stream)  # may create the next game: outside the timing
            cpu = time.process_time()  # a system call: outside the timed command, as the bare side's are
            start = time.perf_counter()
            durable.apply(cmd)
            elapsed += time.perf_counter() - start
            self.cpu_s += time.process_time() - cpu
            self.commands += 1
        if self.checkpointer is not None:
            start = time.perf_counter()
            self.checkpointer.checkpoint()
            self.checkpoint_ms.append((time.perf_counter() - start) * 1000)
        return n / elapsed


def frames_per_command(folder: Path, edition: Edition, games: list[tuple[int, list[Command]]], rows: list[LogRow],
                       count: int) -> tuple[float, float]:
    """WAL pages (frames) written per command by the first ``count`` commands, untimed, with the WAL looked
    at around each one: (through ``DurableGame.apply``, a game's creation aside; the same rows committed
    bare). Both WALs only grow here."""
    with Journal.open(folder / "frames.db") as journal:
        side = DurableSide(journal, edition, games)
        page_size = int(journal._conn.execute("PRAGMA page_size").fetchone()[0])
        durable = 0
        for _ in range(count):
            game, cmd = next(side._stream)
            before = wal_frames(journal.path, page_size)
            game.apply(cmd)
            durable += wal_frames(journal.path, page_size) - before
    bare = BareLoop(folder / "frames-bare.db", rows=rows)
    page_size = int(bare.conn.execute("PRAGMA page_size").fetchone()[0])
    before = wal_frames(folder / "frames-bare.db", page_size)
    bare.batch(count)
    same = wal_frames(folder / "frames-bare.db", page_size) - before
    bare.conn.close()
    return durable / count, same / count


class _CountingStore(JournalStore):
    """The kiosk's store, counting the banker's record writes (in the commit of the input's commands, or
    alone without a sync when the input applied none: engine/store/writes.py)."""

    saves = 0

    def finish_input(self, record: Mapping[str, Any] | None) -> bool:
        self.saves += record is not None
        return super().finish_input(record)


def at_the_table(folder: Path) -> list[str]:
    """Each whole-game tap script through a Banker over a journal on disk: commits and WAL pages per
    command, the banker's record writes among them (what the players are in the middle of)."""
    return [_table_game(folder / f"table-{edition}.db", name, edition) for name, edition in TABLE_SCRIPTS]


class _Steps:
    """Counts, after each step of a tap script, the inputs and those that wrote a command and the record."""

    def __init__(self, banker: Banker, store: _CountingStore) -> None:
        self.banker, self.store = banker, store
        self.inputs = self.with_command = 0
        self._commands = self._saves = 0

    def __call__(self, step: Step, reaction: object) -> None:
        game = self.banker.game
        commands = game.events[-1].command if game is not None and game.events else 0
        if reaction is not None:
            self.inputs += 1
            self.with_command += commands > self._commands and self.store.saves > self._saves
        self._commands, self._saves = commands, self.store.saves


def _table_game(db: Path, name: str, edition: str) -> str:
    with Journal.open(db) as journal:
        store = _CountingStore(journal, edition)
        page_size = int(journal._conn.execute("PRAGMA page_size").fetchone()[0])
        start_frames = wal_frames(db, page_size)
        cards, clock = CardTable(), ManualClock()
        banker = Banker(store, cards, clock, seed_source=lambda: 7)
        steps = _Steps(banker, store)
        run_script(parse_file(TAPS / name).steps, banker, clock, cards.enroll, on_step=steps)
        commands = sum(g.commands for g in journal.games())
        frames = wal_frames(db, page_size) - start_frames
    return (f"  {name} ({edition}): {steps.inputs} inputs, {commands} commands, {store.saves} banker's-record "
            f"writes ({steps.with_command} of them in the commit of an input's commands, the rest alone without a "
            f"sync: they keep a gesture in hand); {frames / commands:.2f} WAL pages per command, both kinds "
            f"included")


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values`` by linear interpolation."""
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="rounds of one batch per side (default %(default)s)")
    parser.add_argument("--batch", type=int, default=50, help="commits or commands per batch (default %(default)s)")
    args = parser.parse_args()
    edition = load_edition("ultimate-uk")
    games = bot_games(edition, args.rounds * args.batch + 1)
    rows = journal_rows(edition, games)
    rates: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {"table": [], "reused": [], "grown": [], "same rows": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        with Journal.open(folder / "table.db") as table_journal, Journal.open(folder / "grown.db") as grown_journal:
            table = DurableSide(table_journal, edition, games, idle_checkpoints=True)
            grown = DurableSide(grown_journal, edition, games)
            bare, reused = BareLoop(folder / "bare.db"), BareLoop(folder / "reused.db", idle_checkpoints=True)
            same = BareLoop(folder / "same.db", idle_checkpoints=True, rows=rows)
            sides: list[tuple[str, DurableSide | BareLoop]] = [
                ("durable", table), ("bare", bare), ("bare, reused WAL", reused), ("durable, grown WAL", grown),
                ("bare, the same rows, reused WAL", same)]
            for r in range(args.rounds):
                turn = sides[r % len(sides):] + sides[: r % len(sides)]
                got = {name: side.batch(args.batch) for name, side in turn}
                for name, rate in got.items():
                    rates.setdefault(name, []).append(rate)
                ratios["table"].append(got["durable"] / got["bare"])
                ratios["reused"].append(got["durable"] / got["bare, reused WAL"])
                ratios["grown"].append(got["durable, grown WAL"] / got["bare"])
                ratios["same rows"].append(got["durable"] / got["bare, the same rows, reused WAL"])
            page_size = int(grown_journal._conn.execute("PRAGMA page_size").fetchone()[0])
            wal_before = wal_frames(grown_journal.path, page_size)
            start = time.perf_counter()
            grown_journal.checkpoint()
            checkpoint_ms = (time.perf_counter() - start) * 1000
            assert table.checkpointer is not None
            table.checkpointer.close()
            for side in (bare, reused, same):
                side.conn.close()
        pages, same_pages = frames_per_command(folder, edition, games, rows, min(args.rounds * args.batch, len(rows)))
    print(f"{args.rounds} rounds of {args.batch}, median rates: " + ", ".join(
        f"{name} {statistics.median(values):,.0f}/s" for name, values in rates.items()))

    def spread(values: list[float]) -> str:
        return f"{statistics.median(values):.2f} (10th-90th percentile {percentile(values, 0.1):.2f}-" \
               f"{percentile(values, 0.9):.2f})"

    def verdict(values: list[float]) -> str:
        return f"target >= {NEED_RATIO:.2f}: {'OK' if statistics.median(values) >= NEED_RATIO else 'TOO SLOW'}"

    print(f"ratio durable/bare, like for like (the same rows committed bare, the same idle checkpoints: both "
          f"reuse their WAL), median of the rounds: {spread(ratios['same rows'])}; {verdict(ratios['same rows'])}")
    print(f"  the former definition (a tiny row per bare commit, the same idle checkpoints): "
          f"{spread(ratios['reused'])}; {verdict(ratios['reused'])}")
    print(f"  against the bare loop without checkpoints (its WAL only grows): {spread(ratios['table'])}")
    print(f"  without idle checkpoints, durable/bare (both WALs only grow): {spread(ratios['grown'])}")
    link_us, command_us = chain_cost(edition, games), table.cpu_s / table.commands * 1e6
    print(f"the records' hash chain (engine/store/rows.py), side by side: {link_us:.1f} us of CPU per command to "
          f"link on write (and as much to check on read), {link_us / command_us * 100:.1f}% of a durable "
          f"command's {command_us:.0f} us of CPU")
    print(f"CPU per command: durable {table.cpu_s / table.commands * 1000:.2f} ms, bare commit "
          f"{bare.cpu_s / bare.i * 1000:.2f} ms, bare commit of the same row {same.cpu_s / same.i * 1000:.2f} ms "
          f"(the rest of each is waiting for the disk's fsync)")
    print(f"WAL pages written per command: {pages:.2f} (a bare commit writes 1; the same rows committed bare: "
          f"{same_pages:.2f}), counted in an untimed pass")
    print(f"idle checkpoints between the table's batches: {len(table.checkpoint_ms)}, median "
          f"{statistics.median(table.checkpoint_ms):.1f} ms, max {max(table.checkpoint_ms):.1f} ms, on a "
          f"connection of their own, as the kiosk's idle-checkpoint thread (5 s without a write)")
    print("what else is written per command, at the table (whole games through the banker, no checkpoint):")
    with tempfile.TemporaryDirectory() as tmp:
        for line in at_the_table(Path(tmp)):
            print(line)
    print(f"checkpoint of a whole run's WAL ({wal_before} pages, {grown.commands} commands): {checkpoint_ms:.1f} ms, "
          f"run by Journal.checkpoint() on that thread and at a game's end; automatic checkpoints are off: "
          f"never inside a tap")
    return 0


if __name__ == "__main__":
    sys.exit(main())
