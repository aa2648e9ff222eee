"""Auctions at the table (classic; docs/rules-classic.md 4, 6, 9): a declined deed, a building the Bank is
short of, and each lot of a player bankrupt to the Bank. A bidder's tap bids at once: the high bid plus
:data:`TAP_STEP` (or the lowest bid allowed, if more: a building's opens at a house cost); ``press bid N``
raises the last bidder by N more, ``choose N`` bids N for them. A tap of the high bidder's own card only
selects them (it never outbids their own bid); a refused bid says the engine's reason (over their cash,
below the lowest), ``error.not_bidder`` only for a player who may not bid. Every bid restarts the countdown; when it
ends the high bidder taps their card to pay (with no bid it closes at once)."""

from __future__ import annotations

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Refusal, input_value
from engine.banker.gestures.auction import bid_refused
from engine.numbers import parse_count
from engine.rulesets.classic.auction import minimum_bid
from engine.rulesets.classic.gestures.base import cst

TAP_STEP = 10
"""Money units a bidder's tap adds to the high bid."""


def lowest_bid(ctx: Context, player: str) -> int:
    """The lowest bid ``player`` may make now (money units)."""
    st = cst(ctx)
    assert st.auction is not None and ctx.game is not None
    return max(st.auction.high_bid + 1, minimum_bid(st, ctx.game.edition, player))


def _tap_bid(ctx: Context, player: str) -> int:
    st = cst(ctx)
    assert st.auction is not None
    return max(st.auction.high_bid + TAP_STEP, lowest_bid(ctx, player))


def _amount(ctx: Context, event: EventData) -> int | None:
    """The bid this input makes for the selected bidder: a tap's step, a raise, or an amount (None: bad)."""
    st = cst(ctx)
    assert st.auction is not None
    value, name = input_value(event), event.event.name
    player = ctx.input_player(event)
    if player is None:
        return None
    if name == "tap_player" or (name == "press_bid" and value is None):
        return _tap_bid(ctx, player)
    number = parse_count(value)
    if not number:
        return None
    return st.auction.high_bid + number if name == "press_bid" else number


def can_join_auction(ctx: Context, event: EventData) -> bool:
    pid = ctx.input_player(event)
    amount = None if pid is None else _amount(ctx, event)
    if pid is None or amount is None:
        return ctx.probing
    return ctx.allowed(c.PlaceBid(pid, amount)) or bid_refused(ctx)


def can_bid(ctx: Context, event: EventData) -> bool:
    if ctx.gesture.player is None:
        if not ctx.probing:
            ctx.refusal = Refusal("error.tap_bidder_first")
        return ctx.probing
    amount = _amount(ctx, event)
    if amount is None:
        ctx.refusal = Refusal("error.bad_bid", {"value": str(input_value(event))[:40]})
        return False
    return ctx.allowed(c.PlaceBid(ctx.gesture.player, amount))


def do_bid(ctx: Context, event: EventData) -> None:
    amount = _amount(ctx, event)
    assert ctx.gesture.player is not None and amount is not None
    ctx.apply(c.PlaceBid(ctx.gesture.player, amount))
