"""The classic rule presets and options against the default game (a script that prints numbers; not a test).

For each preset of engine/rulesets/classic/options.py (``PRESETS``) and each option of the seeds' remaining
rules, bots play ``--games`` classic games (as ``boardbank sim --edition classic-us --check end --option
NAME=on``, the same seeds for every variant) and one line is printed: games completed, capped games (%),
invariant violations, the mean game length in turns and its change against the default options, and the
winners by seat. The acceptance of docs/rules-classic.md 13: 0 violations, under 3 % capped.
Usage: ``python bench/bench_classic_presets.py [--games N] [--seed S] [--edition ID] [--only NAME ...]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.editions import load_edition
from engine.rulesets.classic.options import PRESETS
from engine.sim.runner import SimReport, run_sim

VARIANTS: dict[str, dict[str, object]] = {
    "default": {},
    **{name: {name: True} for name in PRESETS},
    "deal_all_lots": {"deal_all_lots": True},
    "pay_debt_with_deeds=off": {"pay_debt_with_deeds": False},
    "bank_pays_creditor": {"bank_pays_creditor": True},
    "one_house_per_set": {"one_house_per_set": True},
    "mortgaged_set_double_rent=off": {"mortgaged_set_double_rent": False},
    "sell_mortgaged=off": {"sell_mortgaged": False},
    "lift_at_full_value": {"lift_at_full_value": True},
}
"""Variant name -> the options it starts the games with."""


def line(name: str, r: SimReport, base: float | None) -> str:
    capped = 100.0 * r.capped / r.games if r.games else 0.0
    change = "" if base is None or not base else f" ({100.0 * (r.turns - base) / base:+.1f} % vs default)"
    status = "ok" if r.invariant_violations == 0 and capped < 3.0 else "FAIL"
    return (f"{name:32} completed {r.completed}/{r.games}, capped {r.capped} ({capped:.1f} %), violations "
            f"{r.invariant_violations}, mean turns {r.turns:.1f}{change}, winners {r.winners}, {r.seconds:.1f} s "
            f"[{status}]")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--edition", default="classic-us")
    parser.add_argument("--only", nargs="*", default=None, help="variant names (default: all)")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    names = ["default", *(n for n in VARIANTS if n != "default" and (args.only is None or n in args.only))]
    base: float | None = None
    failed = False
    for name in names:
        r = run_sim(edition, 4, args.games, args.seed, options=VARIANTS[name], check_invariants=False,
                    check_end=True, clock=time.perf_counter)
        print(line(name, r, base), flush=True)
        failed = failed or r.invariant_violations > 0 or r.capped * 100 >= 3 * r.games
        if name == "default":
            base = r.turns
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
