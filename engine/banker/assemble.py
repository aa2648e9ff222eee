"""Assembling the banker's machine for one ruleset, and swapping it for another ruleset's.

The banker (:class:`~engine.banker.machine.Banker`) is the machine's model: :func:`assemble` binds the
shared handlers and the ruleset's (engine/banker/binding.py), builds the ``transitions`` machine
(engine/banker/quiet.py) over the shared rows with the ruleset's in their places (engine/banker/table.py)
and indexes its rows for ``may()``. It returns the names it put on the model, so the next call (the table chose the other game
in setup, or a saved game of the other ruleset was resumed) first removes them: handlers, triggers and
``may_*`` of one ruleset never linger in the other's table.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from engine.banker.binding import RowIndex, bind, index_rows
from engine.banker.context import Context
from engine.banker.gestures import SHARED_HANDLERS
from engine.banker.plugins import ruleset_part
from engine.banker.quiet import BankerMachine
from engine.banker.table import RulesetRows, build_table, machine_kwargs

Given = tuple[RulesetRows | None, Iterable[ModuleType] | None]
"""A caller's own (rows, handlers), each None for the ruleset's own (tests pass both)."""


def assemble(model: object, ctx: Context, ruleset: str, given: Given,
             bound: set[str]) -> tuple[BankerMachine, RowIndex, set[str]]:
    """Remove the ``bound`` names of the last assembly from ``model``, then bind and build ``ruleset``'s
    machine (``given`` rows/handlers first); returns the machine, its row index and the names now bound."""
    for name in bound:
        delattr(model, name)
    rows, handlers = given
    if rows is None or handlers is None:  # the ruleset brings its own (engine/banker/plugins.py)
        own_rows, own_handlers = ruleset_part(ruleset)
        rows, handlers = rows or own_rows, own_handlers if handlers is None else handlers
    before = set(vars(model))
    table = build_table(rows)
    bind(model, ctx, [*SHARED_HANDLERS, *handlers], table)
    machine = BankerMachine(model=model, after_state_change="mark_fired", **machine_kwargs(table))
    return machine, index_rows(model, machine), set(vars(model)) - before - {"machine", "state"}
