"""Rules of the seeds that only some options turn on (docs/rules-classic.md 2, 13).

- The second text's limits need to know that the turn's player has rolled (seed 000 l. 146, 155; seed 002
  l. 71, 80): with ``deals_before_roll`` or ``build_before_roll`` on, the first command of the turn that
  only a roll brings (a GO salary, a landing on a deed, a card, a tax, jail, a roll in jail, the unit's
  own roll) marks the turn ``"rolled"`` (``TurnMarked``); ``one_house_per_set`` marks each set built on.
- ``PayWithDeeds`` (``pay_debt_with_deeds``; seed 000 l. 73, 419; seed 002 l. 184): the debtor hands bare
  deeds (mortgaged ones too) to a player creditor at the value both agreed, taken off the debt; the
  creditor pays the transfer fee of a mortgaged deed at once.
- ``TimeOut`` (``action_timers``; seed 000 l. 167; seed 002 l. 92, 283): the table's timer ran out. Not
  rolling in time, or not paying a debt, bankrupts the player (to the creditor, else the Bank); an offer
  not answered in time lapses.
Amounts in money units.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.base import Table, check_phase, check_player
from engine.rulesets.classic.commands import PayWithDeeds, TimeOut
from engine.rulesets.classic.debt import go_bankrupt
from engine.rulesets.classic.state import POT, ClassicState
from engine.rulesets.classic.trade import transfer_fee
from engine.rulesets.classic.turnlimits import ROLLED, option_off

ACTIONS: Final = ("roll", "pay", "deal")

Rule = tuple[Callable[..., "Refusal | None"], Callable[..., None]]


def marks_roll(rule: Rule, field: str) -> Rule:
    """``rule``, whose command (its ``field`` the player) only a roll brings: it marks the turn rolled when
    the second text's limits are on."""
    check, do = rule

    def done(t: Table, cmd: Any) -> None:
        s = t.state
        who = getattr(cmd, field)
        mark = s.options.marks_turn and who == s.turn and ROLLED not in s.marks
        do(t, cmd)
        if mark and s.turn == who and s.phase != "over":
            t.emit(cev.TurnMarked, who, ROLLED)

    return check, done


def check_pay_with_deeds(s: ClassicState, ed: Edition, cmd: PayWithDeeds) -> Refusal | None:
    """PayWithDeeds: the option, the head debt's debtor, a player creditor, the debtor's bare deeds, a value
    of 1 up to the debt, and the creditor's cash for the fees of the mortgaged ones."""
    what = "PayWithDeeds"
    if not s.options.pay_debt_with_deeds:
        return option_off("pay_debt_with_deeds", what)
    reason = check_phase(s, "debt", what)
    if reason:
        return reason
    d = s.debts[0]
    if cmd.player != d.debtor:
        return refuse("not_the_debtor", f"{what}: the debtor is {d.debtor}, not {cmd.player!r}", command=what,
                      player=repr(cmd.player), debtor=d.debtor)
    if d.creditor in (BANK, POT):
        return refuse("creditor_is_bank", f"{what}: the debt is to the Bank, which takes no deeds", command=what,
                      player=d.debtor)
    deeds, value = cmd.deeds, cmd.value
    if not isinstance(deeds, tuple) or not deeds or len(set(deeds)) != len(deeds):
        return refuse("bad_offer", f"{what}: expected one or more different deeds", command=what)
    for deed in deeds:
        if s.owner.get(deed) != d.debtor:
            return refuse("deed_not_yours", f"{what}: deed {deed!r} is not {d.debtor}'s", command=what,
                          deed=repr(deed), player=d.debtor, owner=s.owner.get(deed, BANK) if isinstance(deed, int)
                          else BANK)
        colour = ed.deeds[deed].colour
        if any(s.level.get(m) for m in ed.colour_sets[colour]):
            return refuse("set_has_buildings", f"{what}: sell the buildings of the {colour} set before handing "
                          f"deed {deed}", command=what, deed=deed, colour=colour)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= d.amount:
        return refuse("value_over_debt", f"{what}: the agreed value must be 1..{d.amount} (the debt), got "
                      f"{value!r}", command=what, value=repr(value), amount=d.amount)
    fees = sum(transfer_fee(s, ed, deed) for deed in deeds if deed in s.mortgaged)
    if s.ledger.balances[d.creditor] < fees:
        return refuse("short_of_cash", f"{what}: {d.creditor} cannot pay the transfer fees of {fees} on mortgaged "
                      "deeds", command=what, player=d.creditor, cash=s.ledger.balances[d.creditor], price=fees)
    return None


def do_pay_with_deeds(t: Table, cmd: PayWithDeeds) -> None:
    """The deeds change hands, the debt shrinks by the value; the creditor pays the fees of mortgaged deeds."""
    s, ed = t.state, t.edition
    creditor = s.debts[0].creditor
    mortgaged = [d for d in cmd.deeds if d in s.mortgaged]
    t.emit(cev.DebtPaidInDeeds, cmd.player, creditor, cmd.deeds, cmd.value)
    for d in mortgaged:
        fee = transfer_fee(s, ed, d)
        if fee:
            t.emit(cev.MortgageFeePaid, creditor, d, fee)


def check_timeout(s: ClassicState, ed: Edition, cmd: TimeOut) -> Refusal | None:
    """TimeOut: the option, and the player whose action was timed: the turn's (roll, phase play), the head
    debtor (pay) or the partner of the open offer (deal)."""
    what = "TimeOut"
    if not s.options.action_timers:
        return option_off("action_timers", what)
    if cmd.action not in ACTIONS:
        return refuse("bad_action", f"{what}: expected one of {ACTIONS}, got {cmd.action!r}", command=what,
                      action=repr(cmd.action))
    reason = check_player(s, cmd.player, what)
    if reason:
        return reason
    if cmd.action == "roll":
        reason = check_phase(s, "play", what)
        waited = s.turn
    elif cmd.action == "pay":
        reason = check_phase(s, "debt", what)
        waited = s.debts[0].debtor if s.debts else None
    else:
        reason = None if s.trade is not None else refuse("no_trade", f"{what}: no offer is open", command=what)
        waited = s.trade.partner if s.trade is not None else None
    if reason:
        return reason
    if cmd.player != waited:
        return refuse("not_timed_player", f"{what}: the table waits for {waited} to {cmd.action}, not {cmd.player}",
                      command=what, player=cmd.player, waited=str(waited), action=cmd.action)
    return None


def do_timeout(t: Table, cmd: TimeOut) -> None:
    """The offer lapses (deal); otherwise the player goes bankrupt: to the creditor of the debt, or the Bank."""
    s = t.state
    t.emit(cev.ActionTimedOut, cmd.player, cmd.action)
    if cmd.action == "deal":
        t.emit(cev.TradeCancelled, cmd.player)
        return
    if cmd.action == "pay":
        go_bankrupt(t, cmd.player, s.debts[0].creditor, s.debts[0].amount)
    else:
        go_bankrupt(t, cmd.player, BANK, 0)
