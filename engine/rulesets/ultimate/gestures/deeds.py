"""Deeds and landings (Ultimate Banking): check a deed, then the lander's card decides — buy it or decline
it (the auction opens), land on your own (level +1), pay rent; and the landing after a jump (Location, a
move card), which ``settle`` starts with the lander already known. Picking the cards, the lander's card,
buying, declining and paying rent are every ruleset's (engine/banker/gestures/deeds.py); landing on your
own deed and the landing after a jump are Ultimate Banking's, here."""

from __future__ import annotations

from collections.abc import Iterable

from transitions import EventData

from engine.banker.binding import deed_command
from engine.banker.context import Context, Gesture
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate.events import EventResolved, LocationUsed

can_land_own, do_land_own = deed_command(uc.LandOnOwn, __name__)


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
