"""Debt and bankruptcy (docs/rules.md 1.15, 6.2): an unaffordable payment waits as a debt.

The debtor returns deeds to the Bank at their printed price (level reset) until the debt is covered; then
the payment is made and the change stays with the debtor. With no deeds left and still short, the debtor
pays all their cash, the Bank pays a player creditor the remainder, the debtor is bankrupt and the game
ends at once with the final standings. Amounts are in money units.
"""

from __future__ import annotations

from engine import events as ev
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.ultimate import events as uev
from engine.rulesets.ultimate.base import Table, check_deed, check_phase
from engine.rulesets.ultimate.commands import ReturnDeed
from engine.rulesets.ultimate.state import GameState


def can_pay(s: GameState, player: str, amount: int) -> bool:
    """Whether ``player`` has ``amount`` money units in cash."""
    return s.ledger.balances[player] >= amount


def open_debt(t: Table, debtor: str, creditor: str, amount: int, reason: str) -> None:
    """Record a debt of ``amount`` money units; bankrupt at once if the debtor has no deed to return."""
    t.emit(ev.DebtOpened, debtor, creditor, amount, reason)
    if debtor not in t.state.owner.values():
        go_bankrupt(t)


def charge(t: Table, payer: str, payee: str, amount: int, reason: str) -> None:
    """Pay ``amount`` money units from ``payer`` to ``payee`` as a ``MoneyTransferred``, or open a debt."""
    if amount <= 0:
        return
    if can_pay(t.state, payer, amount):
        t.emit(ev.MoneyTransferred, payer, payee, amount, reason)
    else:
        open_debt(t, payer, payee, amount, reason)


def go_bankrupt(t: Table) -> None:
    """The debtor pays all cash; the Bank covers a player creditor's remainder; the game ends."""
    s = t.state
    debt = s.debt
    assert debt is not None
    paid = s.ledger.balances[debt.debtor]
    covered = 0 if debt.creditor == BANK else debt.amount - paid
    t.emit(ev.PlayerBankrupt, debt.debtor, debt.creditor, paid, covered)
    t.emit(ev.GameEnded, s.standings())


def check_return(s: GameState, ed: Edition, cmd: ReturnDeed) -> Refusal | None:
    """ReturnDeed: only the debtor, only in phase debt, only a deed they own."""
    what = "ReturnDeed"
    reason = check_phase(s, "debt", what) or check_deed(ed, cmd.deed, what)
    if reason:
        return reason
    assert s.debt is not None
    if cmd.player != s.debt.debtor:
        return refuse("not_the_debtor", f"{what}: expected the debtor {s.debt.debtor}, got {cmd.player!r}",
                      command=what, debtor=s.debt.debtor, player=cmd.player)
    if s.owner.get(cmd.deed) != cmd.player:
        mine = list(s.deeds_of(cmd.player))
        return refuse("deed_not_yours", f"{what}: deed {cmd.deed} is not owned by {cmd.player}; expected one of {mine}",
                      command=what, deed=cmd.deed, player=cmd.player, owner=s.owner.get(cmd.deed, BANK),
                      deeds=", ".join(map(str, mine)))
    return None


def do_return(t: Table, cmd: ReturnDeed) -> None:
    """Return the deed for its printed price; settle the debt, or go bankrupt when nothing is left."""
    s = t.state
    t.emit(uev.DeedReturned, cmd.player, cmd.deed, t.edition.deeds[cmd.deed].price)
    debt = s.debt
    assert debt is not None
    if can_pay(s, debt.debtor, debt.amount):
        t.emit(ev.DebtSettled, debt.debtor, debt.creditor, debt.amount)
    elif debt.debtor not in s.owner.values():
        go_bankrupt(t)
