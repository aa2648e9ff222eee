"""The banker's side of the ruleset seam: a ruleset's rows and handlers, loaded by the name its record gives.

A ruleset's record (engine/rulesets/api.py) names the module of its banker plug-in in ``gestures`` (e.g.
``engine.rulesets.ultimate.gestures``), which exports ``ROWS`` (a :class:`~engine.banker.table.RulesetRows`)
and ``HANDLERS`` (the modules of handler functions those rows name). The banker imports it here, by name,
so nothing in the banker's own modules imports a ruleset's. It may also export ``VIEW``
(:class:`~engine.banker.hooks.RulesetView`), its hooks into the banker's view.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from engine.banker.hooks import NO_HOOKS, RulesetView
from engine.banker.table import Row, RulesetRows, build_table, machine_kwargs, one_trigger_rows
from engine.errors import EditionError
from engine.rulesets.registry import get_ruleset


@cache
def ruleset_part(ruleset: str) -> tuple[RulesetRows, tuple[ModuleType, ...]]:
    """``ruleset``'s rows and handler modules; :class:`EditionError` when it brings none for the banker."""
    module_name = get_ruleset(ruleset).gestures
    if not module_name:
        raise EditionError(f"ruleset {ruleset!r} has no gestures for the banker yet")
    module = importlib.import_module(module_name)
    rows, handlers = getattr(module, "ROWS", None), getattr(module, "HANDLERS", None)
    if not isinstance(rows, RulesetRows) or not isinstance(handlers, tuple):
        raise EditionError(f"{module_name} must export ROWS (RulesetRows) and HANDLERS (a tuple of modules)")
    return rows, handlers


@cache
def view_part(ruleset: str) -> RulesetView:
    """``ruleset``'s hooks into the view (none: the shared view); the plug-in's ``VIEW`` if it has one."""
    module_name = get_ruleset(ruleset).gestures
    if not module_name:
        return NO_HOOKS
    hooks = getattr(importlib.import_module(module_name), "VIEW", None)
    return hooks if isinstance(hooks, RulesetView) else NO_HOOKS


def wealth_of(game: Any, player: str) -> int:
    """``player``'s wealth in ``game`` (money units), as the ruleset's plug-in counts it."""
    hook = view_part(game.edition.ruleset).wealth
    if hook is None:
        return int(game.state.wealth(player))
    return hook(game.state, game.edition, player)


def table_for(ruleset: str) -> list[Row]:
    """The whole table of the banker for ``ruleset``: the shared rows with the ruleset's in their places."""
    return build_table(ruleset_part(ruleset)[0])


def transitions_for(ruleset: str) -> list[Row]:
    """:func:`table_for` with one trigger per row, as the ``transitions`` machine takes it."""
    return one_trigger_rows(table_for(ruleset))


def machine_kwargs_for(ruleset: str) -> dict[str, Any]:
    """How the banker's machine for ``ruleset`` is built (the diagram builds its GraphMachine the same way)."""
    return machine_kwargs(table_for(ruleset))
