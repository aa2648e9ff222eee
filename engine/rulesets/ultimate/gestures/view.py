"""Ultimate Banking's hooks into the banker's view (engine/banker/hooks.py): the command that answers an
event card, and the money its own events move (the Location fee, a deed returned to the Bank), for the
last-payment banner. Amounts are ``int`` in the edition's money unit."""

from __future__ import annotations

from typing import Any

from engine.banker.hooks import RulesetView
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate import events as uev


def event_answer(player: str, answer: tuple[str | int, ...]) -> uc.ResolveEvent:
    """The command answering the pending event card with ``answer``."""
    return uc.ResolveEvent(player, answer)


def money(event: Any) -> tuple[int, str | None, str | None] | None:
    """(amount, payer, payee) of the ruleset's own money events (None: the Bank), else None."""
    if isinstance(event, uev.LocationUsed):
        return event.fee, event.player, None
    if isinstance(event, uev.DeedReturned):
        return event.price, None, event.player
    return None


VIEW = RulesetView(event_answer=event_answer, money=money)
"""Ultimate Banking's view hooks (its wealth, board and prompts are the shared ones)."""
