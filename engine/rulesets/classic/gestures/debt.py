"""Debts at the table (classic; docs/rules-classic.md 9): the view shows what is owed and how much is still
short; the debtor taps deeds to raise money: a deed with buildings sells one back, a bare one is
mortgaged (each tap one command). Once the cash covers it, ✓ or the debtor's card pays it (``SettleDebt``);
Bankrupt gives up (``DeclareBankruptcy``: to a player, or to the Bank, whose lots are then auctioned)."""

from __future__ import annotations

from transitions import EventData

from engine.banker.binding import gesture_command
from engine.banker.context import Context, Refusal
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.gestures.base import cst


def _debtor(ctx: Context) -> str | None:
    debt = cst(ctx).debt if ctx.durable is not None else None
    return None if debt is None else debt.debtor


def _raise_command(ctx: Context, event: EventData) -> cc.SellBuilding | cc.MortgageDeed | None:
    debtor, deed = _debtor(ctx), ctx.input_deed(event)
    if debtor is None or deed is None or ctx.gesture.action == "pay_deeds":  # deeds for the creditor (debtdeeds.py)
        return None
    return cc.SellBuilding(debtor, deed) if cst(ctx).level.get(deed) else cc.MortgageDeed(debtor, deed)


can_raise, do_raise = gesture_command(_raise_command, __name__)


def is_debtor(ctx: Context, event: EventData) -> bool:
    if ctx.gesture.action == "pay_deeds":  # paying with deeds: the cards mean that gesture's (debtdeeds.py)
        return False
    pid = ctx.input_player(event)
    if pid is None or pid == _debtor(ctx):
        return True
    ctx.refusal = Refusal("error.not_debtor", {"player": pid, "debtor": _debtor(ctx) or ""})
    return False


def can_settle(ctx: Context, event: EventData) -> bool:
    debtor = _debtor(ctx)
    return debtor is not None and ctx.allowed(cc.SettleDebt(debtor))


def do_settle(ctx: Context, event: EventData) -> None:
    debtor = _debtor(ctx)
    assert debtor is not None
    ctx.apply(cc.SettleDebt(debtor))


def can_go_bankrupt(ctx: Context, event: EventData) -> bool:
    debtor = _debtor(ctx)
    return debtor is not None and ctx.allowed(cc.DeclareBankruptcy(debtor))


def do_go_bankrupt(ctx: Context, event: EventData) -> None:
    debtor = _debtor(ctx)
    assert debtor is not None
    ctx.apply(cc.DeclareBankruptcy(debtor))


def phase_debt(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("debt")
