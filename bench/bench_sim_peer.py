"""Dice rolls per second: our classic simulator against a peer simulator, side by side in one run.

Usage: ``python bench/bench_sim_peer.py PEER_CHECKOUT [--rounds 3] [--seconds 10] [--check end|every]
[--fast DIR]``

``PEER_CHECKOUT`` is a checkout of gamescomputersplay/monopoly at commit 7c4df31 (a plain object model,
no auctions, one core here, 4 players); it is imported from there and never copied into this project. Its
dice are counted by wrapping its ``Dice.roll``; ours are the classic table's ``rolls`` (every roll that moves
a token or tries for doubles).

Each round plays about ``--seconds`` of peer games, then about as long of ours (classic-us, 4 players,
``--check end`` by default) as plain Python and, when ``--fast`` names the compiled build of
scripts/build_fast.py (``make fast``; default ``build/fast`` if it is there), as long again with the compiled
modules. All three run in child processes, alternating, so that they see the same machine state; a child
times only its games (not its start), in CPU seconds of its one core (``time.process_time``: on a machine
that other work loads, wall time measures the scheduler more than the code; on a quiet one they agree, and
the wall-clock rates are printed too). Both builds play the same seeds, and the bench checks that they gave
the same games (a digest of each batch's report without its timing) before it prints anything. Prints each
round and the totals: the figures, and the ratios ours / peer.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BATCH = 20  # games per run_sim call in our child


def _peer_child(checkout: Path, seconds: float, first: int) -> dict[str, Any]:
    """Play the peer's games ``first``, ``first + 1``... for about ``seconds``; its rolls and time."""
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
    index, start, cpu = first, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        monopoly_game((index, 1000 + index))
        index += 1
    return {"rolls": counter[0], "seconds": time.process_time() - cpu, "wall": time.perf_counter() - start,
            "next": index}


def _ours_child(seconds: float, first: int, check: str) -> dict[str, Any]:
    """Play batches of our classic games from seed ``first`` for about ``seconds``; rolls, time, digests."""
    from engine.editions import load_edition
    from engine.rulesets.classic import sim
    from engine.sim.runner import run_sim

    edition = load_edition("classic-us")
    seed, rolls, digests, start, cpu = first, 0, [], time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        report = run_sim(edition, 4, BATCH, seed, check_invariants=check == "every", check_end=check == "end")
        if report.invariant_violations:
            return {"error": f"invariant violations: {report.problems[:3]}"}
        rolls += report.rolls
        fields = report.as_dict()
        for timing in ("seconds", "commands_per_second", "rolls_per_second"):
            fields.pop(timing, None)
        digests.append(hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16])
        seed += 1
    compiled = not sim.__file__.endswith(".py")
    return {"rolls": rolls, "seconds": time.process_time() - cpu, "wall": time.perf_counter() - start,
            "digests": digests, "compiled": compiled}


def _child(kind: str, args: argparse.Namespace, first: int, fast: Path | None) -> dict[str, Any]:
    """Run one timed child (``peer``, ``pure`` or ``fast``) and return what it printed."""
    env = dict(os.environ)
    paths = [str(fast)] if kind == "fast" and fast else []
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    command = [sys.executable, __file__, str(args.peer), "--child", kind, "--seconds", str(args.seconds),
               "--first", str(first), "--check", args.check]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the {kind} child failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if "error" in result:
        raise SystemExit(f"the {kind} child: {result['error']}")
    if kind == "fast" and not result["compiled"]:
        raise SystemExit(f"the fast child did not load the compiled modules from {fast}")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("peer", type=Path, help="checkout of gamescomputersplay/monopoly at 7c4df31")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="per simulator and round")
    parser.add_argument("--check", choices=["end", "every"], default="end")
    parser.add_argument("--fast", type=Path, default=None,
                        help="the compiled build (scripts/build_fast.py); default build/fast if present")
    parser.add_argument("--child", choices=["peer", "pure", "fast"], help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "peer":
        print(json.dumps(_peer_child(args.peer, args.seconds, args.first)))
        return 0
    if args.child:
        print(json.dumps(_ours_child(args.seconds, args.first, args.check)))
        return 0

    sys.path.insert(0, str(ROOT / "scripts"))
    from build_fast import DEFAULT_OUT, stale

    fast: Path | None = args.fast
    if fast is None and (DEFAULT_OUT / "SOURCES.sha256").is_file():
        fast = DEFAULT_OUT
    if fast is not None:
        why = stale(fast.resolve())
        if why:
            raise SystemExit(f"--fast: {why}")
    kinds = ["peer", "pure", *(["fast"] if fast else [])]
    totals = {k: [0, 0.0] for k in kinds}
    peer_first, our_first, compared = 1, 1, 0
    for rnd in range(1, args.rounds + 1):
        results = {}
        for kind in kinds:
            results[kind] = _child(kind, args, peer_first if kind == "peer" else our_first, fast)
            totals[kind][0] += results[kind]["rolls"]
            totals[kind][1] += results[kind]["seconds"]
        if fast:
            common = min(len(results["pure"]["digests"]), len(results["fast"]["digests"]))
            if results["pure"]["digests"][:common] != results["fast"]["digests"][:common]:
                raise SystemExit(f"round {rnd}: the compiled build played different games from the same seeds")
            compared += common * BATCH
        peer_first = results["peer"]["next"]
        our_first += max(len(results[k]["digests"]) for k in kinds if k != "peer")
        line = ", ".join(f"{k} {results[k]['rolls'] / results[k]['seconds']:,.0f}"
                         f" ({results[k]['rolls'] / results[k]['wall']:,.0f} wall)" for k in kinds)
        print(f"round {rnd} (rolls per CPU second, --check {args.check}): {line}", flush=True)
    rate = {k: totals[k][0] / totals[k][1] for k in kinds}
    print(f"totals in rolls per CPU second: peer {rate['peer']:,.0f} rolls/s; ours --check {args.check}: plain Python {rate['pure']:,.0f} "
          f"rolls/s, ratio {rate['pure'] / rate['peer']:.2f}")
    if fast:
        print(f"ours compiled (mypyc, {fast}): {rate['fast']:,.0f} rolls/s, ratio {rate['fast'] / rate['peer']:.2f}; "
              f"{compared} games played by both builds, identical")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
