"""The auction's end, alike in every ruleset: the countdown, the high bidder confirming by a tap, the close.

How a bid is made differs (Ultimate raises by 20 or 100; the classic game bids the high bid plus a step, or
a building's lowest bid), so the bidding handlers stay in each ruleset's plug-in. These read only the shared
auction view of the engine's state (``auction.high_bidder``) and send the shared ``CloseAuction``.
"""

from __future__ import annotations

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Refusal
from engine.banker.setup import seat_of
from engine.banker.table import BankerState


def has_high_bid(ctx: Context, event: EventData) -> bool:
    """The countdown ended with a bid: the winner is to confirm."""
    auction = ctx.st().auction if ctx.durable else None
    return auction is not None and auction.high_bidder is not None


def is_winner(ctx: Context, event: EventData) -> bool:
    """The tapping player is the high bidder (else refused, naming the winner's seat)."""
    auction = ctx.st().auction if ctx.durable else None
    pid = ctx.input_player(event)
    if auction is None or (pid is not None and pid != auction.high_bidder):
        ctx.refusal = Refusal("error.not_winner", {"winner": seat_of(auction.high_bidder if auction else None)})
        return False
    return True


def is_high_bidder(ctx: Context, event: EventData) -> bool:
    """The tapping player holds the high bid already: their tap selects them (for ``press bid``) and bids
    nothing, so a second tap of the same card never outbids its own bid."""
    auction = ctx.st().auction if ctx.durable else None
    pid = ctx.input_player(event) if event.event.name == "tap_player" else None
    return auction is not None and pid is not None and pid == auction.high_bidder


def bid_refused(ctx: Context) -> bool:
    """After a refused ``PlaceBid`` (``Context.allowed`` gave ``error.rule``): a player who may not bid at all
    is ``error.not_bidder``; any other reason (a bid over their cash, below the lowest) stays the engine's
    own. Returns False, for conditions to return."""
    refusal = ctx.refusal
    if refusal is not None and refusal.params.get("reason_key") == "reason.not_a_bidder":
        ctx.refusal = Refusal("error.not_bidder", refusal.params)
    return False


def can_close_auction(ctx: Context, event: EventData) -> bool:
    """The engine would close the auction now."""
    return ctx.allowed(c.CloseAuction())


def do_close_auction(ctx: Context, event: EventData) -> None:
    """Close it: the high bidder pays and takes the lot, or nobody bid."""
    ctx.apply(c.CloseAuction())


def phase_auction(ctx: Context, event: EventData) -> bool:
    """The engine's phase is an auction."""
    return ctx.phase_is("auction")


def start_countdown(ctx: Context, event: EventData) -> None:
    """(Re)start the countdown of ``auction_s`` seconds; entering the auction forgets the gesture before it."""
    assert event.transition is not None
    if event.transition.source != BankerState.AUCTION.name:
        ctx.forget_gesture()
        auction = getattr(ctx.st(), "auction", None) if ctx.durable is not None else None
        # an auction entered with a high bid already (the menu's Undo of a later bid): its bidder is shown
        # as bidding, never "nobody" beside "high bid: Ann"
        ctx.gesture.player = getattr(auction, "high_bidder", None)
    ctx.deadline = ctx.clock() + ctx.auction_s
