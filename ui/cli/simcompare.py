"""``boardbank sim --compare OPTION=VALUE [...]``: the baseline and each variant on the same seeds, side by side.

The baseline is the edition's defaults with the ``--option`` values; each ``--compare`` item is one variant
(``NAME=VALUE``, or several joined by commas: ``start_money=2000,go_salary=100``) over the baseline. Every
arm plays the same ``--games`` seeds (engine/sim/compare.py), so the differences are paired and their 95 %
intervals tight. Printed per measure: each arm's mean with its interval, then each variant against the
baseline in words. Amounts are ``int`` in the edition's money unit; shares in percent.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.editions import load_edition
from engine.errors import EngineError
from engine.options import parse_option_text
from engine.sim.compare import MEASURES, SHARES, Arm, compare, effects
from engine.sim.stats import Interval
from ui.cli.progress import progress_bar

LABELS = {"turns": "turns to finish", "first_wins": "first player wins", "money": "money on the table",
          "capped": "capped games"}
TIMED_LABEL = "length (turns)"  # with the classic time_limit option


EXIT_BAD_INPUT = 2


def _fail(message: str) -> int:
    print(f"boardbank {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def parse_variant(text: str) -> dict[str, int | bool]:
    """``NAME=VALUE[,NAME=VALUE...]`` into typed options (raises ``OptionError`` on a malformed item)."""
    return dict(parse_option_text(part) for part in text.split(","))


def _arm_text(measure: str, interval: Interval) -> str:
    if measure in SHARES:
        return f"{100 * interval.value:.1f} % [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"
    return f"{interval.value:.1f} ± {interval.half:.1f}"


def difference_text(measure: str, diff: Interval, percent: float | None) -> str:
    """The difference of one measure in words: ``+12 turns (+5 %) ± 3``, ``-2.5 points ± 1.1`` (a share),
    ``+310 money (+12 %) ± 40``; ``(no clear difference)`` is added when the interval holds 0."""
    if measure in SHARES:
        text = f"{100 * diff.value:+.1f} points ± {100 * diff.half:.1f}"
    else:
        unit = "turns" if measure == "turns" else "money"
        rel = f" ({percent:+.0f} %)" if percent is not None else ""
        text = f"{diff.value:+.0f} {unit}{rel} ± {diff.half:.0f}"
    return text if diff.excludes_zero() else f"{text} (no clear difference)"


def _label(measure: str, base: dict[str, int | bool]) -> str:
    return TIMED_LABEL if measure == "turns" and base.get("time_limit") else LABELS[measure]


def compare_main(args: argparse.Namespace) -> int:
    """Run and print the comparison (``--json``: one object); 2 and one line for a wrong option or value."""
    try:
        edition = load_edition(args.edition)
        base = dict(parse_option_text(text) for text in args.option)
        variants = [parse_variant(text) for text in args.compare]
        arms = compare(edition, args.players, args.games, args.seed, base, variants,
                       turn_cap=getattr(args, "max_turns", None),
                       jail_strategy=getattr(args, "jail_strategy", "short"), progress=progress_bar(sys.stderr))
    except (EngineError, ValueError) as exc:
        return _fail(f"sim: {exc}")
    baseline, others = arms
    labels = ["baseline", *args.compare]
    if args.json:
        print(json.dumps(_as_json(edition.id, args, baseline, others, labels)))
        return 0
    print(f"edition {edition.id}, {args.players} players, {args.games} paired games (the same seeds), "
          f"seed {args.seed}, options {_options_text(base)}")
    width = max(28, *(len(label) + 2 for label in labels))
    print(f"{'':<20}" + "".join(f"{label:<{width}}" for label in labels))
    for m in MEASURES:
        cells = [_arm_text(m, arm.interval(m)) for arm in (baseline, *others)]
        print(f"{_label(m, base):<20}" + "".join(f"{cell:<{width}}" for cell in cells))
    for label, arm in zip(labels[1:], others, strict=True):
        print(f"{label} vs baseline (95 % intervals):")
        for m, e in effects(baseline, arm).items():
            print(f"  {_label(m, base)}: {difference_text(m, e.diff, e.percent)}")
    return 0


def _options_text(options: dict[str, int | bool]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "the defaults"


def _as_json(edition: str, args: argparse.Namespace, baseline: Arm, others: list[Arm],
             labels: list[str]) -> dict[str, object]:
    return {
        "edition": edition, "players": args.players, "games": args.games, "seed": args.seed,
        "baseline": {"options": baseline.options, **{m: baseline.interval(m).as_dict() for m in MEASURES}},
        "variants": [
            {"label": label, "options": arm.options,
             **{m: {**e.variant.as_dict(), "diff": e.diff.as_dict(),
                    "percent": None if e.percent is None else round(e.percent, 2)}
                for m, e in effects(baseline, arm).items()}}
            for label, arm in zip(labels[1:], others, strict=True)
        ],
    }
