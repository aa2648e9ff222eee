"""The Ultimate Banking fold: ``apply_event(state, event)`` is the only way the state changes.

One function per event type, named after it; each changes exactly what its event says (amounts in money
units move through the ledger). ``FOLD`` maps the event type to its function. The tokens' positions (the
unit keeps them with option ``positions``) follow ``DiceRolled`` and every ``TokenMoved`` (Location, a move
card, TOTAL GRIDLOCK, jail): engine/rulesets/ultimate/moves.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import events as ev
from engine.frozen import quicken
from engine.ledger import BANK
from engine.rulesets.ultimate import events as uev
from engine.rulesets.ultimate.moves import fold_jailed, fold_rolled, fold_token_moved
from engine.rulesets.ultimate.options import Options
from engine.rulesets.ultimate.state import GameState, PendingEvent
from engine.state import AuctionState, DebtState, fold_started


def _started(s: GameState, e: ev.GameStarted) -> None:
    fold_started(s, e, Options.from_mapping(e.options))  # and the event deck, every token on GO
    s.deck = e.deck
    s.position = dict.fromkeys(s.order, 0)


def _salary(s: GameState, e: ev.SalaryPaid) -> None:
    s.ledger.transfer(BANK, e.player, e.amount)


def _bought(s: GameState, e: ev.DeedBought) -> None:
    s.ledger.transfer(e.player, BANK, e.price)
    s.owner[e.deed] = e.player
    s.level[e.deed] = 1


def _nothing(s: GameState, e: object) -> None:
    return None


def _auction_opened(s: GameState, e: ev.AuctionOpened) -> None:
    s.phase = "auction"
    s.auction = AuctionState(e.deed, e.bidders)


def _bid(s: GameState, e: ev.BidPlaced) -> None:
    assert s.auction is not None
    s.auction = AuctionState(s.auction.deed, s.auction.bidders, e.amount, e.player)


def _auction_won(s: GameState, e: ev.AuctionWon) -> None:
    s.ledger.transfer(e.player, BANK, e.amount)
    s.owner[e.deed] = e.player
    s.level[e.deed] = 1
    s.auction = None
    s.phase = "play"


def _auction_ended(s: GameState, e: ev.AuctionEnded) -> None:
    s.auction = None
    s.phase = "play"


def _rent(s: GameState, e: ev.RentPaid) -> None:
    s.ledger.transfer(e.payer, e.owner, e.amount)


def _level(s: GameState, e: uev.LevelChanged) -> None:
    s.level[e.deed] = e.new


def _bonus(s: GameState, e: uev.ColourSetBonusApplied) -> None:
    s.bonus_done = s.bonus_done | {e.colour}


def _location(s: GameState, e: uev.LocationUsed) -> None:
    s.ledger.transfer(e.player, BANK, e.fee)
    s.landing = (e.player, e.deed, e.command)


def _jail_in(s: GameState, e: ev.JailEntered) -> None:
    s.jail[e.player] = 0
    fold_jailed(s, e.player)


def _jail_fail(s: GameState, e: ev.JailRollFailed) -> None:
    s.jail[e.player] = e.tries
    s.jail_rolled = e.player


def _jail_out(s: GameState, e: ev.JailLeft) -> None:
    del s.jail[e.player]


def _money(s: GameState, e: ev.MoneyTransferred) -> None:
    s.ledger.transfer(e.payer, e.payee, e.amount)


def _drawn(s: GameState, e: uev.EventDrawn) -> None:
    deck = list(s.deck)
    deck.remove(e.card)
    deck.append(e.card)
    s.deck = tuple(deck)


def _awaiting(s: GameState, e: uev.ChoiceRequested) -> None:
    s.phase = "event"
    s.pending = PendingEvent(e.player, e.card, e.origin)


def _resolved(s: GameState, e: uev.EventResolved) -> None:
    s.pending = None
    s.phase = "play"
    card = next((c for c in s.edition.events if c.id == e.card), None)
    if card is not None and card.effect == "move_to_deed" and e.choice and type(e.choice[0]) is int:
        s.landing = (e.player, e.choice[0], e.command)


def _swapped(s: GameState, e: uev.DeedsSwapped) -> None:
    s.owner[e.deed] = e.other
    s.owner[e.other_deed] = e.player


def _on_the_run(s: GameState, e: uev.OnTheRunStarted) -> None:
    s.on_the_run = e.turns


def _debt(s: GameState, e: ev.DebtOpened) -> None:
    s.phase = "debt"
    s.debt = DebtState(e.debtor, e.creditor, e.amount, e.reason)


def _returned(s: GameState, e: uev.DeedReturned) -> None:
    s.ledger.transfer(BANK, e.player, e.price)
    del s.owner[e.deed]
    del s.level[e.deed]


def _settled(s: GameState, e: ev.DebtSettled) -> None:
    s.ledger.transfer(e.debtor, e.creditor, e.amount)
    s.debt = None
    s.phase = "play"


def _bankrupt(s: GameState, e: ev.PlayerBankrupt) -> None:
    s.ledger.transfer(e.player, e.creditor, e.paid)
    if e.covered:
        s.ledger.transfer(BANK, e.creditor, e.covered)
    s.bankrupt = s.bankrupt | {e.player}
    s.jail.pop(e.player, None)
    s.debt = None


def _ended(s: GameState, e: ev.GameEnded) -> None:
    s.phase = "over"
    s.standings_final = e.standings
    s.auction = None
    s.pending = None
    s.debt = None


def _turn(s: GameState, e: ev.TurnEnded) -> None:
    s.turn = e.next_player
    s.jail_rolled = None
    s.roll = None
    if s.on_the_run > 0:
        s.on_the_run -= 1


def _money_corrected(s: GameState, e: ev.MoneyCorrected) -> None:
    s.ledger.transfer(e.payer, e.payee, e.amount)


def _deed_corrected(s: GameState, e: ev.DeedCorrected) -> None:
    if e.to == BANK:
        del s.owner[e.deed]
        del s.level[e.deed]
    else:
        s.owner[e.deed] = e.to
        s.level.setdefault(e.deed, 1)  # from the Bank: level 1, as when bought; between players: kept


_FOLD: dict[type, Callable[[GameState, Any], None]] = {
    ev.GameStarted: _started, ev.SalaryPaid: _salary, ev.DeedBought: _bought, ev.DeedDeclined: _nothing,
    ev.AuctionOpened: _auction_opened, ev.BidPlaced: _bid, ev.AuctionWon: _auction_won,
    ev.AuctionEnded: _auction_ended, ev.RentPaid: _rent, ev.RentWaived: _nothing, uev.LevelChanged: _level,
    uev.ColourSetBonusApplied: _bonus, uev.LocationUsed: _location, ev.TokenMoved: fold_token_moved,
    ev.JailEntered: _jail_in, ev.JailRollFailed: _jail_fail, ev.JailLeft: _jail_out, ev.MoneyTransferred: _money,
    uev.EventDrawn: _drawn, uev.ChoiceRequested: _awaiting, uev.EventResolved: _resolved,
    uev.DeedsSwapped: _swapped, uev.OnTheRunStarted: _on_the_run, ev.DebtOpened: _debt, uev.DeedReturned: _returned,
    ev.DebtSettled: _settled, ev.PlayerBankrupt: _bankrupt, ev.GameEnded: _ended, ev.TurnEnded: _turn,
    uev.OwnDeedVisited: _nothing,
    ev.MoneyCorrected: _money_corrected, ev.DeedCorrected: _deed_corrected, ev.DiceRolled: fold_rolled,
}


def _with_landing(fold: Callable[[GameState, Any], None]) -> Callable[[GameState, Any], None]:
    """``fold``, after forgetting the landing of an earlier command's jump (resolved or left by now)."""

    def folded(s: GameState, e: Any) -> None:
        if s.landing is not None and e.command != s.landing[2]:
            s.landing = None
        fold(s, e)

    return folded


FOLD: dict[type, Callable[[GameState, Any], None]] = {t: _with_landing(f) for t, f in _FOLD.items()}
quicken(FOLD)  # the events' quicker __init__ (engine/frozen.py)


def apply_event(state: GameState, event: ev.Event) -> None:
    """Fold one event into ``state`` (``CommandUndone`` is folded by the game, which holds the history)."""
    FOLD[type(event)](state, event)
