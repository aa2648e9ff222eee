"""The words of an estimate (ui/estimates.py) in the UI's languages, through the catalogs (``effect.*`` keys).

Only differences that are clear at 95 % are said (their interval excludes 0, engine/sim/stats.py); a change
that rounds to nothing is not said either. Numbers: turns as a signed whole number ("+12 turns"), length in
whole percent of the defaults' ("games 20 % longer"), the first player's wins in percentage points ("3 points
more often"), money through ``money`` (default: the plain number of money units; the screen passes its own
formatting, e.g. ui.money.format_money).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.sim.compare import Estimate
from ui.i18n import Translator
from ui.money import MINUS

Money = Callable[[int], str]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def turns_text(estimate: Estimate, tr: Translator, lang: str) -> str | None:
    """``+12 turns`` (the mean turns' change), or None when it is not clear or rounds to 0."""
    diff = estimate.effects["turns"].diff
    turns = round(diff.value)
    if not diff.excludes_zero() or turns == 0:
        return None
    key = "effect.turns_one" if abs(turns) == 1 else "effect.turns"
    return tr.text(key, lang, turns=_signed(turns))


def effect_lines(estimate: Estimate, tr: Translator, lang: str, money: Money = str) -> list[str]:
    """What the option set does, one short line per clear effect: length, the first player's wins, money at
    the end; ``["no clear change"]`` when nothing is clear."""
    lines: list[str] = []
    turns = estimate.effects["turns"]
    percent = round(turns.percent or 0.0)
    if turns.diff.excludes_zero() and percent:
        key = "effect.longer" if percent > 0 else "effect.shorter"
        lines.append(tr.text(key, lang, percent=abs(percent)))
    first = estimate.effects["first_wins"].diff
    points = round(100 * first.value)
    if first.excludes_zero() and points:
        key = "effect.first_more" if points > 0 else "effect.first_less"
        lines.append(tr.text(key, lang, points=abs(points)))
    cash = estimate.effects["money"].diff
    amount = round(cash.value)
    if cash.excludes_zero() and amount:
        key = "effect.money_more" if amount > 0 else "effect.money_less"
        lines.append(tr.text(key, lang, amount=money(abs(amount))))
    return lines or [tr.text("effect.no_change", lang)]


def pending_text(tr: Translator, lang: str) -> str:
    """What the screen shows while an estimate is being computed."""
    return tr.text("effect.pending", lang)
