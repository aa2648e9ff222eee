"""Deeds and landings (Ultimate Banking): check a deed, then the lander's card decides — buy it or decline
it (the auction opens), land on your own (level +1), pay rent; and the landing after a jump (Location, a
move card), which ``settle`` starts with the lander already known."""

from __future__ import annotations

from collections.abc import Iterable

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Gesture, Refusal, input_value
from engine.banker.setup import player_id, seat_of
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate.events import EventResolved, LocationUsed


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
    """BUY or DEED for the landing after a jump, with the lander known. A Location's fee and jump are one
    gesture with this landing (docs/rules.md 1.10: using a Location is optional): X undoes the fee and the
    jump (:func:`engine.banker.gestures.common.cancel_undoes`); a move card's landing is owed by the rules: X
    is refused (``error.finish_landing``). The timeout waits in both. A roll's landing (the unit keeps the
    tokens) moved no money of its own: X leaves it unresolved, as before."""
    assert ctx.landing is not None
    ctx.gesture = landing_gesture(ctx, ctx.landing[0], ctx.landing[1], ctx.events)
    ctx.landing = None


def landing_gesture(ctx: Context, player: str, deed: int, events: Iterable[object]) -> Gesture:
    """The gesture of a landing after a jump by ``player`` to ``deed``; ``events``: the jump's command's."""
    kinds = {type(e) for e in events}
    if LocationUsed in kinds:
        return Gesture(player=player, deed=deed, undo=1, undo_seq=ctx.last_seq)
    if EventResolved in kinds:
        return Gesture(player=player, deed=deed, finish="error.finish_landing")
    return Gesture(player=player, deed=deed)  # a roll's landing: X leaves it unresolved (docs/flows.md)
