"""The auction (Ultimate Banking): bidders tap their cards and raise (20 or 100), every bid restarts the
countdown; when it ends the high bidder confirms by tapping their card, or nobody bid and it closes."""

from __future__ import annotations

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Refusal, input_value
from engine.banker.gestures.auction import bid_refused
from engine.numbers import parse_count


def _raise_of(ctx: Context, event: EventData) -> int | None:
    """The raise of ``press bid VALUE``: the option's step without a value, else a plain positive number
    (ASCII digits, :func:`engine.numbers.parse_count`); None (refused) for anything else: ``abc``, ``-100``,
    ``²``, ``0``. A tap's value is the bidder's seat, never a raise."""
    raise_by = input_value(event)
    if event.event.name != "press_bid" or raise_by is None:
        return int(ctx.st().options.auction_step)
    step = parse_count(raise_by)
    return step if step else None


def _bid_amount(ctx: Context, event: EventData) -> int:
    st = ctx.st()
    step = _raise_of(ctx, event)
    assert step is not None
    return (st.auction.high_bid if st.auction else 0) + step


def can_join_auction(ctx: Context, event: EventData) -> bool:
    pid = ctx.input_player(event)
    if pid is None:
        return ctx.probing
    return ctx.allowed(c.PlaceBid(pid, _bid_amount(ctx, event))) or bid_refused(ctx)


def can_bid(ctx: Context, event: EventData) -> bool:
    if ctx.gesture.player is None:
        if not ctx.probing:
            ctx.refusal = Refusal("error.tap_bidder_first")
        return ctx.probing
    if _raise_of(ctx, event) is None:
        ctx.refusal = Refusal("error.bad_bid", {"value": str(input_value(event))[:40]})
        return False
    return ctx.allowed(c.PlaceBid(ctx.gesture.player, _bid_amount(ctx, event)))


def do_bid(ctx: Context, event: EventData) -> None:
    assert ctx.gesture.player is not None
    ctx.apply(c.PlaceBid(ctx.gesture.player, _bid_amount(ctx, event)))
