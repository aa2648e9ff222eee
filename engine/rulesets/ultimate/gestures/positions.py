"""The unit keeps the tokens (Ultimate Banking, option ``positions``; docs/flows.md "The unit keeps the
tokens"): the dice, then what the landing asks for.

In IDLE the player who rolls enters the two dice on the pad or lets the unit roll: the pad's handlers are
shared by both rulesets (engine/banker/gestures/dice.py), and :func:`take_roll_landing` here keeps the deed
the roll reached as the landing. One ``RollDice`` follows; ``settle`` then goes straight to what the landing
asks for, with the lander known: BUY for an unowned deed (✓ or decline), DEED for an owned one (the
lander's card pays the rent or raises their own), ACTION "draw" on an Event space (the lander's card draws
from the virtual deck, or a physical event card), LOCATION on a Location space (the deed to jump to; X
stays). Another player's card is refused (``error.wrong_player``), a deed or event card out of place is
``error.busy``; nothing changes.
"""

from __future__ import annotations

from transitions import EventData

from engine.banker.binding import gesture_command
from engine.banker.context import Context, Gesture, input_value
from engine.events import DiceRolled
from engine.rulesets.ultimate import commands as uc


def take_roll_landing(ctx: Context, event: EventData) -> None:
    """After the pad's ``RollDice`` (engine/banker/gestures/dice.py): a deed the roll reached is the landing
    to resolve, with the lander known (the engine's ``GameState.landing`` of this command)."""
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


can_draw_landed, do_draw_landed = gesture_command(_landed_draw, __name__)
