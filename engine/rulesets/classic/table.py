"""The simulator's lean table: the classic rules and fold without the journal.

A :class:`SimTable` runs a command exactly as :class:`engine.game.Game` does (the same checks, the same rule
functions, the same events folded by the same fold) but keeps no event history, undo stack or
checkpoints, which a bot game never needs, and its events are light named tuples with the events' own
fields (the fold reads them alike; no ``seq`` or ``command``, which only a journal reads): that is most of
the cost of a command. A game that must be journaled or undone is played through ``Game`` instead
(``ClassicRunner(game=...)``); the tests check that both give the same game. Amounts are ``int`` in the
edition's money unit.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import fields
from typing import Any, Final

from engine.commands import Command, StartGame
from engine.editions import Edition
from engine.errors import IllegalCommand, Refusal, refuse
from engine.rulesets.classic.fold import FOLD
from engine.rulesets.classic.invariants import check_invariants
from engine.rulesets.classic.rules import RULES, rules_for
from engine.rulesets.classic.state import ClassicState

_LIGHT: Final[dict[type, Any]] = {}
_new_tuple: Final = tuple.__new__


_JOURNAL_FIELDS: Final = ("seq", "command")  # every event's first two fields: where it stands in a journal


def light(cls: type) -> Any:
    """A named tuple with the fields of event class ``cls`` but ``seq`` and ``command`` (three times cheaper
    to make than the frozen dataclass, and read the same way by the fold, which reads neither). The lean
    table emits these; ``Game`` emits the events."""
    found: Any = _LIGHT.get(cls)
    if found is None:
        found = _LIGHT[cls] = namedtuple(cls.__name__, [f.name for f in fields(cls) if f.name not in _JOURNAL_FIELDS])
    return found


_PLAN: Final[dict[type, tuple[Any, Any]]] = {cls: (light(cls), fold) for cls, fold in FOLD.items()}
"""Event class -> (its light maker, its fold function), for every event of the classic fold, made once."""


class SimTable:
    """One classic game: ``apply(cmd)`` checks and runs the rule, ``state`` is the fold of its events."""

    __slots__ = ("_checked", "_new", "_rules", "edition", "state")

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.state = ClassicState(edition)
        self._new: list[Any] = []
        self._rules = RULES  # after StartGame: the table of the game's options (rules_for), the same checks
        # the command that ``check`` accepted last, while nothing was applied since: the state is the one it
        # was checked against (it changes only in ``apply``), so ``apply`` of that very command checks nothing
        self._checked: Command | None = None

    def check(self, cmd: Command) -> Refusal | None:
        """Why ``cmd`` would be refused now (as ``Game.check``), or None."""
        rule = self._rules.get(type(cmd))
        what = type(cmd).__name__
        if rule is None:
            return refuse("unknown_command", f"expected a classic command, got {cmd!r}", command=what, got=repr(cmd))
        phase = self.state.phase
        if (phase == "over" or phase == "setup") and type(cmd) is not StartGame:
            if phase == "over":
                return refuse("game_over", f"{what}: the game is over; only Undo is possible", command=what)
            return refuse("game_not_started", f"{what}: expected StartGame first, the game is in phase setup",
                          command=what, phase=phase)
        reason = rule[0](self.state, self.edition, cmd)
        self._checked = cmd if reason is None else None
        return reason

    def apply(self, cmd: Command) -> list[Any]:
        """Run ``cmd``: its events, folded; :class:`IllegalCommand` if refused (nothing changes)."""
        rule = self._rules.get(type(cmd))
        phase = self.state.phase
        if cmd is self._checked and rule is not None:
            reason = None  # checked just now, against this very state
        elif rule is None or phase == "over" or phase == "setup":
            reason = self.check(cmd)
        else:
            reason = rule[0](self.state, self.edition, cmd)
        self._checked = None
        if reason is not None:
            raise IllegalCommand(reason)
        assert rule is not None
        new: list[Any] = []
        self._new = new
        rule[1](self, cmd)
        if type(cmd) is StartGame:
            self._rules = rules_for(self.state.options)
        return new

    def emit(self, cls: type, *fields: Any) -> None:
        """Create the next event (a light record with the event's fields, see :func:`light`) and fold it."""
        plan = _PLAN[cls]
        event = _new_tuple(plan[0], fields)
        plan[1](self.state, event)
        self._new.append(event)

    def invariants(self) -> list[str]:
        """The classic invariants of the state now."""
        return check_invariants(self.state, self.edition)
