"""Dice rolls per second: our classic simulator against a peer simulator, side by side in one run.

Usage: ``python bench/bench_sim_peer.py PEER_CHECKOUT [--rounds 3] [--seconds 10] [--check end|every]``

``PEER_CHECKOUT`` is a checkout of gamescomputersplay/monopoly at commit 7c4df31 (a plain object model,
no auctions, one core here, 4 players); it is imported from there and never copied into this project. Its
dice are counted by wrapping its ``Dice.roll``; ours are the classic table's ``rolls`` (every roll that moves
a token or tries for doubles). Each round plays about ``--seconds`` of peer games, then about as long of
ours (classic-us, 4 players, ``--check end`` by default), alternating so that both see the same machine
state. Prints each round and the totals: both figures and the ratio ours / peer.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


def _peer(checkout: Path) -> tuple[Any, list[int]]:
    """The peer's one-game function, its logs off, and a list whose first item counts its rolls."""
    sys.path.insert(0, str(checkout))
    from monopoly.core import dice as peer_dice  # type: ignore[import-not-found]
    from monopoly.core.game import monopoly_game  # type: ignore[import-not-found]
    from monopoly.log_settings import LogSettings  # type: ignore[import-not-found]

    LogSettings.KEEP_GAME_LOG = False
    LogSettings.init_logs()
    counter = [0]
    roll = peer_dice.Dice.roll

    def counted(self: Any) -> Any:
        counter[0] += 1
        return roll(self)

    peer_dice.Dice.roll = counted
    return monopoly_game, counter


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("peer", type=Path, help="checkout of gamescomputersplay/monopoly at 7c4df31")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="per simulator and round")
    parser.add_argument("--check", choices=["end", "every"], default="end")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from engine.editions import load_edition
    from engine.sim.runner import run_sim

    peer_game, peer_rolls = _peer(args.peer)
    edition = load_edition("classic-us")
    totals = {"peer": [0, 0.0], "ours": [0, 0.0]}
    peer_index, our_seed = 0, 1
    for rnd in range(1, args.rounds + 1):
        start, before = time.perf_counter(), peer_rolls[0]
        while time.perf_counter() - start < args.seconds:
            peer_index += 1
            peer_game((peer_index, 1000 + peer_index))
        peer_time, peer_n = time.perf_counter() - start, peer_rolls[0] - before
        start, ours_n = time.perf_counter(), 0
        while time.perf_counter() - start < args.seconds:
            report = run_sim(edition, 4, 20, our_seed, check_invariants=args.check == "every",
                             check_end=args.check == "end")
            if report.invariant_violations:
                print(f"invariant violations: {report.problems[:3]}", file=sys.stderr)
                return 1
            ours_n += report.rolls
            our_seed += 1
        ours_time = time.perf_counter() - start
        for name, n, t in (("peer", peer_n, peer_time), ("ours", ours_n, ours_time)):
            totals[name][0] += n
            totals[name][1] += t
        print(f"round {rnd}: peer {peer_n / peer_time:,.0f} rolls/s, ours ({args.check}) "
              f"{ours_n / ours_time:,.0f} rolls/s")
    peer_rate = totals["peer"][0] / totals["peer"][1]
    ours_rate = totals["ours"][0] / totals["ours"][1]
    print(f"peer {peer_rate:,.0f} rolls/s; ours --check {args.check} {ours_rate:,.0f} rolls/s; "
          f"ratio {ours_rate / peer_rate:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
