"""Estimate benchmark (a script that prints numbers; not a test): the house-rules estimates on one core.

Pinned to one core (``os.sched_setaffinity``), for each edition: the simulator's games per second without
invariant checks (the figure engine/sim/estimate.py's ``GAMES_PER_SECOND`` plans with), then one estimate of a
typical option set with the setup screen's budget (ui/estimates.py ``BUDGET_S``, the clock read before every
pair of games): its wall time, paired games, and the 95 % interval's half-width of the length (turns and
percent of the defaults') and of the first player's wins (percentage points). Last, the background worker
(ui/estimates.py: a child interpreter at a lower priority) runs one estimate: the time from the request to
the answer by ``poll`` and the worker's peak resident memory (``VmHWM``, MiB); and what the app's own process
holds more for the estimates (imports and a first key; the worker is a plain child process: no
multiprocessing in the app).
Usage: ``python bench/bench_estimate.py [--players N] [--budget S] [--rate-seconds S] [--editions ID,ID]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.editions import list_editions, load_edition
from engine.rulesets.registry import get_ruleset
from engine.sim.estimate import GAMES_PER_SECOND, estimate
from engine.sim.results import derive_seed
from ui import estimates as est

OPTIONS = {"ultimate": {"start_money": 2000}, "classic": {"free_parking_jackpot": True}}  # one typical variant


def games_per_second(edition_id: str, players: int, seconds: float) -> float:
    """Games of ``players`` bots played in ``seconds`` (no invariant checks), per second."""
    edition = load_edition(edition_id)
    make = get_ruleset(edition.ruleset).runner
    start, n = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        make(edition, players, derive_seed(99, n), check_invariants=False).play()
        n += 1
    return n / (time.perf_counter() - start)


def _peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def worker(edition_id: str, players: int, budget_s: float) -> None:
    """One estimate through the background worker: request to answer, and the worker's peak memory."""
    with tempfile.TemporaryDirectory() as root:
        estimates = est.Estimates(Path(root), budget_s=budget_s)
        start = time.perf_counter()
        options = OPTIONS[load_edition(edition_id).ruleset]
        assert estimates.request(edition_id, players, options) is None
        asked = time.perf_counter() - start
        process = estimates._proc
        assert process is not None
        peak = 0.0
        got: list[object] = []
        while not got:
            if process.poll() is None:
                with contextlib.suppress(OSError):  # the worker exited in between
                    peak = max(peak, _peak_rss_mib(process.pid))
            got = list(estimates.poll())
            time.sleep(0.05)
        total = time.perf_counter() - start
        estimates.close()
        again = time.perf_counter()
        cached = est.Estimates(Path(root)).request(edition_id, players, options)
        print(f"worker {edition_id}: request returned in {1000 * asked:.0f} ms, estimate ready in {total:.1f} s, "
              f"worker peak RSS {peak:.1f} MiB; a new session reads the cache in "
              f"{1000 * (time.perf_counter() - again):.1f} ms ({'hit' if cached else 'miss'})")


APP_SIDE = """
import sys
def rss():
    return int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0]) / 1024
import engine.game, engine.editions, ui.i18n, ui.money, engine.rulesets.registry
engine.editions.load_edition('classic-uk')
before, modules = rss(), len(sys.modules)
import ui.estimates, ui.estimate_text
ui.estimates.Estimates().key('classic-uk', 4, {'start_money': 2000})
print(f'{rss() - before:.2f} MiB, {len(sys.modules) - modules} modules')
"""


def app_side() -> None:
    """What the app's own process holds more for the estimates (the worker apart): import and a first key."""
    import subprocess

    root = str(Path(__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, "-c", APP_SIDE], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": root}, cwd=root)
    print(f"app side: ui.estimates imported and one key made: {done.stdout.strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--budget", type=float, default=est.BUDGET_S, help="seconds per estimate")
    parser.add_argument("--rate-seconds", type=float, default=3.0, help="seconds to measure games per second")
    parser.add_argument("--editions", default=",".join(list_editions()))
    args = parser.parse_args()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"one core (cpu {min(os.sched_getaffinity(0))}), {args.players} players, budget {args.budget} s; "
          f"planned rates {GAMES_PER_SECOND} games/s")
    editions = [e for e in args.editions.split(",") if e]
    for edition_id in editions:
        edition = load_edition(edition_id)
        rate = games_per_second(edition_id, args.players, args.rate_seconds)
        options = OPTIONS[edition.ruleset]
        start = time.perf_counter()
        e = estimate(edition, args.players, options, budget_s=args.budget, clock=time.perf_counter)
        took = time.perf_counter() - start
        turns, first = e.effects["turns"], e.effects["first_wins"]
        pct = 100 * turns.diff.half / turns.base.value if turns.base.value else 0.0
        print(f"{edition_id:<12} {rate:6.1f} games/s; estimate {options}: {took:.1f} s, {e.games} paired games, "
              f"turns {turns.diff.value:+.1f} ± {turns.diff.half:.1f} (± {pct:.1f} % of {turns.base.value:.0f}), "
              f"first player's wins {100 * first.diff.value:+.1f} ± {100 * first.diff.half:.1f} points")
    for edition_id in (editions[0], editions[-1]):
        worker(edition_id, args.players, args.budget)
    app_side()


if __name__ == "__main__":
    main()
