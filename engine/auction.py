"""The bidding of an auction, the same in both rulesets (docs/rules.md 1.14; docs/rules-classic.md 4, 6, 8).

An auction runs in phase ``auction`` among its ``bidders``. A bid comes from one of them, is a whole
number of money units that the ruleset accepts (each ruleset says which: :data:`AmountCheck`), and is at
most the bidder's cash; it becomes the high bid (``BidPlaced``). The caller owns the countdown and sends
``CloseAuction`` when it ends: a deed goes to the high bidder for the high bid (``AuctionWon``), or, with
no bid, stays with the Bank (``AuctionEnded``). What follows a sale (Ultimate Banking's colour-set bonus,
the classic game's next seized deed) and the classic game's building auctions are each ruleset's.
Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine import events as ev
from engine.commands import CloseAuction, PlaceBid
from engine.errors import Refusal, refuse
from engine.rulesets.api import Table, check_phase

Bidder = str | None
"""A high bidder's player id, or None before the first bid."""


class Auction(Protocol):
    """A running auction as the bidding reads it (engine/state.py's ``AuctionState``, the classic ``Lot``):
    ``deed`` under the hammer, its ``bidders``, the ``high_bid`` in money units (0: none yet) and its
    ``high_bidder``."""

    @property
    def deed(self) -> int: ...

    @property
    def bidders(self) -> tuple[str, ...]: ...

    @property
    def high_bid(self) -> int: ...

    @property
    def high_bidder(self) -> Bidder: ...


AmountCheck = Callable[[Any, Any, PlaceBid], "Refusal | None"]
"""``check(state, edition, bid)``: the ruleset's refusal of ``bid.amount`` (not a whole number, off its
step, not above the high bid, below its minimum), or None; called once the bidder is known to bid."""


def check_bid(s: Any, ed: Any, cmd: PlaceBid, amount_refusal: AmountCheck) -> Refusal | None:
    """PlaceBid in the state ``s``: phase auction, a bidder of the running auction, an amount the ruleset
    accepts (``amount_refusal``), within the bidder's cash (``s.balance``)."""
    what = "PlaceBid"
    reason = check_phase(s, "auction", what)
    if reason:
        return reason
    a: Auction = s.auction
    if cmd.player not in a.bidders:
        return refuse("not_a_bidder", f"{what}: {cmd.player!r} may not bid; expected one of {list(a.bidders)}",
                      command=what, player=cmd.player, bidders=", ".join(a.bidders))
    reason = amount_refusal(s, ed, cmd)
    if reason:
        return reason
    cash: int = s.balance(cmd.player)
    if cmd.amount > cash:
        return refuse("bid_over_cash", f"{what}: a bid of {cmd.amount} is more than {cmd.player}'s cash {cash}",
                      command=what, player=cmd.player, amount=cmd.amount, cash=cash)
    return None


def do_bid(t: Table[Any], cmd: PlaceBid) -> None:
    """The new high bid."""
    t.emit(ev.BidPlaced, cmd.player, cmd.amount)


def check_close(s: Any, ed: Any, cmd: CloseAuction) -> Refusal | None:
    """CloseAuction: only while an auction runs."""
    return check_phase(s, "auction", "CloseAuction")


def sell(t: Table[Any], a: Auction) -> bool:
    """The end of ``a``, a deed's auction: sold to the high bidder for the high bid (``AuctionWon``), or, with
    no bid, the deed stays with the Bank (``AuctionEnded``). True when it was sold."""
    if a.high_bidder is None:
        t.emit(ev.AuctionEnded, a.deed)
        return False
    t.emit(ev.AuctionWon, a.high_bidder, a.deed, a.high_bid)
    return True
