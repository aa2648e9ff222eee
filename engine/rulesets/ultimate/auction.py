"""Auctions (docs/rules.md 1.14, 6.2; options ``auction``, ``auction_step``).

When the lander declines an unowned deed and ``auction`` is on, an auction opens: every player who is not
bankrupt and not in jail may bid (the decliner too). A bid is a multiple of ``auction_step``, strictly
above the high bid, and at most the bidder's cash. The caller owns the countdown and sends
``CloseAuction()`` when it ends: the high bidder pays the Bank and owns the deed at level 1 (which may fire
the colour-set bonus); with no bid the deed stays unowned. Amounts are in money units.
"""

from __future__ import annotations

from engine import events as ev
from engine.commands import CloseAuction, DeclineDeed, PlaceBid
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.rulesets.ultimate import colour_set
from engine.rulesets.ultimate.base import Table, check_phase, check_unowned
from engine.rulesets.ultimate.state import GameState


def check_decline(s: GameState, ed: Edition, cmd: DeclineDeed) -> Refusal | None:
    """DeclineDeed: an unowned deed, a lander not in jail."""
    return check_unowned(s, ed, cmd.player, cmd.deed, "DeclineDeed")


def do_decline(t: Table, cmd: DeclineDeed) -> None:
    """Record the refusal and open the auction when the option is on."""
    s = t.state
    t.emit(ev.DeedDeclined, cmd.player, cmd.deed)
    if s.options.auction:
        bidders = tuple(p for p in s.active_players() if p not in s.jail)
        t.emit(ev.AuctionOpened, cmd.deed, bidders)


def check_bid(s: GameState, ed: Edition, cmd: PlaceBid) -> Refusal | None:
    """PlaceBid: an allowed bidder, a multiple of the step above the high bid, within the bidder's cash."""
    what = "PlaceBid"
    reason = check_phase(s, "auction", what)
    if reason:
        return reason
    a = s.auction
    assert a is not None
    if cmd.player not in a.bidders:
        return refuse("not_a_bidder", f"{what}: {cmd.player!r} may not bid; expected one of {list(a.bidders)}",
                      command=what, player=cmd.player, bidders=", ".join(a.bidders))
    step = s.options.auction_step
    amount = cmd.amount
    if isinstance(amount, bool) or not isinstance(amount, int) or amount % step or amount <= a.high_bid:
        return refuse("bid_too_low", f"{what}: bid {amount!r} too low or off-step; expected a multiple of {step} above {a.high_bid}",
                      command=what, amount=amount, step=step, high_bid=a.high_bid)
    if amount > s.balance(cmd.player):
        cash = s.balance(cmd.player)
        return refuse("bid_over_cash", f"{what}: bid {amount} is more than {cmd.player}'s cash {cash}",
                      command=what, player=cmd.player, amount=amount, cash=cash)
    return None


def do_bid(t: Table, cmd: PlaceBid) -> None:
    """The new high bid."""
    t.emit(ev.BidPlaced, cmd.player, cmd.amount)


def check_close(s: GameState, ed: Edition, cmd: CloseAuction) -> Refusal | None:
    """CloseAuction: only while an auction runs."""
    return check_phase(s, "auction", "CloseAuction")


def do_close(t: Table, cmd: CloseAuction) -> None:
    """Sell to the high bidder, or end without a sale."""
    a = t.state.auction
    assert a is not None
    if a.high_bidder is None:
        t.emit(ev.AuctionEnded, a.deed)
        return
    t.emit(ev.AuctionWon, a.high_bidder, a.deed, a.high_bid)
    colour_set.after_acquisition(t, a.deed)
