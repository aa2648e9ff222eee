"""Binding the table's handler names: every public function of the handler modules, handed the context.

The table (:mod:`engine.banker.table`) names its conditions and callbacks by string; transitions resolves
a string against the machine's model. :func:`bind` sets each public function *defined* in the handler
modules (not those they import) as an attribute of the model under its own name,
``functools.partial(fn, ctx)``. A gesture that ends in one command has its condition and callback made by
:func:`gesture_command` (or :func:`deed_command`), as the handler module's own. It refuses (:class:`BankerError`) a name defined by two modules, one that
would hide an attribute of the model's class, and a name of the table that no module defines.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from functools import partial
from types import ModuleType
from typing import Any

from engine.banker.context import Context
from engine.banker.table import BankerState
from engine.errors import EngineError, IllegalCommand


class BankerError(EngineError, ValueError):
    """A bad call to the banker itself (not a mistake at the table, which is a refused reaction)."""


def handler_functions(modules: Iterable[ModuleType]) -> dict[str, Callable[..., Any]]:
    """Name -> function: the public functions defined in ``modules`` (not those they import).

    Raises :class:`BankerError` when two modules define the same name.
    """
    found: dict[str, Callable[..., Any]] = {}
    where: dict[str, str] = {}
    for module in modules:
        for name, fn in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != module.__name__:
                continue
            if name in found:
                raise BankerError(f"handler {name!r} is defined twice: in {where[name]} and {module.__name__}")
            found[name], where[name] = fn, module.__name__
    return found


def names_in(table: Iterable[dict[str, Any]]) -> set[str]:
    """Every condition and callback name the rows of ``table`` use."""
    names: set[str] = set()
    for row in table:
        for key in ("conditions", "after"):
            value = row.get(key)
            names.update([value] if isinstance(value, str) else value or [])
    return names


def bind(model: object, ctx: Context, modules: Iterable[ModuleType], table: Iterable[dict[str, Any]]) -> None:
    """Each handler of ``modules`` as ``model.<name>`` = ``partial(fn, ctx)``, checked (see the module)."""
    functions = handler_functions(modules)
    for name, fn in functions.items():
        if hasattr(type(model), name) or name in vars(model):
            raise BankerError(f"handler {name!r} ({fn.__module__}) would hide the banker's own {name!r}")
        setattr(model, name, partial(fn, ctx))
    missing = sorted(names_in(table) - set(functions))
    if missing:
        raise BankerError(f"the table names handlers that no module defines: {', '.join(missing)}")


Handler = Callable[[Context, Any], Any]
"""A handler: ``fn(ctx, event)``, a condition (bool) or a callback (None)."""


def gesture_command(make: Callable[[Context, Any], Any], module: str) -> tuple[Handler, Handler]:
    """The condition and the callback of a gesture that ends in the one command ``make(ctx, event)`` makes
    (None while the gesture lacks a card or an answer): the condition asks the engine
    (:meth:`Context.may_apply`), the callback applies the command. ``module``: the ``__name__`` of the
    handler module that names them (``can_x, do_x = gesture_command(_x, __name__)``), so they bind as its
    own."""

    def can(ctx: Context, event: Any) -> bool:
        return ctx.may_apply(make(ctx, event))

    def do(ctx: Context, event: Any) -> None:
        cmd = make(ctx, event)
        if cmd is None:  # the condition let it through, so the gesture has made it
            raise IllegalCommand(f"the gesture has not made its command ({module})")
        ctx.apply(cmd)

    can.__module__ = do.__module__ = module
    return can, do


def deed_command(cls: Callable[[str, int], Any], module: str) -> tuple[Handler, Handler]:
    """:func:`gesture_command` of ``cls(player, deed)``, the command of a deed gesture (a player card and a
    deed card: :meth:`Context.pair_command`)."""
    return gesture_command(lambda ctx, event: ctx.pair_command(cls, event), module)


RowIndex = dict[tuple[BankerState, str], tuple[Any, Any, list[tuple[Any, list[tuple[Any, bool]]]]]]
"""(state, trigger) -> the machine's own State, Event, and each row with its conditions resolved."""


def index_rows(model: object, machine: Any) -> RowIndex:
    """``machine``'s rows by (state, trigger), each condition resolved to the ``model``'s bound handler and
    its target, so ``may()`` evaluates them as transitions' ``Condition.check`` does (``send_event=True``)."""
    return {
        (member, name): (
            machine.get_state(member),
            event,
            [(row, [(getattr(model, cond.func) if isinstance(cond.func, str) else cond.func, cond.target)
                    for cond in row.conditions])
             for row in event.transitions[member.name]],
        )
        for name, event in machine.events.items()
        for member in BankerState
        if event.transitions.get(member.name)
    }
