"""Where the classic simulator's time goes: the rules, the simulator and its bots (a script that prints numbers).

Usage: ``python bench/bench_sim_profile.py [--games 300] [--rounds 3]``. The same seeds (classic-us, 4 players,
``--check end``'s play without the check) are played in CPU seconds (``time.process_time``), the best of
``--rounds``. Then the split: the commands of those games are recorded and applied again to fresh lean
tables alone (the rules' checks, their events and the fold: the one implementation of the rules), the rest
being the simulator choosing commands and its bots; and per command type, how many there are and the mean
cost of one through the rules. Run it with ``PYTHONPATH=build/fast`` first to see the compiled build's split.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parents[1]))  # after PYTHONPATH: build/fast first when given

from engine.editions import load_edition
from engine.rulesets.classic import sim
from engine.rulesets.classic.sim import ClassicRunner
from engine.rulesets.classic.table import SimTable
from engine.sim.results import derive_seed

ED = load_edition("classic-us")


def play(games: int) -> tuple[float, int]:
    """(CPU seconds, rolls) of ``games`` games."""
    rolls = 0
    t0 = time.process_time()
    for i in range(games):
        rolls += ClassicRunner(ED, 4, derive_seed(1, i), check_invariants=False).play().rolls
    return time.process_time() - t0, rolls


def recorded(games: int, first: int = 1) -> tuple[list[list[Any]], int]:
    """The commands each game of seed ``first`` sent to its table (kept by a wrapper: a compiled table takes
    no subclass), and the games' rolls."""
    out, rolls = [], 0
    for i in range(games):
        table = SimTable(ED)
        sent: list[Any] = []

        def apply(cmd: Any, table: SimTable = table, sent: list[Any] = sent) -> Any:
            sent.append(cmd)
            return table.apply(cmd)

        runner = ClassicRunner(ED, 4, derive_seed(first, i), game=table, apply=apply,  # type: ignore[arg-type]
                               check_invariants=False)
        rolls += runner.play().rolls
        out.append(sent)
    return out, rolls


def rules_alone(sent: list[list[Any]]) -> float:
    """CPU seconds to apply the recorded commands ``sent`` again, each game's to a fresh lean table: the
    rules' checks, their events and the fold, without the simulator that chose them."""
    t0 = time.process_time()
    for cmds in sent:
        apply = SimTable(ED).apply
        for cmd in cmds:
            apply(cmd)
    return time.process_time() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    play(20)
    best, rolls = float("inf"), 0
    for _ in range(args.rounds):
        seconds, rolls = play(args.games)
        best = min(best, seconds)
    compiled = "plain Python" if sim.__file__.endswith(".py") else "compiled"
    print(f"classic-us, 4 players, {args.games} games, {rolls:,} rolls, {compiled}; best of {args.rounds} rounds")
    print(f"  the whole run {rolls / best:>9,.0f} rolls/CPU-s  {best:.3f} s")
    sent = recorded(args.games)[0]
    every = sum(map(len, sent))
    rules = min(rules_alone(sent) for _ in range(args.rounds))
    print(f"  its {every:,} commands applied again to fresh lean tables alone (the rules): {rules:.3f} s "
          f"({rules / every * 1e6:.2f} us a command, {rules / best:.0%} of the run); the simulator and its "
          f"bots: {best - rules:.3f} s ({(best - rules) / rolls * 1e6:.2f} us a roll)")
    kinds: Counter[str] = Counter(type(c).__name__ for g in sent for c in g)
    cost: dict[str, float] = dict.fromkeys(kinds, 0.0)
    for cmds in sent:
        table = SimTable(ED)
        for cmd in cmds:
            t0 = time.process_time()
            table.apply(cmd)
            cost[type(cmd).__name__] += time.process_time() - t0
    print(f"  {'command':<18} {'count':>8} {'us each (with the timer)':>26} {'share of the rules':>20}")
    total = sum(cost.values())
    for name, n in kinds.most_common(16):
        print(f"  {name:<18} {n:>8,} {cost[name] / n * 1e6:>26.2f} {cost[name] / total:>20.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
