"""Engine benchmarks (a script that prints numbers; not a test). ``make bench`` runs it.

Measures, on this machine:

* ``Game.apply`` alone on recorded bot games, both rulesets, in commands per CPU second (goal >= 250,000),
  and the fold (``Game.replay``) of their events in seconds per 100,000 events (goal <= 0.3): the bots'
  commands are recorded once, then only their replay into fresh games is timed, in a child process per
  checkout (bench/engine_child.py), alternating rounds with ``--old DIR`` (an older commit unpacked in a
  temporary folder, e.g. ``git worktree add /tmp/old db8e728``) so that both see the same machine; the
  best round of each;
* in-memory commands per CPU second: bots play whole games through ``Game.apply`` without invariant
  checks (target >= 50,000), the whole simulator, best of 3;
* durable commands per second: the same bots through ``DurableGame.apply`` into an SQLite journal
  (WAL, synchronous=FULL; target >= 1,000), next to bare SQLite commits per second with the same settings
  before and after it (one fsync each: the disk's limit, which varies a lot on a shared machine);
* replay of a 100,000-event journal: ``Journal.load`` + ``Game.replay`` of one long game, in a fresh
  process, best of 3 (target < 2 s);
* peak resident memory (RSS) after each stage.

``--profile`` adds the engine functions that take the most time in the in-memory run (cProfile).
Usage: ``python bench/bench_engine.py [--games N] [--old DIR] [--rounds N] [--profile]``. On a shared machine
CPU time still varies by tens of percent between runs: compare figures measured side by side.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.commands import Command
from engine.editions import Edition, load_edition
from engine.events import Event
from engine.game import Game
from engine.records import command_to_record
from engine.rulesets.ultimate.sim import GameRunner
from engine.sim.runner import derive_seed, run_sim
from engine.store.durable import DurableGame
from engine.store.journal import Journal

ROOT = Path(__file__).resolve().parents[1]
REPLAY_EVENTS = 100_000
REPEATS = 3
APPLY_GOAL = 250_000  # Game.apply alone, commands per CPU second, each ruleset


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB.

    Linux: ``VmHWM`` of /proc/self/status (``ru_maxrss`` would include the parent's size at fork time,
    which an exec'd child inherits); elsewhere ``ru_maxrss`` (KiB on Linux/BSD).
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_memory(edition: Edition, games: int) -> tuple[float, int]:
    """(simulator commands per CPU second, commands), without invariant checks. CPU time
    (``time.process_time``) so that other load on the machine counts less; after a warm-up, the best of
    ``REPEATS`` runs (noise only ever slows a run down)."""
    run_sim(edition, 4, max(1, games // 10), seed=99, check_invariants=False)  # warm-up
    runs = [run_sim(edition, 4, games, seed=1, check_invariants=False, clock=time.process_time)
            for _ in range(REPEATS)]
    report = max(runs, key=lambda r: r.commands_per_second)
    return report.commands_per_second, report.commands


def bench_apply_side_by_side(old: Path | None, rounds: int, games: int) -> dict[tuple[str, str], dict[str, float]]:
    """Best figures of bench/engine_child.py per (checkout, ruleset) over ``rounds`` alternating rounds:
    this tree on both rulesets, and ``old`` (if given) on Ultimate Banking, the ruleset it has."""
    runs = [("ours", ROOT, "ultimate"), ("ours", ROOT, "classic"),
            *([("old", old, "ultimate")] if old is not None else [])]
    best: dict[tuple[str, str], dict[str, float]] = {}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for _ in range(rounds):
        for name, root, ruleset in runs:
            n = games if ruleset == "ultimate" else games // 2  # classic games are longer
            done = subprocess.run([sys.executable, str(ROOT / "bench" / "engine_child.py"), str(root), ruleset,
                                   str(n), "2"], capture_output=True, text=True, env=env, timeout=900, check=False)
            if done.returncode != 0:
                raise SystemExit(f"the {name} {ruleset} child failed:\n{done.stderr[-2000:]}")
            got = json.loads(done.stdout.strip().splitlines()[-1])
            had = best.setdefault((name, ruleset), got)
            had["apply_rate"] = max(had["apply_rate"], got["apply_rate"])
            had["fold_per_100k"] = min(had["fold_per_100k"], got["fold_per_100k"])
    return best


def bench_durable(edition: Edition, folder: Path, games: int) -> tuple[float, int]:
    """(durable commands/s, commands) through DurableGame into a fresh journal."""
    with Journal.open(folder / "durable.db") as journal:
        start = time.perf_counter()
        commands = 0
        for i in range(games):
            gid = journal.create_game(edition.id, derive_seed(2, i), {})
            durable = DurableGame(journal, gid, Game(edition))
            commands += GameRunner(edition, 4, derive_seed(2, i), game=durable.game, apply=durable.apply,
                                   check_invariants=False).play().commands
        return commands / (time.perf_counter() - start), commands


def bench_raw_commits(path: Path, n: int = 1000) -> float:
    """Bare SQLite commits per second with the journal's settings (one tiny row each): the disk's limit,
    measured next to the durable rate because fsync latency varies a lot on a shared machine."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE t (x INTEGER)")
        start = time.perf_counter()
        for i in range(n):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t VALUES (?)", (i,))
            conn.execute("COMMIT")
        return n / (time.perf_counter() - start)
    finally:
        conn.close()


def build_long_game(edition: Edition, folder: Path) -> tuple[Path, int, int]:
    """A journal holding one game of at least REPLAY_EVENTS events (rich players, so nobody goes bankrupt)."""
    path = folder / "replay.db"
    with Journal.open(path) as journal:
        gid = journal.create_game(edition.id, 3, {"start_money": 10**9})
        game = Game(edition)
        pending: list[tuple[dict[str, object], tuple[Event, ...]]] = []
        def collect(cmd: Command) -> tuple[Event, ...]:
            events = game.apply(cmd)
            pending.append((command_to_record(cmd), events))
            return events

        runner = GameRunner(edition, 4, 3, options={"start_money": 10**9}, game=game, apply=collect,
                            check_invariants=False, turn_cap=10**6)
        while len(game.events) < REPLAY_EVENTS:
            runner.turn_cap = runner.result.turns + 500
            runner.play()
        for record, events in pending:
            journal.append(gid, record, events)
        return path, gid, len(game.events)


def bench_replay(edition: Edition, path: Path, gid: int) -> tuple[float, float, int]:
    """(CPU seconds to load the events, CPU seconds to fold them, events) of the long game."""
    with Journal.open(path, read_only=True) as journal:
        t0 = time.process_time()  # CPU seconds: on a loaded machine wall time measures the scheduler
        _, events = journal.load(gid)
        t1 = time.process_time()
        game = Game.replay(edition, events)
        t2 = time.process_time()
    assert game.invariants() == []
    return t1 - t0, t2 - t1, len(events)


def profile_memory_run(edition: Edition, games: int) -> str:
    """The top functions (cumulative and own time) of an in-memory run, as text."""
    prof = cProfile.Profile()
    prof.enable()
    run_sim(edition, 4, games, seed=1, check_invariants=False)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(18)
    return out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games for the in-memory rate")
    parser.add_argument("--durable-games", type=int, default=60, help="games for the durable rate")
    parser.add_argument("--profile", action="store_true", help="print the hottest functions of the in-memory run")
    parser.add_argument("--old", type=Path, default=None,
                        help="an older checkout to measure Game.apply against, side by side (e.g. db8e728)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of the Game.apply figures")
    parser.add_argument("--apply-games", type=int, default=200, help="recorded Ultimate games (classic: half)")
    parser.add_argument("--replay", nargs=2, metavar=("DB", "GAME"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    edition = load_edition("ultimate-uk")
    if args.replay:  # the child that measures replay alone: "load_s fold_s events peak_rss_mib", best of 3
        runs = [bench_replay(edition, Path(args.replay[0]), int(args.replay[1])) for _ in range(REPEATS)]
        load_s, fold_s, n_events = min(runs, key=lambda r: r[0] + r[1])
        print(f"{load_s:.4f} {fold_s:.4f} {n_events} {peak_rss_mb():.1f}")
        return 0
    rows: list[tuple[str, str, str, str]] = []

    side = bench_apply_side_by_side(args.old, args.rounds, args.apply_games)
    for (name, ruleset), got in side.items():
        who = "this tree" if name == "ours" else f"old checkout {args.old}"
        rate, fold = got["apply_rate"], got["fold_per_100k"]
        goal = name == "ours"
        rows.append((f"Game.apply alone, {ruleset}, {who} ({got['commands']:,} commands)", f"{rate:,.0f}",
                     ">= 250,000" if goal else "", ("ok" if rate >= APPLY_GOAL else "BELOW") if goal else ""))
        rows.append((f"  fold (Game.replay) of their {got['events']:,} events, s per 100k events", f"{fold:.3f}",
                     "<= 0.3" if goal else "", ("ok" if fold <= 0.3 else "ABOVE") if goal else ""))
    sim_rate, n = bench_memory(edition, args.games)
    ok = "ok" if sim_rate >= 50_000 else "BELOW"
    rows.append((f"in-memory commands/CPU-s, simulator + bots ({n:,} commands)", f"{sim_rate:,.0f}", ">= 50,000", ok))
    rows.append(("peak RSS after in-memory", f"{peak_rss_mb():.1f} MiB", "", ""))

    with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
        folder = Path(tmp)
        raw_before = bench_raw_commits(folder / "raw-before.db")
        durable_rate, n = bench_durable(edition, folder, args.durable_games)
        raw_after = bench_raw_commits(folder / "raw-after.db")
        rows.append(("durable commands/s (WAL, synchronous=FULL)", f"{durable_rate:,.0f}", ">= 1,000",
                     "ok" if durable_rate >= 1000 else "BELOW"))
        rows.append(("  bare SQLite commits/s, before / after (the disk)", f"{raw_before:,.0f} / {raw_after:,.0f}",
                     "", ""))
        rows.append(("peak RSS after durable", f"{peak_rss_mb():.1f} MiB", "", ""))
        path, gid, _ = build_long_game(edition, folder)
        size_mb = path.stat().st_size / 2**20
        child = subprocess.run([sys.executable, __file__, "--replay", str(path), str(gid)],
                               capture_output=True, text=True, check=True, timeout=600)
        load_s, fold_s, n_events, replay_rss = (float(x) for x in child.stdout.split())
        total = load_s + fold_s
        rows.append((f"replay of {n_events:,.0f} events ({size_mb:.1f} MiB file)", f"{total:.2f} s", "< 2 s",
                     "ok" if total < 2 else "ABOVE"))
        rows.append(("  of which load (SQL + JSON + records)", f"{load_s:.2f} s", "", ""))
        rows.append(("  of which fold (Game.replay)", f"{fold_s:.2f} s", f"<= {0.3 * n_events / 100_000:.2f} s",
                     "ok" if fold_s <= 0.3 * n_events / 100_000 else "ABOVE"))
        rows.append(("peak RSS of a process that only replays it", f"{replay_rss:.1f} MiB", "", ""))
        rows.append(("peak RSS after building that journal", f"{peak_rss_mb():.1f} MiB", "", ""))

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>12}  {'target':<14} verdict")
    for name, value, target, verdict in rows:
        print(f"{name:<{width}}  {value:>12}  {target:<14} {verdict}")
    if args.profile or sim_rate < 50_000:
        print("\nhottest functions of the in-memory run (own time):")
        print(profile_memory_run(edition, max(50, args.games // 4)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
