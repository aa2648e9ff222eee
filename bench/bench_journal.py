"""Journal benchmark (a script that prints numbers; not a test): the journal on this machine's disk.

Measures, side by side on the same disk and interleaved so both see the same load:

* durable commands per second: bots' commands through ``DurableGame.apply`` (one transaction each), next
  to a bare commit loop with the same settings (WAL, ``synchronous=FULL``, one tiny row per commit). The
  two run in small alternating batches (durable, bare, bare, durable, ...: the order flips every pair so a
  drift of the machine's load hits both alike); each pair gives a ratio, and the bench prints each side's
  median rate and the median of the per-pair ratios with its spread (10th-90th percentile). The ratio is
  the journal's share of what the disk allows (target >= 0.8);
* WAL pages (frames) written per command (a bare commit writes one);
* the checkpoint's cost: the WAL left by the whole durable run, copied by ``Journal.checkpoint()``, which
  the kiosk runs on a thread of its own once the table is idle for 5 s (``ui/checkpoint.py``) and at a
  game's end; automatic checkpoints are off, so none runs inside a tap.

The bots' games are played in memory first; the durable side replays their commands, so it measures the
journal and not the bots. Usage: ``python bench/bench_journal.py [--pairs N] [--batch B]``.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.commands import Command
from engine.editions import Edition, load_edition
from engine.game import Game
from engine.rulesets.ultimate.sim import GameRunner
from engine.sim.runner import derive_seed
from engine.store.durable import DurableGame
from engine.store.journal import Journal

WAL_HEADER, FRAME_HEADER = 32, 24  # bytes
NEED_RATIO = 0.8


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


class BareLoop:
    """The bare commit loop: one tiny row per transaction, WAL + synchronous=FULL, no autocheckpoint."""

    def __init__(self, db: Path) -> None:
        self.conn = sqlite3.connect(db, isolation_level=None)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "wal_autocheckpoint=0"):
            self.conn.execute(f"PRAGMA {pragma}")
        self.conn.execute("CREATE TABLE t (x INTEGER)")
        self.i = 0
        self.cpu_s = 0.0  # CPU seconds of this process spent in the batches

    def batch(self, n: int) -> float:
        """Commits per second of ``n`` commits."""
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("INSERT INTO t VALUES (?)", (self.i,))
            self.conn.execute("COMMIT")
            self.i += 1
        self.cpu_s += time.process_time() - cpu
        return n / (time.perf_counter() - start)


class DurableSide:
    """The replayed bots' commands through ``DurableGame.apply``, a batch at a time."""

    def __init__(self, journal: Journal, edition: Edition, games: list[tuple[int, list[Command]]]) -> None:
        self.journal, self.edition = journal, edition
        self.page_size = int(journal._conn.execute("PRAGMA page_size").fetchone()[0])
        self.commands = 0
        self.frames = 0  # WAL frames written by the commands (a game's creation aside)
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
            before = wal_frames(self.journal.path, self.page_size)
            start, cpu = time.perf_counter(), time.process_time()
            durable.apply(cmd)
            elapsed += time.perf_counter() - start
            self.cpu_s += time.process_time() - cpu
            self.frames += wal_frames(self.journal.path, self.page_size) - before
            self.commands += 1
        return n / elapsed


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values`` by linear interpolation."""
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=40, help="alternating pairs of batches (default %(default)s)")
    parser.add_argument("--batch", type=int, default=50, help="commits or commands per batch (default %(default)s)")
    args = parser.parse_args()
    edition = load_edition("ultimate-uk")
    games = bot_games(edition, args.pairs * args.batch + 1)
    durable_rates, bare_rates, ratios = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bare = BareLoop(folder / "bare.db")
        with Journal.open(folder / "journal.db") as journal:
            side = DurableSide(journal, edition, games)
            for pair in range(args.pairs):
                if pair % 2 == 0:
                    d, b = side.batch(args.batch), bare.batch(args.batch)
                else:
                    b, d = bare.batch(args.batch), side.batch(args.batch)
                durable_rates.append(d)
                bare_rates.append(b)
                ratios.append(d / b)
            wal_before = wal_frames(journal.path, side.page_size)
            start = time.perf_counter()
            journal.checkpoint()
            checkpoint_ms = (time.perf_counter() - start) * 1000
        bare.conn.close()
    ratio = statistics.median(ratios)
    print(f"{args.pairs} pairs of {args.batch}: durable {statistics.median(durable_rates):,.0f} commands/s "
          f"(median), bare commit loop {statistics.median(bare_rates):,.0f} commits/s (median)")
    print(f"ratio durable/bare, median of the pairs: {ratio:.2f} (10th-90th percentile "
          f"{percentile(ratios, 0.1):.2f}-{percentile(ratios, 0.9):.2f}; target >= {NEED_RATIO:.2f}): "
          f"{'OK' if ratio >= NEED_RATIO else 'TOO SLOW'}")
    print(f"CPU per command: durable {side.cpu_s / side.commands * 1000:.2f} ms, bare commit "
          f"{bare.cpu_s / bare.i * 1000:.2f} ms (the rest of each is waiting for the disk's fsync)")
    print(f"WAL pages written per command: {side.frames / side.commands:.2f} (a bare commit writes 1)")
    print(f"checkpoint of the run's WAL ({wal_before} pages, {side.commands} commands): {checkpoint_ms:.1f} ms, "
          f"run by Journal.checkpoint() on the kiosk's idle-checkpoint thread (5 s without a write) and at a "
          f"game's end; automatic checkpoints are off: never inside a tap")
    return 0


if __name__ == "__main__":
    sys.exit(main())
