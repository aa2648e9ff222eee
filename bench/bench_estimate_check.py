"""Estimate check (a script that prints numbers; not a test): the setup screen's estimates against
``boardbank sim --compare`` runs of 1,000 games.

For the classic presets (``second_text``, ``standard_text``, ``online_edition``) and three options
(``free_parking_jackpot=on``, ``time_limit=60``, ``start_money=2000``) of one edition (default classic-uk,
4 players): the estimate as the setup screen gets it (ui/estimates.py's background worker with its budget,
``BUDGET_S`` seconds; seed 1), then one ``boardbank sim --games 1000 --compare ... --json`` run on other
seeds (``--sim-seed``, default 2: independent games, not the estimate's own). For each variant and measure
(the length in turns, the first player's wins in points, the money on the table at the end) it prints the
estimate's difference with its 95 % interval, the 1,000-game run's difference with its interval, and whether
the run's figure is inside the estimate's interval (``inside``), whether the two figures agree within the 95 %
interval of their difference (``agree``: ``|a - b| <= 1.96 * sqrt(sa**2 + sb**2)``, the fair test for two
independent runs: the run's own figure has its own spread, so it falls inside the estimate's interval only
about 83 % of the time when both are right), and whether the screen would say the same (``same``: both
clear in the same direction, or both not clear); then the effect lines the screen shows in en, ru and ja, and the time from request to answer.
Usage: ``python bench/bench_estimate_check.py [--games 1000] [--edition classic-uk] [--players 4]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.sim.compare import Estimate
from ui.estimate_text import effect_lines
from ui.estimates import BUDGET_S, Estimates
from ui.i18n import Translator

VARIANTS: dict[str, dict[str, int | bool]] = {
    "second_text=on": {"second_text": True}, "standard_text=on": {"standard_text": True},
    "online_edition=on": {"online_edition": True}, "free_parking_jackpot=on": {"free_parking_jackpot": True},
    "time_limit=60": {"time_limit": 60}, "start_money=2000": {"start_money": 2000},
}
"""The presets and three options checked: ``--compare`` text -> the screen's option set."""
CHECKED = {"turns": 1.0, "first_wins": 100.0, "money": 1.0}
"""The measures the screen says, and the factor shown (shares in percentage points)."""


def sim_run(edition: str, players: int, games: int, seed: int, variants: list[str]) -> dict[str, dict]:
    """One ``boardbank sim --compare`` run: each variant's JSON object by label."""
    argv = [sys.executable, "-m", "ui.cli", "sim", "--edition", edition, "--players", str(players),
            "--games", str(games), "--seed", str(seed), "--json", "--compare", *variants]
    out = subprocess.run(argv, check=True, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout
    return {v["label"]: v for v in json.loads(out)["variants"]}


def verdict(value: float, low: float, high: float) -> int:
    """What the screen says of a difference: +1 or -1 when clear (its interval excludes 0), else 0."""
    return (1 if value > 0 else -1) if low > 0 or high < 0 else 0


def check(estimate: Estimate, run: dict) -> list[tuple[str, float, float, float, float, float, float, bool, bool,
                                                        bool]]:
    """Per measure: the estimate's difference (value, low, high), the run's, whether the run's figure is
    inside the estimate's interval, whether the two agree (module doc) and whether the screen's verdict is the
    same."""
    rows = []
    for measure, factor in CHECKED.items():
        d = estimate.effects[measure].diff
        r = run[measure]["diff"]
        inside = d.low <= r["value"] <= d.high
        agree = abs(d.value - r["value"]) <= (d.half ** 2 + ((r["high"] - r["low"]) / 2) ** 2) ** 0.5
        same = verdict(d.value, d.low, d.high) == verdict(r["value"], r["low"], r["high"])
        rows.append((measure, factor * d.value, factor * d.low, factor * d.high, factor * r["value"],
                     factor * r["low"], factor * r["high"], inside, agree, same))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games of the sim run (default 1000)")
    parser.add_argument("--edition", default="classic-uk")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sim-seed", type=int, default=2, help="the sim run's seed (the estimate's is 1)")
    parser.add_argument("--budget", type=float, default=BUDGET_S, help="seconds per estimate (the screen's)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as cache:
        estimates = Estimates(Path(cache), budget_s=args.budget)
        start = time.perf_counter()
        arrived: dict[str, tuple[Estimate, float]] = {}
        asked = {}
        for label, options in VARIANTS.items():
            t0 = time.perf_counter()
            estimates.request(args.edition, args.players, options)
            asked[label] = time.perf_counter() - t0
        keys = {estimates.key(args.edition, args.players, o): label for label, o in VARIANTS.items()}
        while len(arrived) < len(VARIANTS):
            for e in estimates.poll():
                label = keys[estimates.key(e.edition, e.players, e.options)]
                arrived[label] = (e, time.perf_counter() - start)
            time.sleep(0.1)
        estimates.close()
    print(f"estimates ({args.edition}, {args.players} players, budget {args.budget:g} s each, one worker): "
          f"request on the caller {', '.join(f'{1000 * s:.1f}' for s in asked.values())} ms")
    t0 = time.perf_counter()
    runs = sim_run(args.edition, args.players, args.games, args.sim_seed, list(VARIANTS))
    print(f"boardbank sim --games {args.games} --seed {args.sim_seed}: {time.perf_counter() - t0:.0f} s "
          f"for the baseline and {len(VARIANTS)} variants\n")
    print(f"{'variant':24} {'measure':10} {'estimate (games)':>32} {'sim ' + str(args.games):>28}  "
          "inside agree same")
    inside_count = agree_count = same_count = total = 0
    previous = 0.0
    for label in VARIANTS:
        estimate, at = arrived[label]
        for measure, v, lo, hi, rv, rlo, rhi, inside, agree, same in check(estimate, runs[label]):
            total += 1
            inside_count += inside
            agree_count += agree
            same_count += same
            shown = f"{v:+.1f} [{lo:+.1f}, {hi:+.1f}] ({estimate.games})"
            print(f"{label:24} {measure:10} {shown:>32} {f'{rv:+.1f} [{rlo:+.1f}, {rhi:+.1f}]':>28}  "
                  f"{'yes' if inside else 'NO':6} {'yes' if agree else 'NO':5} {'yes' if same else 'NO'}")
        print(f"{'':24} answered after {at - previous:.1f} s")
        previous = at
    print(f"\nthe {args.games}-game figure inside the estimate's 95 % interval: {inside_count} of {total}; "
          f"the two agree within their difference's interval: {agree_count} of {total}; "
          f"the screen would say the same: {same_count} of {total}\n")
    tr = Translator("en")
    for label in VARIANTS:
        estimate = arrived[label][0]
        for lang in ("en", "ru", "ja"):
            print(f"{label:24} {lang}: {' · '.join(effect_lines(estimate, tr, lang))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
