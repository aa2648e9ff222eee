"""Debt (Ultimate Banking): the debtor taps deeds to return (at the printed price) until the debt is
covered, or goes bankrupt."""

from __future__ import annotations

from transitions import EventData

from engine.banker.binding import gesture_command
from engine.banker.context import Context
from engine.rulesets.ultimate import commands as uc


def _return_command(ctx: Context, event: EventData) -> uc.ReturnDeed | None:
    debt = ctx.st().debt if ctx.durable else None
    deed = ctx.input_deed(event)
    return None if debt is None or deed is None else uc.ReturnDeed(debt.debtor, deed)


can_return, do_return = gesture_command(_return_command, __name__)


def phase_debt(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("debt")
