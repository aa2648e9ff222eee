"""Where the classic simulator's time goes, with and without its fused commands (a script that prints numbers).

Usage: ``python bench/bench_sim_fused.py [--games 300] [--rounds 3]``. The same seeds (classic-us, 4 players,
``--check end``'s play without the check) are played with the fused commands (engine/rulesets/classic/fused.py,
as ``boardbank sim`` plays) and without them (every command through the rule's check and do on the lean
table), alternating in one process, in CPU seconds (``time.process_time``), the best round of each. Then the
split of the plain path: the commands of those games recorded and applied again to fresh lean tables alone
(the rules, their events and the fold: what the fused commands replace), the rest being the simulator and its
bots; and per command type, how many there are, how many the fused path ran itself, and the mean cost of
one through the rules. Both paths must play the same games: the bench stops if they do not.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.editions import load_edition
from engine.rulesets.classic.sim import ClassicRunner
from engine.rulesets.classic.table import SimTable
from engine.sim.results import derive_seed

ED = load_edition("classic-us")


def play(games: int, fusing: bool) -> tuple[float, int, list[tuple[Any, ...]]]:
    """(CPU seconds, rolls, each game's figures) of ``games`` games."""
    rolls, out = 0, []
    t0 = time.process_time()
    for i in range(games):
        r = ClassicRunner(ED, 4, derive_seed(1, i), check_invariants=False, fusing=fusing).play()
        rolls += r.rolls
        out.append((r.turns, r.commands, r.rolls, r.in_jail, r.winner, tuple(r.landings)))
    return time.process_time() - t0, rolls, out


class _Recording(SimTable):
    """A lean table that keeps every command it is sent."""

    __slots__ = ("sent",)

    def __init__(self, edition: Any) -> None:
        super().__init__(edition)
        self.sent: list[Any] = []

    def apply(self, cmd: Any) -> list[Any]:
        self.sent.append(cmd)
        return super().apply(cmd)


def recorded(games: int, fusing: bool) -> list[list[Any]]:
    """The commands each game sent to its table (with ``fusing``: those the fused commands left to it)."""
    out = []
    for i in range(games):
        table = _Recording(ED)
        ClassicRunner(ED, 4, derive_seed(1, i), game=table, check_invariants=False, fusing=fusing).play()  # type: ignore[arg-type]
        out.append(table.sent)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    play(20, True)
    play(20, False)
    best = {True: float("inf"), False: float("inf")}
    rolls = 0
    for _ in range(args.rounds):
        for fusing in (True, False):
            seconds, rolls, games = play(args.games, fusing)
            best[fusing] = min(best[fusing], seconds)
            if fusing:
                fused_games = games
            elif games != fused_games:
                raise SystemExit("the fused and the plain path played different games from the same seeds")
    print(f"classic-us, 4 players, {args.games} games, {rolls:,} rolls; best of {args.rounds} alternating rounds")
    for fusing in (True, False):
        print(f"  {'with the fused commands' if fusing else 'rules only (no fused copy)':<30} "
              f"{rolls / best[fusing]:>9,.0f} rolls/CPU-s  {best[fusing]:.3f} s")
    plain = recorded(args.games, False)
    left = recorded(args.games, True)
    every = sum(map(len, plain))
    runs = []
    for _ in range(args.rounds):
        t0 = time.process_time()
        for cmds in plain:
            apply = SimTable(ED).apply
            for cmd in cmds:
                apply(cmd)
        runs.append(time.process_time() - t0)
    rules = min(runs)
    print(f"  rules only: its {every:,} commands applied again to fresh lean tables alone: {rules:.3f} s "
          f"({rules / every * 1e6:.2f} us a command, {rules / best[False]:.0%} of the run); the simulator and "
          f"bots: {best[False] - rules:.3f} s")
    print(f"  with the fused commands: {sum(map(len, left)):,} of the {every:,} commands go through the rules; "
          f"the run takes {best[False] - best[True]:.3f} s less (its {best[True]:.3f} s hold its bots, its "
          f"simulator and the fused commands)")
    kinds: Counter[str] = Counter(type(c).__name__ for g in plain for c in g)
    through: Counter[str] = Counter(type(c).__name__ for g in left for c in g)
    cost: Counter[str] = Counter()
    for cmds in plain:
        table = SimTable(ED)
        for cmd in cmds:
            t0 = time.process_time()
            table.apply(cmd)
            cost[type(cmd).__name__] += time.process_time() - t0
    print(f"  {'command':<18} {'count':>8} {'fused':>7} {'us each (rules, with the timer)':>32}")
    for name, n in kinds.most_common(14):
        print(f"  {name:<18} {n:>8,} {n - through[name]:>7,} {cost[name] / n * 1e6:>32.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
