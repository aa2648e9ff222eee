"""The second text's turn limits (seed 000 l. 146, 155; seed 002 l. 71, 80): what the turn's player has done
this turn (``ClassicState.marks``) and the refusals of the rules that count it. Amounts in money units."""

from __future__ import annotations

from typing import Final

from engine.errors import Refusal, refuse
from engine.rulesets.classic.state import ClassicState

ROLLED: Final = "rolled"
RULE_WORDS: Final = {"build_before_roll": "houses only before rolling", "deals_before_roll": "deals only before rolling"}
"""How a refusal names the second text's rule (its key is the option's name)."""


def rolled(s: ClassicState) -> bool:
    """Whether the turn's player has rolled this turn (known with option ``positions``, or by a landing)."""
    return ROLLED in s.marks or (s.roll is not None and s.roll[0] == s.turn)


def option_off(option: str, what: str) -> Refusal:
    """The refusal of a command whose rule option this game does not have."""
    return refuse("option_off", f"{what}: this game does not have the rule {option}", command=what, option=option)


def before_roll_refusal(s: ClassicState, player: str, option: str, what: str) -> Refusal | None:
    """With ``option`` on: ``player`` must be the turn's player, who has not rolled yet (the second text)."""
    if player == s.turn and not rolled(s):
        return None
    text = f"{what}: {RULE_WORDS[option]}: only {s.turn}, before rolling (second text)"
    if option == "build_before_roll":
        return refuse("build_before_roll", text, command=what, player=player, turn=str(s.turn), option=option)
    return refuse("deals_before_roll", text, command=what, player=player, turn=str(s.turn), option=option)
