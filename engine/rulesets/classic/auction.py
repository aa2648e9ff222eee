"""Auctions (docs/rules-classic.md 4, 6, 8): a declined deed, a building the Bank is short of, and each
deed of a player who went bankrupt to the Bank.

Bids are whole money units above the high bid, never more than the bidder's cash. A deed's auction may
open at any bid (seed 001); a building's opens at the printed house cost of the bidder's cheapest street
that could take it (seed 000: "starting at the printed price"). ``CloseAuction`` (the caller's countdown
ran out) sells to the high bidder; with no bid the deed stays with the Bank. After a bankruptcy to the
Bank the next seized deed goes under the hammer at once. The bidding and a deed's sale are both rulesets'
(engine/auction.py); the minimum bid, the building auctions and the next lot are this ruleset's.
"""

from __future__ import annotations

from engine import auction
from engine import events as ev
from engine.commands import CloseAuction, PlaceBid
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.base import Table
from engine.rulesets.classic.building import buildable
from engine.rulesets.classic.state import ClassicState


def minimum_bid(s: ClassicState, ed: Edition, player: str) -> int:
    """The lowest first bid ``player`` may make in the running auction (money units)."""
    a = s.auction
    assert a is not None
    if a.kind == "deed":
        return 1
    spots = buildable(s, ed, player, a.kind)
    return min((ed.deeds[d].house_cost for d in spots), default=1)


def amount_refusal(s: ClassicState, ed: Edition, cmd: PlaceBid) -> Refusal | None:
    """A bid is a whole amount above the high bid and at least :func:`minimum_bid` (``bid_below_minimum``),
    or None."""
    what, amount, a = "PlaceBid", cmd.amount, s.auction
    assert a is not None
    low = max(a.high_bid + 1, minimum_bid(s, ed, cmd.player))
    if isinstance(amount, bool) or not isinstance(amount, int):
        return refuse("bid_below_minimum", f"{what}: expected a whole amount of at least {low}, got {amount!r}",
                      command=what, amount=repr(amount), high_bid=a.high_bid, min_bid=low)
    if amount < low:
        return refuse("bid_below_minimum", f"{what}: expected a bid of at least {low} (above {a.high_bid}), got "
                      f"{amount}", command=what, amount=amount, high_bid=a.high_bid, min_bid=low)
    return None


def check_bid(s: ClassicState, ed: Edition, cmd: PlaceBid) -> Refusal | None:
    """PlaceBid: a bidder of the running auction, above the high bid (and the minimum), within their cash
    (engine/auction.py)."""
    return auction.check_bid(s, ed, cmd, amount_refusal)


do_bid = auction.do_bid
check_close = auction.check_close


def do_close(t: Table, cmd: CloseAuction) -> None:
    """Sell to the high bidder (or not at all); then the next seized deed, if any, goes under the hammer."""
    a = t.state.auction
    assert a is not None
    if a.kind == "deed":
        auction.sell(t, a)
        open_next_lot(t)
    elif a.high_bidder is not None:
        t.emit(cev.BuildingAuctionWon, a.high_bidder, a.kind, a.high_bid)
    else:
        t.emit(cev.BuildingAuctionEnded, a.kind)


def open_next_lot(t: Table) -> None:
    """Auction the next deed seized by the Bank, among the players still in."""
    s = t.state
    if s.lots and s.phase == "play":
        t.emit(ev.AuctionOpened, s.lots[0], s.active_players())
