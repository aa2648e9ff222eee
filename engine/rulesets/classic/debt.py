"""Owing more than you have, and bankruptcy (docs/rules-classic.md 9; docs/rules.md 6.3; seed 000 standard text).

A payment a player cannot make in cash is queued as a debt (``DebtOpened``) and the game waits in phase
``debt``: the debtor sells buildings and mortgages deeds (building.py), then ``SettleDebt`` pays it, or
``DeclareBankruptcy``. Bankrupt to a player: the Bank buys the buildings back at half their cost, and the
cash, the deeds and the jail cards go to the creditor, who pays ``mortgage_transfer_fee`` on each
mortgaged deed at once and may lift it now or later. Bankrupt to the Bank (or the pot): the cash goes to it,
the buildings go back to the supply, the jail cards to their decks, and every deed is auctioned
unmortgaged, one after the other. The last player standing wins (the second bankruptcy ends the short
game). Amounts in money units.
"""

from __future__ import annotations

from engine import events as ev
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.auction import open_next_lot
from engine.rulesets.classic.base import Table, check_phase, end_if_over, is_over, next_active, pay
from engine.rulesets.classic.commands import DeclareBankruptcy, SettleDebt
from engine.rulesets.classic.standings import building_value
from engine.rulesets.classic.state import POT, ClassicState
from engine.rulesets.classic.trade import transfer_fee


def _check_debtor(s: ClassicState, player: object, what: str) -> Refusal | None:
    reason = check_phase(s, "debt", what)
    if reason:
        return reason
    debtor = s.debts[0].debtor
    if player != debtor:
        return refuse("not_the_debtor", f"{what}: the debtor is {debtor}, not {player!r}", command=what,
                      player=repr(player), debtor=debtor)
    return None


def check_settle(s: ClassicState, ed: Edition, cmd: SettleDebt) -> Refusal | None:
    """SettleDebt: the debtor has the cash for the debt at the head of the queue."""
    what = "SettleDebt"
    reason = _check_debtor(s, cmd.player, what)
    if reason:
        return reason
    d = s.debts[0]
    if s.ledger.balances[d.debtor] < d.amount:
        return refuse("short_of_cash", f"{what}: {d.debtor} has {s.ledger.balances[d.debtor]}, the debt is "
                      f"{d.amount}; sell buildings or mortgage first", command=what, player=d.debtor,
                      cash=s.ledger.balances[d.debtor], price=d.amount)
    return None


def do_settle(t: Table, cmd: SettleDebt) -> None:
    """Pay the debt."""
    d = t.state.debts[0]
    t.emit(ev.DebtSettled, d.debtor, d.creditor, d.amount)


def check_bankrupt(s: ClassicState, ed: Edition, cmd: DeclareBankruptcy) -> Refusal | None:
    """DeclareBankruptcy: the debtor, whose cash does not cover the debt."""
    what = "DeclareBankruptcy"
    reason = _check_debtor(s, cmd.player, what)
    if reason:
        return reason
    d = s.debts[0]
    if s.ledger.balances[d.debtor] >= d.amount:
        return refuse("can_pay", f"{what}: {d.debtor} has the {d.amount} owed; settle the debt", command=what,
                      player=d.debtor, amount=d.amount)
    return None


def do_bankrupt(t: Table, cmd: DeclareBankruptcy) -> None:
    """Hand everything to the creditor or the Bank; pass the turn; end the game if one player is left."""
    s = t.state
    go_bankrupt(t, cmd.player, s.debts[0].creditor, s.debts[0].amount)


def go_bankrupt(t: Table, player: str, creditor: str, amount: int) -> None:
    """``player`` goes bankrupt owing ``amount`` (money units) to ``creditor`` (a player, the Bank or the pot):
    a declared bankruptcy, or a timeout (variants.py)."""
    s, ed = t.state, t.edition
    deeds, cards = s.deeds_of(player), s.cards_of(player)
    if s.trade is not None and player in (s.trade.player, s.trade.partner):
        t.emit(cev.TradeCancelled, player)
    if s.options.bank_pays_creditor:  # the second text (seed 000 l. 165-166, seed 002 l. 90-91)
        to_player = creditor not in (BANK, POT)
        t.emit(ev.PlayerBankrupt, player, BANK if to_player else creditor, s.ledger.balances[player], 0)
        t.emit(cev.AssetsReleased, player, deeds, cards)
        if to_player and creditor not in s.bankrupt:
            t.emit(ev.MoneyTransferred, BANK, creditor, amount, "bankruptcy")
        _pass_turn(t, player)
        return
    if creditor in (BANK, POT):
        t.emit(ev.PlayerBankrupt, player, creditor, s.ledger.balances[player], 0)
        t.emit(cev.AssetsSeized, player, deeds, cards)
        if not _pass_turn(t, player):
            open_next_lot(t)
        return
    if not s.options.short_game:  # the short game: the buildings pass too (seed 000 l. 337, seed 002 l. 102)
        for d in deeds:
            if s.level.get(d):
                t.emit(cev.BuildingSold, player, d, 0, building_value(s, ed, d) // 2)
    mortgaged = [d for d in deeds if d in s.mortgaged]
    t.emit(ev.PlayerBankrupt, player, creditor, s.ledger.balances[player], 0)
    t.emit(cev.AssetsTransferred, player, creditor, deeds, cards)
    if is_over(s):  # the fees are due at once all the same: paid from cash before the standings are made
        for d in mortgaged:  # (no debt can be opened in a game that is over: a fee cash cannot cover lapses)
            fee = transfer_fee(s, ed, d)
            if fee and s.ledger.balances[creditor] >= fee:
                t.emit(cev.MortgageFeePaid, creditor, d, fee)
    if _pass_turn(t, player):
        return
    for d in mortgaged:  # the creditor's fee; lifting before the turn ends then costs the mortgage alone
        fee = transfer_fee(s, ed, d)
        if fee and s.ledger.balances[creditor] >= fee and not any(x.debtor == creditor for x in s.debts):
            t.emit(cev.MortgageFeePaid, creditor, d, fee)
        elif fee:
            pay(t, creditor, BANK, fee, "mortgage_fee")


def _pass_turn(t: Table, player: str) -> bool:
    """End the game if it is over (True); else pass the bankrupt player's turn on."""
    if end_if_over(t):
        return True
    if t.state.turn == player:
        t.emit(ev.TurnEnded, player, next_active(t.state, player))
    return False
