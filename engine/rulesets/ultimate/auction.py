"""Auctions (docs/rules.md 1.14, 6.2; options ``auction``, ``auction_step``).

When the lander declines an unowned deed and ``auction`` is on, an auction opens: every player who is not
bankrupt and not in jail may bid (the decliner too). A bid is a multiple of ``auction_step``, strictly
above the high bid, and at most the bidder's cash. The caller owns the countdown and sends
``CloseAuction()`` when it ends: the high bidder pays the Bank and owns the deed at level 1 (which may fire
the colour-set bonus); with no bid the deed stays unowned. Amounts are in money units. The bidding and
the sale are both rulesets' (engine/auction.py); who bids, the step and the bonus after a sale are this
ruleset's.
"""

from __future__ import annotations

from engine import auction
from engine import events as ev
from engine.commands import CloseAuction, DeclineDeed, PlaceBid
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.rulesets.ultimate import colour_set
from engine.rulesets.ultimate.base import Table, check_unowned
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


def amount_refusal(s: GameState, ed: Edition, cmd: PlaceBid) -> Refusal | None:
    """A bid is a whole multiple of ``auction_step`` above the high bid (``bid_too_low``), or None."""
    step, amount, high = s.options.auction_step, cmd.amount, s.auction.high_bid if s.auction else 0
    if isinstance(amount, bool) or not isinstance(amount, int) or amount % step or amount <= high:
        return refuse("bid_too_low", f"PlaceBid: bid {amount!r} too low or off-step; expected a multiple of {step} "
                      f"above {high}", command="PlaceBid", amount=amount, step=step, high_bid=high)
    return None


def check_bid(s: GameState, ed: Edition, cmd: PlaceBid) -> Refusal | None:
    """PlaceBid: an allowed bidder, a multiple of the step above the high bid, within the bidder's cash
    (engine/auction.py)."""
    return auction.check_bid(s, ed, cmd, amount_refusal)


def do_close(t: Table, cmd: CloseAuction) -> None:
    """Sell to the high bidder (who may then hold a whole colour set), or end without a sale."""
    a = t.state.auction
    assert a is not None
    if auction.sell(t, a):
        colour_set.after_acquisition(t, a.deed)
