"""A deed's landing at the table, the same gesture in every ruleset (docs/flows.md): a deed card and the card
of the player who landed there, in either order; then the lander buys the deed or declines it (the auction
opens), or pays another owner's rent. What the lander's card does on their own deed (Ultimate Banking's
level +1, the classic mortgage), a utility's dice and what a jump or a roll leaves to resolve are each
ruleset's gestures (its banker plug-in); the engine decides whether each command is allowed.

When the lander is already known (after a roll, a Location or a card's move) only their card answers:
another player's card is refused (``error.wrong_player``) and nothing changes.
"""

from __future__ import annotations

from transitions import EventData

from engine import commands as c
from engine.banker.binding import deed_command
from engine.banker.context import Context, Refusal, input_value
from engine.banker.setup import player_id, seat_of


def pick_deed(ctx: Context, event: EventData) -> None:
    ctx.gesture.deed = int(input_value(event))


def pick_player(ctx: Context, event: EventData) -> None:
    ctx.gesture.player = player_id(int(input_value(event)))


def is_lander(ctx: Context, event: EventData) -> bool:
    """Once the lander is known (a roll, a Location, a card's move), only their card answers the square."""
    expected, tapped = ctx.gesture.player, ctx.input_player(event)
    if expected is None or tapped is None or tapped == expected:
        return True
    ctx.refusal = Refusal("error.wrong_player", {"expected": seat_of(expected), "seat": seat_of(tapped)})
    return False


def deed_unowned(ctx: Context, event: EventData) -> bool:
    deed = ctx.input_deed(event)
    return deed is not None and ctx.durable is not None and ctx.owner(deed) is None


def deed_own(ctx: Context, event: EventData) -> bool:
    owner = ctx.owner(ctx.input_deed(event))
    return owner is not None and owner == ctx.input_player(event)


def deed_other(ctx: Context, event: EventData) -> bool:
    owner = ctx.owner(ctx.input_deed(event))
    player = ctx.input_player(event)
    return owner is not None and (player is None or owner != player)


def can_consider_buy(ctx: Context, event: EventData) -> bool:
    """The lander may buy the deed or decline it (either is enough to ask: a player short of cash declines)."""
    pair = ctx.pair(event)
    if pair is None:
        return ctx.probing
    if ctx.durable is not None and ctx.durable.game.check(c.DeclineDeed(*pair)) is None:
        return True
    return ctx.allowed(c.BuyDeed(*pair))


can_buy, do_buy = deed_command(c.BuyDeed, __name__)


can_decline, do_decline = deed_command(c.DeclineDeed, __name__)


can_pay_rent, do_pay_rent = deed_command(c.PayRent, __name__)
