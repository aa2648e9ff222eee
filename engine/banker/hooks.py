"""What a ruleset's banker plug-in may add to the banker's view: its players' wealth, its board spaces, its
prompts and its parts of the view-model (docs/flows.md).

A plug-in module (engine/banker/plugins.py) may export ``VIEW``, a :class:`RulesetView`; each hook is
optional, and without one the banker shows what the shared state gives (the ruleset's state read through the
attributes both rulesets' states have). Amounts are
``int`` in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.banker.viewmodel import Prompt, SpaceView

Wealth = Callable[[Any, Any, str], int]
"""``wealth(state, edition, player)``: what the wealth chart and the player list show, in money units."""
Space = Callable[[Any, Any, int, SpaceView], SpaceView]
"""``space(state, edition, deed, base)``: the board space of an owned ``deed`` (``base``: its static view)."""
PromptHook = Callable[[Any, Any], "Prompt | None"]
"""``prompt(ctx, banker_state)``: the ruleset's prompt for that state, or None for the shared one."""
Fields = Callable[[Any, Any], "dict[str, Any]"]
"""``fields(ctx, banker_state)``: view-model fields the ruleset sets (names of :class:`ViewModel` fields)."""
EventAnswer = Callable[[str, "tuple[str | int, ...]"], Any]
"""``event_answer(player, answer)``: the ruleset's command answering its pending event card (``Game.check``-ed
to offer only the answers it accepts)."""
Money = Callable[[Any], "tuple[int, str | None, str | None] | None"]
"""``money(event)``: (amount, payer, payee) of one of the ruleset's own events that moves money (money units;
``"bank"`` or None for the Bank), for the last-payment banner; None for any other event."""


@dataclass(frozen=True)
class RulesetView:
    """A ruleset's hooks into the banker's view (each None: the shared behaviour)."""

    wealth: Wealth | None = None
    space: Space | None = None
    prompt: PromptHook | None = None
    fields: Fields | None = None
    event_answer: EventAnswer | None = None
    money: Money | None = None


NO_HOOKS = RulesetView()

