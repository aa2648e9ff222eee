"""Journal benchmark (a script that prints numbers; not a test): the journal on a slow disk.

Measures, side by side on the same disk, alternating so both see the same load:

* durable commands per second: bots' commands through ``DurableGame.apply`` (one transaction each), next
  to a bare commit loop with the same settings (WAL, ``synchronous=FULL``, one tiny row per commit): the
  ratio is the journal's share of what the disk allows (target >= 0.8);
* WAL pages (frames) written per command (a bare commit writes one);
* the checkpoint's cost: the WAL left by the durable run, copied by ``Journal.checkpoint()`` (which the
  unit runs when idle and at a game's end: automatic checkpoints are off, so none runs inside a tap).

Usage: ``python bench/bench_journal.py [--commands N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.editions import load_edition
from engine.game import Game
from engine.rulesets.ultimate.sim import GameRunner
from engine.sim.runner import derive_seed
from engine.store.durable import DurableGame
from engine.store.journal import Journal

WAL_HEADER, FRAME_HEADER = 32, 24  # bytes


def wal_frames(db: Path, page_size: int) -> int:
    """Frames in the WAL file of ``db`` (0 when there is none)."""
    wal = Path(f"{db}-wal")
    size = wal.stat().st_size if wal.exists() else 0
    return max(0, size - WAL_HEADER) // (page_size + FRAME_HEADER)


def bare_commits(folder: Path, n: int) -> float:
    """Commits per second of a bare loop: one tiny row per transaction, WAL + synchronous=FULL."""
    db = folder / f"bare-{time.perf_counter_ns()}.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t (x INTEGER)")
    start = time.perf_counter()
    for i in range(n):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t VALUES (?)", (i,))
        conn.execute("COMMIT")
    rate = n / (time.perf_counter() - start)
    conn.close()
    return rate


def durable_commands(folder: Path, n: int, round_no: int) -> tuple[float, float, float, int]:
    """(commands/s, WAL frames per command, checkpoint ms, commands) for about ``n`` bot commands."""
    edition = load_edition("ultimate-uk")
    db = folder / f"journal-{round_no}.db"
    with Journal.open(db) as journal:
        page_size = journal._conn.execute("PRAGMA page_size").fetchone()[0]
        journal.checkpoint()
        frames_before = wal_frames(db, page_size)
        commands, elapsed, i = 0, 0.0, 0
        while commands < n:
            gid = journal.create_game(edition.id, derive_seed(5, round_no * 1000 + i), {})
            durable = DurableGame(journal, gid, Game(edition))
            start = time.perf_counter()
            commands += GameRunner(edition, 4, derive_seed(5, round_no * 1000 + i), game=durable.game,
                                   apply=durable.apply, check_invariants=False).play().commands
            elapsed += time.perf_counter() - start
            i += 1
        frames = wal_frames(db, page_size) - frames_before - i  # create_game's own commits aside
        start = time.perf_counter()
        journal.checkpoint()
        checkpoint_ms = (time.perf_counter() - start) * 1000
    return commands / elapsed, frames / commands, checkpoint_ms, commands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=1500, help="durable commands per round (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default %(default)s)")
    args = parser.parse_args()
    ratios, durable_rates, bare_rates, frames, checkpoints = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for r in range(args.rounds):
            bare_before = bare_commits(folder, args.commands // 2)
            rate, per_command, checkpoint_ms, _ = durable_commands(folder, args.commands, r)
            bare_after = bare_commits(folder, args.commands // 2)
            bare = (bare_before + bare_after) / 2
            ratios.append(rate / bare)
            durable_rates.append(rate)
            bare_rates.append(bare)
            frames.append(per_command)
            checkpoints.append(checkpoint_ms)
            print(f"round {r + 1}: durable {rate:,.0f} commands/s, bare commit loop {bare:,.0f}/s, "
                  f"ratio {rate / bare:.2f}, {per_command:.2f} WAL pages per command, "
                  f"checkpoint {checkpoint_ms:.1f} ms")
    print(f"median: durable {statistics.median(durable_rates):,.0f} commands/s beside a bare commit loop of "
          f"{statistics.median(bare_rates):,.0f}/s: ratio {statistics.median(ratios):.2f} (target >= 0.80)")
    print(f"WAL pages written per command: {statistics.median(frames):.2f} (a bare commit writes 1)")
    print(f"checkpoint of one round's WAL: {statistics.median(checkpoints):.1f} ms, run by Journal.checkpoint() "
          f"when the unit is idle or a game ends (automatic checkpoints are off: never inside a tap)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
