"""The banker's ``transitions`` machine with a quieter transition: the same rows, the same order, the same
conditions and callbacks, without the library's debug and info logging around each row tried.

For one input the machine tries the rows of the current state for its trigger in order until one's
conditions hold (after a command, ``settle`` tries a dozen rows from IDLE); the library logs three debug
lines for each row it tries, whose cost is most of a row's own when its first condition fails. A
:class:`QuietTransition` checks the conditions itself and runs the library's own ``execute`` whenever it
could do anything more: a row with ``prepare`` callbacks, or the library's logger enabled for info or debug
(then everything is logged as before). ``transition_cls`` is the library's documented place for such a class.
"""

from __future__ import annotations

import itertools
import logging
from typing import Any

from transitions import Machine, Transition

_LOGGER = logging.getLogger("transitions.core")


class QuietTransition(Transition):
    """``transitions.Transition`` whose ``execute`` logs nothing unless its logger is enabled for info."""

    _resolved: tuple[object, list[tuple[Any, Any]], list[Any]] | None = None
    """(model, each condition's callable and target, each after callback's callable), resolved at first use."""

    def execute(self, event_data: Any) -> bool:
        """As ``Transition.execute``: False when a condition fails, else the before callbacks, the change of
        state (a ``dest`` of None stays) and the after callbacks (those of the machine too), and True. The
        names of the conditions and callbacks are resolved against the model once (the banker binds its
        handlers before it builds the machine, and builds a new machine when it binds others)."""
        machine = event_data.machine
        if self.prepare or not machine.send_event or _LOGGER.isEnabledFor(logging.INFO):
            return bool(super().execute(event_data))
        resolved = self._resolved
        if resolved is None or resolved[0] is not event_data.model:
            resolve = machine.resolve_callable
            resolved = self._resolved = (
                event_data.model, [(resolve(c.func, event_data), c.target) for c in self.conditions],
                [resolve(f, event_data) for f in itertools.chain(self.after, machine.after_state_change)])
        for predicate, target in resolved[1]:
            if predicate(event_data) != target:
                return False
        for func in itertools.chain(machine.before_state_change, self.before):
            machine.callback(func, event_data)  # (``Machine.callbacks`` without its info line per callback)
        if self.dest:
            self._change_state(event_data)
        for callback in resolved[2]:
            callback(event_data)
        return True


class BankerMachine(Machine):
    """``transitions.Machine`` whose rows are :class:`QuietTransition`."""

    transition_cls = QuietTransition
