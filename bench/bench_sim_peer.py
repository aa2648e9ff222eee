"""Dice rolls per second: our classic simulator against a peer simulator, side by side in one run.

Usage: ``python bench/bench_sim_peer.py PEER_CHECKOUT [--rounds 3] [--seconds 10] [--fast DIR]`` (or the
checkout in ``$BOARDBANK_PEER``; without either it says so and does nothing, as under ``make bench``) and
``python bench/bench_sim_peer.py --growth [--edition classic-us] [--sizes 10,100,1000,10000]``

``PEER_CHECKOUT`` is a checkout of gamescomputersplay/monopoly at commit 7c4df31 (a plain object model,
no auctions, one core here, 4 players); it is imported from there and never copied into this project. Its
dice are counted by wrapping its ``Dice.roll``; ours are the classic table's ``rolls`` (every roll that moves
a token or tries for doubles).

Each round plays about ``--seconds`` of peer games, then about as long of ours (classic-us, 4 players): as
plain Python with ``--check end`` (invariants at each game's end, as the peer checks nothing; goal 1.5x the
peer; every command goes through the rule's own check and change on the lean table, the only
implementation of the rules), as plain Python with ``--check every`` (after every command; goal 0.5x) and,
when ``--fast`` names the compiled build of scripts/build_fast.py (``make fast``; default ``build/fast`` if
it is there), with the compiled modules and ``--check end`` (goal 4x). All run in child processes,
alternating, so that they see the same machine state; a child times only its games (not its start), in CPU seconds of its one core (``time.process_time``: on a machine
that other work loads, wall time measures the scheduler more than the code; on a quiet one they agree, and
the wall-clock rates are printed too). All of ours play the same seeds, and the bench checks that they gave
the same games (a digest of each batch's games) before it prints anything. Prints each
round and the totals: the figures, the ratios ours / peer and each ratio's goal.

Then the rules alone, in each round too (plain and, with ``--fast``, compiled): the commands of our first
games recorded once and applied again to fresh lean tables for about ``--seconds`` (the rules' checks,
events and fold, nothing of the simulator), in rolls of those games per CPU second. That is what a
simulator costing nothing would reach; the time per roll each goal allows, less the rules' own, is what the
goal leaves for the simulator and its bots, printed against what they take now.

``--growth`` runs ``boardbank sim --check end --json`` for 10, 100, 1,000 and 10,000 games, each in a fresh
process, and prints the CPU time per game (of the run, the imports before it left out) and the process's peak
resident memory: both should stay flat as the run grows (the report keeps a count per square and one
number per game, no game). Games differ in length, so the time per turn is printed too; the first run's
figure includes the one-time work of a process (the edition read, the first games' caches).
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
GOALS = {"pure": 1.5, "every": 0.5, "fast": 4.0}  # ours / peer, rolls per CPU s
RULES_OF = {"pure": "rules", "fast": "fast-rules"}  # a run -> its rules alone (the same build)
RULES_BATCHES = 3  # batches of BATCH games recorded for the rules alone: the first games every run plays


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
    from engine.sim.results import derive_seed

    edition = load_edition("classic-us")
    seed, rolls, digests, start, cpu = first, 0, [], time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        played: list[Any] = []
        for i in range(BATCH):  # as run_sim(edition, 4, BATCH, seed, check_end=...) plays them
            runner = sim.ClassicRunner(edition, 4, derive_seed(seed, i), check_invariants=check == "every")
            r = runner.play()
            problems = [*r.violations, *(runner.game.invariants() if check == "end" else [])]
            if problems:
                return {"error": f"invariant violations: {problems[:3]}"}
            rolls += r.rolls
            played.append((r.turns, r.commands, r.rolls, r.landings, r.in_jail, r.winner, r.completed, r.capped))
        digests.append(hashlib.sha256(json.dumps(played).encode()).hexdigest()[:16])
        seed += 1
    compiled = not sim.__file__.endswith(".py")
    return {"rolls": rolls, "seconds": time.process_time() - cpu, "wall": time.perf_counter() - start,
            "digests": digests, "compiled": compiled}


def _rules_child(seconds: float) -> dict[str, Any]:
    """The rules alone: the commands of our first games (seeds 1..RULES_BATCHES, as ``_ours_child`` plays
    them) recorded once, then applied again to fresh lean tables for about ``seconds``; those games' rolls
    and the time (what a simulator that cost nothing would reach)."""
    from bench_sim_profile import recorded, rules_alone  # (bench/ is this script's folder)

    from engine.rulesets.classic import sim

    sent, rolls = [], 0
    for seed in range(1, RULES_BATCHES + 1):
        games, n = recorded(BATCH, seed)
        sent += games
        rolls += n
    done, cpu, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        cpu += rules_alone(sent)
        done += rolls
    return {"rolls": done, "seconds": cpu, "wall": time.perf_counter() - start,
            "compiled": not sim.__file__.endswith(".py")}


def _child(kind: str, args: argparse.Namespace, first: int, fast: Path | None) -> dict[str, Any]:
    """Run one timed child (``peer``, ``pure``, ``every`` or ``fast``) and return
    what it printed."""
    env = dict(os.environ)
    paths = [str(fast)] if kind.startswith("fast") and fast else []
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    check = "every" if kind == "every" else "end"
    command = [sys.executable, __file__, str(args.peer or ""), "--child", kind, "--seconds", str(args.seconds),
               "--first", str(first), "--check", check]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the {kind} child failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if "error" in result:
        raise SystemExit(f"the {kind} child: {result['error']}")
    if kind.startswith("fast") and not result["compiled"]:
        raise SystemExit(f"the fast child did not load the compiled modules from {fast}")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("peer", type=Path, nargs="?", help="checkout of gamescomputersplay/monopoly at 7c4df31")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="per simulator and round")
    parser.add_argument("--check", choices=["end", "every"], default="end", help=argparse.SUPPRESS)
    parser.add_argument("--fast", type=Path, default=None,
                        help="the compiled build (scripts/build_fast.py); default build/fast if present")
    parser.add_argument("--child", choices=["peer", *GOALS, *RULES_OF.values()], help=argparse.SUPPRESS)
    parser.add_argument("--growth", action="store_true", help="time per game and peak memory as a run grows")
    parser.add_argument("--edition", default="classic-us", help="the edition of --growth")
    parser.add_argument("--sizes", default="10,100,1000,10000", help="the game counts of --growth")
    parser.add_argument("--first", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "peer":
        print(json.dumps(_peer_child(args.peer, args.seconds, args.first)))
        return 0
    if args.child in RULES_OF.values():
        print(json.dumps(_rules_child(args.seconds)))
        return 0
    if args.child:
        print(json.dumps(_ours_child(args.seconds, args.first, args.check)))
        return 0
    if args.growth:
        return growth(args.edition, [int(n) for n in args.sizes.split(",")])
    if args.peer is None and os.environ.get("BOARDBANK_PEER"):
        args.peer = Path(os.environ["BOARDBANK_PEER"])
    if args.peer is None:  # (make bench runs every bench without arguments: say how, and go on)
        print("bench_sim_peer: skipped: it needs a checkout of gamescomputersplay/monopoly at 7c4df31, as its "
              "argument or in $BOARDBANK_PEER (or --growth alone)")
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
    kinds = ["peer", "pure", "every", *(["fast"] if fast else []), "rules", *(["fast-rules"] if fast else [])]
    totals = {k: [0, 0.0] for k in kinds}
    peer_first, our_first, compared = 1, 1, 0
    for rnd in range(1, args.rounds + 1):
        results = {}
        for kind in kinds:
            results[kind] = _child(kind, args, peer_first if kind == "peer" else our_first, fast)
            totals[kind][0] += results[kind]["rolls"]
            totals[kind][1] += results[kind]["seconds"]
        ours = [k for k in kinds[1:] if k not in RULES_OF.values()]
        common = min(len(results[k]["digests"]) for k in ours)
        for kind in ours[1:]:  # the same seeds, the same games: checked or not, compiled or not
            if results[kind]["digests"][:common] != results["pure"]["digests"][:common]:
                raise SystemExit(f"round {rnd}: {kind} played different games from the same seeds as pure")
        compared += common * BATCH
        peer_first = results["peer"]["next"]
        our_first += max(len(results[k]["digests"]) for k in ours)
        line = ", ".join(f"{k} {results[k]['rolls'] / results[k]['seconds']:,.0f}"
                         f" ({results[k]['rolls'] / results[k]['wall']:,.0f} wall)" for k in kinds)
        print(f"round {rnd} (rolls per CPU second): {line}", flush=True)
    rate = {k: totals[k][0] / totals[k][1] for k in kinds}
    names = {"pure": "plain Python, --check end", "every": "plain Python, --check every",
             "fast": "compiled (make fast), --check end"}
    print(f"totals in rolls per CPU second ({args.rounds} alternating rounds): peer {rate['peer']:,.0f}")
    for kind in ours:
        ratio, goal = rate[kind] / rate["peer"], GOALS[kind]
        print(f"  ours {names[kind]:<44} {rate[kind]:>9,.0f}  ratio {ratio:.2f}  goal >= {goal}  "
              f"{'ok' if ratio >= goal else 'BELOW'}")
    print(f"{compared} games played by each of ours ({', '.join(ours)}), identical")
    _budget(rate, [k for k in ("pure", "fast") if k in ours])
    return 0


def _budget(rate: dict[str, float], runs: list[str]) -> None:
    """Print the rules alone next to each run's goal, and what the goal leaves for the simulator and its
    bots per roll (the goal's time per roll less the rules' own), against what they take now."""
    print(f"the rules alone, the same commands applied again without the simulator ({RULES_BATCHES * BATCH} "
          "games, rolls per CPU second), and what each goal leaves the simulator and its bots, per roll:")
    for kind in runs:
        rules = rate[RULES_OF[kind]]
        goal_us = 1e6 / (GOALS[kind] * rate["peer"])  # the goal's whole time per roll
        rules_us, now_us = 1e6 / rules, 1e6 / rate[kind]
        left = goal_us - rules_us
        print(f"  {kind:<5} rules alone {rules:>9,.0f}  ratio {rules / rate['peer']:.2f}; a roll may take "
              f"{goal_us:.2f} us, the rules take {rules_us:.2f} us: "
              + (f"{left:.2f} us left for the simulator, which takes {now_us - rules_us:.2f} us now"
                 if left > 0 else "nothing left for the simulator, the rules alone miss the goal"))


def growth(edition: str, sizes: list[int]) -> int:
    """Print CPU time per game and peak RSS of ``boardbank sim --check end`` for each run size."""
    code = ("import contextlib, io, json, sys, time\n"
            "from ui.cli.console import main\n"
            "t = time.process_time()\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()):\n"
            "    main(sys.argv[1:])\n"
            "cpu = time.process_time() - t\n"
            "rss = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
            "report = json.loads(out.getvalue())\n"
            "print(json.dumps({'cpu': cpu, 'rss_kib': rss, 'games': report['games'], 'turns': report['turns']}))\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    print(f"boardbank sim --edition {edition} --check end, one process per run (CPU s per game, peak RSS)")
    rows = []
    for n in sizes:
        done = subprocess.run([sys.executable, "-c", code, "sim", "--edition", edition, "--games", str(n),
                               "--check", "end", "--json"], env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"sim of {n} games failed:\n{done.stderr[-2000:]}")
        got = json.loads(done.stdout.strip().splitlines()[-1])
        per_turn = got["cpu"] / (n * got["turns"]) * 1e6 if got["turns"] else 0.0
        rows.append((n, per_turn, got["rss_kib"] / 1024))
        print(f"  {n:>6,} games: {got['cpu'] / n * 1000:7.2f} ms per game (mean {got['turns']:.1f} turns, "
              f"{per_turn:5.1f} us per turn), peak RSS {got['rss_kib'] / 1024:6.1f} MiB", flush=True)
    if len(rows) > 1:
        big, small = rows[-1], rows[1] if len(rows) > 2 else rows[0]
        print(f"  {big[0]:,} games / {small[0]:,} games: time per turn x{big[1] / small[1]:.2f}, "
              f"peak RSS x{big[2] / small[2]:.2f} (flat: about 1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
