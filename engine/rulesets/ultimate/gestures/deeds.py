"""Deeds and landings (Ultimate Banking): check a deed, then the lander's card decides — buy it or decline
it (the auction opens), land on your own (level +1), pay rent; and the landing after a jump (Location, a
move card), which ``settle`` starts with the lander already known."""

from __future__ import annotations

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Gesture, Refusal, input_value
from engine.banker.setup import player_id, seat_of
from engine.rulesets.ultimate import commands as uc


def pick_deed(ctx: Context, event: EventData) -> None:
    ctx.gesture.deed = int(input_value(event))


def pick_player(ctx: Context, event: EventData) -> None:
    ctx.gesture.player = player_id(int(input_value(event)))


def is_lander(ctx: Context, event: EventData) -> bool:
    """After a Location or a move card the lander is known: only their card completes the landing."""
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
    pair = ctx.pair(event)
    if pair is None:
        return ctx.probing
    if ctx.durable is not None and ctx.durable.game.check(c.DeclineDeed(*pair)) is None:
        return True
    return ctx.allowed(c.BuyDeed(*pair))


def can_buy(ctx: Context, event: EventData) -> bool:
    pair = ctx.pair(event)
    return ctx.probing if pair is None else ctx.allowed(c.BuyDeed(*pair))


def do_buy(ctx: Context, event: EventData) -> None:
    ctx.apply(c.BuyDeed(*ctx.require_pair(event)))


def can_decline(ctx: Context, event: EventData) -> bool:
    pair = ctx.pair(event)
    return ctx.probing if pair is None else ctx.allowed(c.DeclineDeed(*pair))


def do_decline(ctx: Context, event: EventData) -> None:
    ctx.apply(c.DeclineDeed(*ctx.require_pair(event)))


def can_land_own(ctx: Context, event: EventData) -> bool:
    pair = ctx.pair(event)
    return ctx.probing if pair is None else ctx.allowed(uc.LandOnOwn(*pair))


def do_land_own(ctx: Context, event: EventData) -> None:
    ctx.apply(uc.LandOnOwn(*ctx.require_pair(event)))


def can_pay_rent(ctx: Context, event: EventData) -> bool:
    pair = ctx.pair(event)
    return ctx.probing if pair is None else ctx.allowed(c.PayRent(*pair))


def do_pay_rent(ctx: Context, event: EventData) -> None:
    ctx.apply(c.PayRent(*ctx.require_pair(event)))


# -- the landing after a jump (``settle`` in play) ------------------------------------------------------


def landing_unowned(ctx: Context, event: EventData) -> bool:
    return ctx.landing is not None and ctx.owner(ctx.landing[1]) is None


def landing_owned(ctx: Context, event: EventData) -> bool:
    return ctx.landing is not None and ctx.owner(ctx.landing[1]) is not None


def start_landing(ctx: Context, event: EventData) -> None:
    assert ctx.landing is not None
    ctx.gesture = Gesture(player=ctx.landing[0], deed=ctx.landing[1])
    ctx.landing = None
