"""Paying a player creditor partly with deeds at the table (classic, option ``pay_debt_with_deeds``;
docs/rules-classic.md 9, docs/flows.md "Paying a creditor with deeds"; seed 000 l. 73).

In a debt to a player: Pay with deeds, the debtor's card, the deeds tapped (a deed tapped again comes
off), the value both agreed on the keypad (``choose N``, money units), and the creditor's card confirms:
that is ``PayWithDeeds``. The creditor's card before the debtor's, a deed that is not the debtor's or
stands on a built set, a value over the debt: each refused with its reason, the gesture kept. X leaves it
(the debt stays, nothing changed)."""

from __future__ import annotations

from transitions import EventData

from engine.banker.context import Context, Refusal, input_value, refusal_params
from engine.numbers import parse_count
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.gestures.base import cst
from engine.state import DebtState

ACTION = "pay_deeds"
_START_OK = frozenset({"bad_offer", "value_over_debt"})  # a probe with no deeds: the option and the creditor hold


def _debt(ctx: Context) -> DebtState | None:
    return cst(ctx).debt if ctx.durable is not None else None


def _command(ctx: Context) -> cc.PayWithDeeds | None:
    debt = _debt(ctx)
    if debt is None:
        return None
    return cc.PayWithDeeds(debt.debtor, tuple(sorted(ctx.gesture.deal_deeds)), ctx.gesture.total)


def _refuse(ctx: Context, reason: object) -> bool:
    ctx.refusal = Refusal("error.rule", refusal_params(reason, "PayWithDeeds"))  # type: ignore[arg-type]
    return False


def can_start_deed_payment(ctx: Context, event: EventData) -> bool:
    """The option is on and the debt is to a player (a probe with no deeds says so)."""
    debt = _debt(ctx)
    if debt is None or ctx.durable is None:
        return False
    reason = ctx.durable.game.check(cc.PayWithDeeds(debt.debtor, (), 0))
    if reason is not None and getattr(reason, "key", "") not in _START_OK:
        return _refuse(ctx, reason)
    return True


def start_deed_payment(ctx: Context, event: EventData) -> None:
    ctx.forget_gesture()
    ctx.gesture.action = ACTION


def in_deed_payment(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.action == ACTION and ctx.phase_is("debt")


def is_debtor_card(ctx: Context, event: EventData) -> bool:
    """The debtor's card, first in the gesture (the creditor's before it is refused)."""
    debt, pid = _debt(ctx), ctx.input_player(event)
    if debt is None or ctx.gesture.player is not None:
        return False
    if pid != debt.debtor:
        ctx.refusal = Refusal("error.debtor_card_first", {"player": pid or "", "debtor": debt.debtor})
        return False
    return True


def note_debtor(ctx: Context, event: EventData) -> None:
    ctx.gesture.player = ctx.input_player(event)


def can_toggle_debt_deed(ctx: Context, event: EventData) -> bool:
    """A deed of the debtor's on a bare set (after the debtor's card): it goes on the list or comes off."""
    debt, deed = _debt(ctx), ctx.input_deed(event)
    if debt is None or deed is None or ctx.durable is None:
        return False
    if ctx.gesture.player is None:
        ctx.refusal = Refusal("error.debtor_card_first", {"player": "", "debtor": debt.debtor})
        return False
    reason = ctx.durable.game.check(cc.PayWithDeeds(debt.debtor, (deed,), 1))
    if reason is not None and getattr(reason, "key", "") in ("deed_not_yours", "set_has_buildings", "unknown_deed"):
        return _refuse(ctx, reason)
    return True


def toggle_debt_deed(ctx: Context, event: EventData) -> None:
    deed = ctx.input_deed(event)
    assert deed is not None
    deeds = ctx.gesture.deal_deeds
    if deed in deeds:
        deeds.remove(deed)
    else:
        deeds.append(deed)


def debt_value_valid(ctx: Context, event: EventData) -> bool:
    """The agreed value on the keypad: a whole number of money units (the engine checks it against the debt)."""
    if parse_count(str(input_value(event))) is None:
        ctx.refusal = Refusal("error.deed_value", {"value": str(input_value(event))})
        return False
    return True


def set_debt_value(ctx: Context, event: EventData) -> None:
    value = parse_count(str(input_value(event)))
    assert value is not None
    ctx.gesture.total = value


def creditor_confirms(ctx: Context, event: EventData) -> bool:
    """The creditor's card, after the debtor's: the deeds and the value as agreed, if the engine accepts."""
    debt, pid = _debt(ctx), ctx.input_player(event)
    if debt is None or ctx.gesture.player is None:
        return False
    if pid != debt.creditor:
        ctx.refusal = Refusal("error.not_creditor", {"player": pid or "", "creditor": debt.creditor})
        return False
    cmd = _command(ctx)
    return cmd is not None and ctx.allowed(cmd)


def do_pay_with_deeds(ctx: Context, event: EventData) -> None:
    cmd = _command(ctx)
    assert cmd is not None
    ctx.forget_gesture()
    ctx.apply(cmd)


def leave_deed_payment(ctx: Context, event: EventData) -> None:
    ctx.forget_gesture()
