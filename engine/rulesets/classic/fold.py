"""The classic fold: one function per event type (``FOLD``), the only way the classic state changes.

Each function changes exactly what its event says; money moves through the ledger, and the Free Parking
pot (``"pot"``) is money posted to the Bank and counted in ``state.pot``. Amounts in money units.

A function's event parameter is typed ``Any`` (its class is named beside it and in ``FOLD``) because the
simulator's lean table folds light named tuples with the same fields (engine/rulesets/classic/table.py),
and a mypyc-compiled fold would refuse them at the call; tests/engine/classic/test_fold_fields.py checks
statically that every function reads only fields its event classes have.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine import events as ev
from engine.frozen import quicken
from engine.ledger import BANK
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.edition import cards
from engine.rulesets.classic.moves import fold_placed, fold_reset, fold_rolled
from engine.rulesets.classic.options import Options
from engine.rulesets.classic.state import POT, ClassicState, Lot, Offer
from engine.rulesets.classic.variant_fold import (
    fold_dealt,
    fold_marked,
    fold_paid_in_deeds,
    fold_released,
    fold_timed_out,
)
from engine.state import DebtState, fold_started


def move_money(s: ClassicState, payer: str, payee: str, amount: int) -> None:
    """Post ``amount`` from ``payer`` to ``payee``; ``"pot"`` is the Bank's side with the pot counted."""
    if payer == POT:
        s.pot -= amount
        payer = BANK
    if payee == POT:
        s.pot += amount
        payee = BANK
    if payer != payee:
        s.ledger.transfer(payer, payee, amount)


def _started(s: ClassicState, e: Any) -> None:  # ev.GameStarted
    fold_started(s, e, Options.from_mapping(e.options))  # and the two decks, each in the order drawn
    by_id = cards(s.edition)
    s.chance = tuple(c for c in e.deck if by_id[c].deck == "chance")
    s.chest = tuple(c for c in e.deck if by_id[c].deck == "chest")


def _salary(s: ClassicState, e: Any) -> None:  # ev.SalaryPaid
    s.ledger.transfer(BANK, e.player, e.amount)


def _bought(s: ClassicState, e: Any) -> None:  # ev.DeedBought
    s.ledger.transfer(e.player, BANK, e.price)
    s.owner[e.deed] = e.player


def _nothing(s: ClassicState, e: object) -> None:
    return None


def _auction_opened(s: ClassicState, e: Any) -> None:  # ev.AuctionOpened
    s.phase = "auction"
    s.auction = Lot(e.deed, "deed", e.bidders)
    if s.lots and s.lots[0] == e.deed:
        s.lots = s.lots[1:]


def _bid(s: ClassicState, e: Any) -> None:  # ev.BidPlaced
    a = s.auction
    assert a is not None
    s.auction = Lot(a.deed, a.kind, a.bidders, e.amount, e.player)


def _auction_won(s: ClassicState, e: Any) -> None:  # ev.AuctionWon
    s.ledger.transfer(e.player, BANK, e.amount)
    s.owner[e.deed] = e.player
    s.auction = None
    s.phase = "play"


def _auction_ended(s: ClassicState, e: Any) -> None:  # ev.AuctionEnded
    s.auction = None
    s.phase = "play"


def _rent(s: ClassicState, e: Any) -> None:  # ev.RentPaid
    s.ledger.transfer(e.payer, e.owner, e.amount)
    s.card_rent = None


def _waived(s: ClassicState, e: Any) -> None:  # ev.RentWaived
    s.card_rent = None


def _jail_in(s: ClassicState, e: Any) -> None:  # ev.JailEntered
    s.jail[e.player] = 0
    s.card_rent = None


def _jail_fail(s: ClassicState, e: Any) -> None:  # ev.JailRollFailed
    s.jail[e.player] = e.tries


def _jail_out(s: ClassicState, e: Any) -> None:  # ev.JailLeft
    del s.jail[e.player]


def _money(s: ClassicState, e: Any) -> None:  # ev.MoneyTransferred
    move_money(s, e.payer, e.payee, e.amount)


def _debt(s: ClassicState, e: Any) -> None:  # ev.DebtOpened
    s.phase = "debt"
    s.debts = (*s.debts, DebtState(e.debtor, e.creditor, e.amount, e.reason))


def _settled(s: ClassicState, e: Any) -> None:  # ev.DebtSettled
    move_money(s, e.debtor, e.creditor, e.amount)
    s.debts = s.debts[1:]
    if not s.debts:
        s.phase = "play"


def _bankrupt(s: ClassicState, e: Any) -> None:  # ev.PlayerBankrupt
    move_money(s, e.player, e.creditor, e.paid)
    s.bankrupt = s.bankrupt | {e.player}
    s.out = (*s.out, e.player)
    s.jail.pop(e.player, None)
    s.debts = tuple(d for d in s.debts if e.player not in (d.debtor, d.creditor))
    if not s.debts and s.phase == "debt":
        s.phase = "play"


def _ended(s: ClassicState, e: Any) -> None:  # ev.GameEnded
    s.phase = "over"
    s.standings_final = e.standings
    s.auction = None
    s.debts = ()
    s.trade = None
    s.lots = ()
    s.credit = None


def _turn(s: ClassicState, e: Any) -> None:  # ev.TurnEnded
    s.turn = e.next_player
    s.card_rent = None
    if s.fresh:
        s.fresh = frozenset()
    if s.marks:
        s.marks = frozenset()


def _drawn(s: ClassicState, e: Any) -> None:  # cev.CardDrawn
    card = cards(s.edition)[e.card]
    deck = s.chance if card.deck == "chance" else s.chest
    rest = deck[1:] if deck[0] == e.card else tuple(c for c in deck if c != e.card)  # a physical card: any
    if card.effect == "jail_card":
        s.held[e.card] = e.player
    else:
        rest = (*rest, e.card)
    if card.deck == "chance":
        s.chance = rest
    else:
        s.chest = rest


def _card_rent(s: ClassicState, e: Any) -> None:  # cev.CardRentSet
    s.card_rent = (e.player, e.deed, e.rule)


def _to_deck(s: ClassicState, card_id: int) -> None:
    if cards(s.edition)[card_id].deck == "chance":
        s.chance = (*s.chance, card_id)
    else:
        s.chest = (*s.chest, card_id)


def _jail_card_used(s: ClassicState, e: Any) -> None:  # cev.JailCardUsed
    del s.held[e.card]
    _to_deck(s, e.card)


def _built(s: ClassicState, e: Any) -> None:  # cev.BuildingBought
    s.ledger.transfer(e.player, BANK, e.cost)
    s.level[e.deed] = e.level
    if s.credit is not None:
        s.credit = None
        s.phase = "play"


def _sold(s: ClassicState, e: Any) -> None:  # cev.BuildingSold
    s.ledger.transfer(BANK, e.player, e.refund)
    if e.level:
        s.level[e.deed] = e.level
    else:
        del s.level[e.deed]


def _mortgaged(s: ClassicState, e: Any) -> None:  # cev.DeedMortgaged
    s.ledger.transfer(BANK, e.player, e.amount)
    s.mortgaged = s.mortgaged | {e.deed}


def _lifted(s: ClassicState, e: Any) -> None:  # cev.MortgageLifted
    s.ledger.transfer(e.player, BANK, e.cost)
    s.mortgaged = s.mortgaged - {e.deed}
    if e.deed in s.fresh:
        s.fresh = s.fresh - {e.deed}


def _fee(s: ClassicState, e: Any) -> None:  # cev.MortgageFeePaid
    s.ledger.transfer(e.player, BANK, e.amount)
    s.fresh = s.fresh | {e.deed}


def _building_auction(s: ClassicState, e: Any) -> None:  # cev.BuildingAuctionOpened
    s.phase = "auction"
    s.auction = Lot(0, e.kind, e.bidders)


def _building_won(s: ClassicState, e: Any) -> None:  # cev.BuildingAuctionWon
    s.auction = None
    s.credit = (e.player, e.kind, e.amount)
    s.phase = "place"


def _building_ended(s: ClassicState, e: Any) -> None:  # cev.BuildingAuctionEnded
    s.auction = None
    s.phase = "play"


def _proposed(s: ClassicState, e: Any) -> None:  # cev.TradeProposed
    s.trade = Offer(e.player, e.partner, e.give_deeds, e.give_cash, e.give_cards, e.take_deeds, e.take_cash,
                    e.take_cards)


def _cancelled(s: ClassicState, e: Any) -> None:  # cev.TradeCancelled
    s.trade = None


def _traded(s: ClassicState, e: Any) -> None:  # cev.TradeCompleted
    t = s.trade
    assert t is not None
    for d in t.give_deeds:
        s.owner[d] = t.partner
    for d in t.take_deeds:
        s.owner[d] = t.player
    for c in t.give_cards:
        s.held[c] = t.partner
    for c in t.take_cards:
        s.held[c] = t.player
    if t.give_cash:
        s.ledger.transfer(t.player, t.partner, t.give_cash)
    if t.take_cash:
        s.ledger.transfer(t.partner, t.player, t.take_cash)
    s.trade = None


def _transferred(s: ClassicState, e: Any) -> None:  # cev.AssetsTransferred
    for d in e.deeds:
        s.owner[d] = e.creditor
    for c in e.cards:
        s.held[c] = e.creditor


def _seized(s: ClassicState, e: Any) -> None:  # cev.AssetsSeized
    for d in e.deeds:
        del s.owner[d]
        s.level.pop(d, None)
    s.mortgaged = s.mortgaged - set(e.deeds)
    for c in e.cards:
        del s.held[c]
        _to_deck(s, c)
    s.lots = (*s.lots, *e.deeds)


def _clock(s: ClassicState, e: Any) -> None:  # cev.ClockAdvanced
    s.minute = e.minute


FOLD: Final[dict[type, Callable[[ClassicState, Any], None]]] = {
    ev.GameStarted: _started, ev.SalaryPaid: _salary, ev.DeedBought: _bought, ev.DeedDeclined: _nothing,
    ev.AuctionOpened: _auction_opened, ev.BidPlaced: _bid, ev.AuctionWon: _auction_won,
    ev.AuctionEnded: _auction_ended, ev.RentPaid: _rent, ev.RentWaived: _waived, ev.TokenMoved: _nothing,
    ev.JailEntered: _jail_in, ev.JailRollFailed: _jail_fail, ev.JailLeft: _jail_out, ev.MoneyTransferred: _money,
    ev.DebtOpened: _debt, ev.DebtSettled: _settled, ev.PlayerBankrupt: _bankrupt, ev.GameEnded: _ended,
    ev.TurnEnded: _turn, cev.CardDrawn: _drawn, cev.CardRentSet: _card_rent, cev.JailCardUsed: _jail_card_used,
    cev.BuildingBought: _built, cev.BuildingSold: _sold, cev.DeedMortgaged: _mortgaged,
    cev.MortgageLifted: _lifted, cev.MortgageFeePaid: _fee, cev.BuildingAuctionOpened: _building_auction,
    cev.BuildingAuctionWon: _building_won, cev.BuildingAuctionEnded: _building_ended,
    cev.TradeProposed: _proposed, cev.TradeCancelled: _cancelled, cev.TradeCompleted: _traded,
    cev.AssetsTransferred: _transferred, cev.AssetsSeized: _seized, cev.ClockAdvanced: _clock,
    ev.DiceRolled: fold_rolled, cev.TokenPlaced: fold_placed, cev.RollsReset: fold_reset,
    cev.TurnMarked: fold_marked, cev.DebtPaidInDeeds: fold_paid_in_deeds, cev.AssetsReleased: fold_released,
    cev.LotsDealt: fold_dealt, cev.ActionTimedOut: fold_timed_out,
}
"""Event type -> its fold function, for every event the classic rules emit (shared ones included)."""
quicken(FOLD)  # the events' quicker __init__ (engine/frozen.py)
