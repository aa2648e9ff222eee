"""The simulator's lean table: the classic rules and fold without the journal.

A :class:`SimTable` runs a command exactly as :class:`engine.game.Game` does (the same checks, the same rule
functions, the same events folded by the same fold) but keeps no event history, undo stack or
checkpoints, which a bot game never needs, and its events are light named tuples with the events' fields
(the fold reads them alike): that is most of the cost of a command. A game that must be journaled or
undone is played through ``Game`` instead (``ClassicRunner(game=...)``); the tests check that both give
the same game. Amounts are ``int`` in the edition's money unit.
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


def light(cls: type) -> Any:
    """A named tuple with the fields of event class ``cls`` (three times cheaper to make than the frozen
    dataclass, and read the same way by the fold). The lean table emits these; ``Game`` emits the events."""
    found: Any = _LIGHT.get(cls)
    if found is None:
        found = _LIGHT[cls] = namedtuple(cls.__name__, [f.name for f in fields(cls)])
    return found


_PLAN: Final[dict[type, tuple[Any, Any]]] = {cls: (light(cls), fold) for cls, fold in FOLD.items()}
"""Event class -> (its light maker, its fold function), for every event of the classic fold, made once."""


class SimTable:
    """One classic game: ``apply(cmd)`` checks and runs the rule, ``state`` is the fold of its events."""

    __slots__ = ("_command", "_new", "_rules", "_seq", "edition", "state")

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.state = ClassicState(edition)
        self._seq = 0
        self._command = 0
        self._new: list[Any] = []
        self._rules = RULES  # after StartGame: the table of the game's options (rules_for), the same checks

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
        return rule[0](self.state, self.edition, cmd)

    def apply(self, cmd: Command) -> list[Any]:
        """Run ``cmd``: its events, folded; :class:`IllegalCommand` if refused (nothing changes)."""
        rule = self._rules.get(type(cmd))
        phase = self.state.phase
        if rule is None or phase == "over" or phase == "setup":
            reason = self.check(cmd)
        else:
            reason = rule[0](self.state, self.edition, cmd)
        if reason is not None:
            raise IllegalCommand(reason)
        assert rule is not None
        self._command += 1
        new: list[Any] = []
        self._new = new
        rule[1](self, cmd)
        if type(cmd) is StartGame:
            self._rules = rules_for(self.state.options)
        return new

    def emit(self, cls: type, *fields: Any) -> None:
        """Create the next event (a light record with the event's fields, see :func:`light`) and fold it."""
        self._seq += 1
        plan = _PLAN[cls]
        event = _new_tuple(plan[0], (self._seq, self._command) + fields)  # noqa: RUF005 (one tuple, not a list; mypyc)
        plan[1](self.state, event)
        self._new.append(event)

    def invariants(self) -> list[str]:
        """The classic invariants of the state now."""
        return check_invariants(self.state, self.edition)
