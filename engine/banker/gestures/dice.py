"""The dice pad, alike in every ruleset when the unit keeps the tokens (option ``positions``; docs/flows.md
"The unit keeps the tokens"): two touches on the 1..6 pad, or Roll, then one ``RollDice``.

In IDLE the player who rolls enters the two dice (``choose 3``, ``choose 4``: two inputs, the first held in
the gesture) or lets the unit roll (``choose roll``: two dice from a ``random.Random`` seeded by the banker's
injected seed source, the game and its event count; the dice go into the command, so a replay is exact). A
pad answer that is not 1..6 or ``roll`` is ``error.bad_die`` and changes nothing; X (or the gesture timeout)
clears a first die held. What the landing asks for
after the roll (the ``settle`` rows) stays in each ruleset's plug-in. These handlers read only what both
rulesets' states share (the phase, ``options.positions``, the turn and its last roll) and send the shared
``RollDice``; the roller is the view's (:func:`engine.banker.view.roller_of`), so the player the screen asks
to roll is the one whose dice are sent.
"""

from __future__ import annotations

import random

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Refusal, input_value
from engine.banker.view import roller_of

DIGITS = ("1", "2", "3", "4", "5", "6")
"""The pad's answers for one die (pips)."""


def _pad_open(ctx: Context) -> bool:
    """A game in play where the unit keeps the tokens."""
    if ctx.durable is None:
        return False
    st = ctx.st()
    return bool(getattr(st.options, "positions", False)) and st.phase == "play"


def _dice_answer(ctx: Context, event: EventData) -> str | None:
    """``"partial"`` (the first die), ``"complete"`` (the second die, or ``roll``) or None (refused with
    ``error.bad_die`` and the answer, at most 40 characters of it, unless probing)."""
    value = str(input_value(event) or "").strip().lower()
    held = len(ctx.gesture.choices)
    if value in DIGITS:
        return "partial" if held == 0 else "complete"
    if value == "roll" and held == 0:
        return "complete"
    if not ctx.probing:
        ctx.refusal = Refusal("error.bad_die", {"value": value[:40]})
    return None


def die_partial(ctx: Context, event: EventData) -> bool:
    """The answer is the first die."""
    return ctx.probing or (_pad_open(ctx) and _dice_answer(ctx, event) == "partial")


def add_die(ctx: Context, event: EventData) -> None:
    """Hold the first die (pips) until the second."""
    ctx.gesture.choices = [int(str(input_value(event)).strip())]


def die_held(ctx: Context, event: EventData) -> bool:
    """A first die is held (X clears it, and so does the gesture timeout: a mistyped die is never stuck)."""
    return bool(ctx.gesture.choices) and _pad_open(ctx)


def clear_die(ctx: Context, event: EventData) -> None:
    """Forget the first die held: the pad asks for the first die again."""
    ctx.gesture.choices = []


def dice_complete(ctx: Context, event: EventData) -> bool:
    """The answer completes the roll: the second die, or ``roll``."""
    return ctx.probing or (_pad_open(ctx) and _dice_answer(ctx, event) == "complete")


def _dice(ctx: Context, event: EventData) -> tuple[int, int]:
    """The two dice (pips) of this input: the one held and the one entered now, or the unit's own roll."""
    value = str(input_value(event) or "").strip().lower()
    if value in DIGITS:
        return int(ctx.gesture.choices[0]), int(value)
    assert ctx.durable is not None
    rng = random.Random(f"{ctx.seed_source()}:{ctx.durable.game_id}:{len(ctx.durable.game.events)}")
    return 1 + rng.randrange(6), 1 + rng.randrange(6)


def _roll(ctx: Context) -> c.RollDice:
    """The roll of the dice held in the gesture, by the player who rolls now."""
    d1, d2 = (int(d) for d in ctx.gesture.choices)
    return c.RollDice(roller_of(ctx.st()) or "", d1, d2)


def can_roll(ctx: Context, event: EventData) -> bool:
    """The engine would take this roll; the unit's own roll is made once here and held in the gesture, so
    the command sent carries the very dice checked."""
    if ctx.probing:
        return True
    ctx.gesture.choices = list(_dice(ctx, event))
    if ctx.allowed(_roll(ctx)):
        return True
    ctx.gesture.choices = []
    return False


def do_roll(ctx: Context, event: EventData) -> None:
    """Send the ``RollDice`` of the dice held."""
    ctx.apply(_roll(ctx))
