"""The unit keeps the tokens (Ultimate Banking, option ``positions``; docs/flows.md "The unit keeps the
tokens"): the dice, then what the landing asks for.

In IDLE the player who rolls enters the two dice on the pad (``choose 3``, ``choose 4``: two inputs) or lets
the unit roll (``choose roll``: two dice from a ``random.Random`` seeded by the banker's injected seed
source, the game and its event count; the dice go into the command, so a replay is exact). One
``RollDice`` follows; ``settle`` then goes straight to what the landing asks for, with the lander known:
BUY for an unowned deed (✓ or decline), DEED for an owned one (the lander's card pays the rent or raises
their own), ACTION "draw" on an Event space (the lander's card draws from the virtual deck, or a physical
event card), LOCATION on a Location space (the deed to jump to; X stays). Another player's card is
refused (``error.wrong_player``), a deed or event card out of place is ``error.busy``; nothing changes.
"""

from __future__ import annotations

import random

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Gesture, Refusal, input_value
from engine.events import DiceRolled
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate.moves import roller

DIGITS = ("1", "2", "3", "4", "5", "6")


def positions_on(ctx: Context, event: EventData) -> bool:
    """A game in play where the unit keeps the tokens."""
    return ctx.durable is not None and ctx.st().options.positions and ctx.st().phase == "play"


def _dice_answer(ctx: Context, event: EventData) -> str | None:
    """``"partial"`` (the first die), ``"complete"`` (the second die, or ``roll``) or None (refused)."""
    value = str(input_value(event) or "").strip().lower()
    held = len(ctx.gesture.choices)
    if value in DIGITS:
        return "partial" if held == 0 else "complete"
    if value == "roll" and held == 0:
        return "complete"
    if not ctx.probing:
        ctx.refusal = Refusal("error.bad_die", {"value": value})
    return None


def die_partial(ctx: Context, event: EventData) -> bool:
    return ctx.probing or (positions_on(ctx, event) and _dice_answer(ctx, event) == "partial")


def add_die(ctx: Context, event: EventData) -> None:
    ctx.gesture.choices = [int(str(input_value(event)).strip())]


def dice_complete(ctx: Context, event: EventData) -> bool:
    return ctx.probing or (positions_on(ctx, event) and _dice_answer(ctx, event) == "complete")


def _dice(ctx: Context, event: EventData) -> tuple[int, int]:
    """The two dice of this input: the one held and the one entered now, or the unit's own roll."""
    value = str(input_value(event) or "").strip().lower()
    if value in DIGITS:
        return int(ctx.gesture.choices[0]), int(value)
    assert ctx.durable is not None
    rng = random.Random(f"{ctx.seed_source()}:{ctx.durable.game_id}:{len(ctx.durable.game.events)}")
    return 1 + rng.randrange(6), 1 + rng.randrange(6)


def can_roll(ctx: Context, event: EventData) -> bool:
    if ctx.probing:
        return True
    d1, d2 = _dice(ctx, event)
    ctx.gesture.choices = [d1, d2]  # the unit's roll is made once: the command below carries these dice
    if ctx.allowed(c.RollDice(roller(ctx.st()), d1, d2)):
        return True
    ctx.gesture.choices = []
    return False


def do_roll(ctx: Context, event: EventData) -> None:
    d1, d2 = (int(d) for d in ctx.gesture.choices)
    ctx.apply(c.RollDice(roller(ctx.st()), d1, d2))
    st = ctx.st()
    if st.landing is not None and ctx.events and st.landing[2] == ctx.events[-1].command:
        ctx.landing = (st.landing[0], st.landing[1])


# -- the landing on a space without a deed (``settle`` in play) -------------------------------------------


def _landed(ctx: Context, kind: str) -> str | None:
    """The player whose roll of this input ended on a space of ``kind`` (free, in play), or None."""
    if ctx.durable is None or ctx.landing is not None:
        return None
    rolled = [e for e in ctx.events if isinstance(e, DiceRolled)]
    if not rolled:
        return None
    player = rolled[-1].player
    st = ctx.st()
    if st.phase != "play" or player in st.jail or player in st.bankrupt:
        return None
    at = st.position.get(player, 0)
    return player if ctx.durable.game.edition.spaces[at].kind == kind else None


def landed_event(ctx: Context, event: EventData) -> bool:
    return _landed(ctx, "event") is not None


def start_draw(ctx: Context, event: EventData) -> None:
    ctx.gesture = Gesture(player=_landed(ctx, "event"), action="draw")


def landed_location(ctx: Context, event: EventData) -> bool:
    return _landed(ctx, "location") is not None


def start_location(ctx: Context, event: EventData) -> None:
    ctx.gesture = Gesture(player=_landed(ctx, "location"), action="location")


def origin_of(ctx: Context, player: str, kind: str) -> int | None:
    """The board position of ``player``'s token if it stands on a space of ``kind`` (positions mode)."""
    if ctx.durable is None or not ctx.st().options.positions:
        return None
    at = ctx.st().position.get(player)
    return at if at is not None and ctx.durable.game.edition.spaces[at].kind == kind else None


def action_is_draw(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.action == "draw" and ctx.gesture.player is not None


def _landed_draw(ctx: Context, event: EventData) -> uc.DrawEvent | None:
    player = ctx.gesture.player
    card = input_value(event)
    if player is None or card is None:
        return None
    return uc.DrawEvent(player, int(card), origin_of(ctx, player, "event"))


def can_draw_landed(ctx: Context, event: EventData) -> bool:
    cmd = _landed_draw(ctx, event)
    return ctx.probing if cmd is None else ctx.allowed(cmd)


def do_draw_landed(ctx: Context, event: EventData) -> None:
    cmd = _landed_draw(ctx, event)
    assert cmd is not None
    ctx.apply(cmd)
