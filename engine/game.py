"""The game aggregate: commands in, frozen events out, state = fold of events (docs/engine-api.md).

``Game.apply(cmd)`` checks the command against the rules of the edition's ruleset (found through
engine/rulesets/registry.py), then runs the rule, which emits events; each event is numbered (``seq``, ``command``) and folded into the state at once (the ruleset's fold),
so the live state is exactly ``Game.replay(edition, events)``. All or nothing: a refused command raises
:class:`IllegalCommand` and changes nothing.

Undo: the fold keeps the stack of commands still in force with their events, and a copy of the state
every ``CHECKPOINT_EVERY`` commands of that stack (a few small dicts). ``Undo()`` appends
``CommandUndone(undone=n)``; the fold pops command ``n`` and rebuilds the state from the nearest checkpoint
by folding the few commands after it, so deck order, auction, debt, everything is restored. A further
``Undo()`` walks one more command back. Nothing is deleted from the event list, and a replay rebuilds the
same stack. The cost per command is one list append; an undo folds at most ``CHECKPOINT_EVERY`` commands.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from engine import events as ev
from engine.commands import Command, StartGame, Undo
from engine.editions import Edition
from engine.errors import IllegalCommand, RecordError, Refusal, refuse
from engine.frozen import MAKERS
from engine.rulesets.api import Check, Do, Ruleset
from engine.rulesets.registry import get_ruleset

CHECKPOINT_EVERY = 32  # commands between two state copies kept for undo


_Emitters = dict[type, tuple[Callable[[int, int, tuple[Any, ...]], Any], Callable[[Any, Any], None]]]
_EMITTERS: dict[int, tuple[Mapping[type, Any], _Emitters]] = {}  # id(fold) -> (fold, its emitters)


def _emitters(fold: Mapping[type, Callable[[Any, Any], None]]) -> _Emitters:
    """Event class -> (what makes its events from ``(seq, command, fields)``, its fold), for each event type
    of the ruleset's ``fold``: the maker is the quicker one of engine/frozen.py, else a call of the class
    (the same events either way); made once per fold."""
    known = _EMITTERS.get(id(fold))
    if known is None or known[0] is not fold:
        known = _EMITTERS[id(fold)] = (fold, {cls: (MAKERS.get(cls) or _caller(cls), f) for cls, f in fold.items()})
    return known[1]


def _caller(cls: type) -> Callable[[int, int, tuple[Any, ...]], Any]:
    """``(seq, command, fields) -> cls(seq, command, *fields)``: the maker of a class without a quicker one."""
    return lambda seq, command, fields: cls(seq, command, *fields)


class Game:
    """One game of one edition. Amounts are ``int`` in the edition's money unit."""

    __slots__ = (
        "_checkpoints",
        "_command",
        "_edition",
        "_emitters",
        "_events",
        "_fold_table",
        "_folded_command",
        "_new",
        "_rules",
        "_rules_for",
        "_ruleset",
        "_stack",
        "_state",
    )

    def __init__(self, edition: Edition) -> None:
        self._edition = edition
        self._ruleset = ruleset = get_ruleset(edition.ruleset)
        self._rules = ruleset.rules  # after StartGame and Undo: the started game's table (_retable)
        self._rules_for = ruleset.rules_for
        self._fold_table = ruleset.fold
        self._emitters = _emitters(ruleset.fold)
        self._state = ruleset.new_state(edition)
        self._events: list[ev.Event] = []
        self._new: list[ev.Event] = []
        self._stack: list[tuple[int, list[ev.Event]]] = []  # commands in force (undoable): number, events
        self._checkpoints: dict[int, Any] = {0: ruleset.new_state(edition)}  # stack depth -> state at it
        self._command = 0  # number of the last accepted command
        self._folded_command = 0  # command number of the last folded event

    # -- reading -------------------------------------------------------------------------------------
    if TYPE_CHECKING:
        @property
        def edition(self) -> Edition:
            """The edition this game is played with."""

        @property
        def state(self) -> Any:
            """The current state (read it, never change it)."""
    else:  # the same read-only properties, read without a Python call (the rules read them at every step)
        edition = property(attrgetter("_edition"), doc="The edition this game is played with.")
        state = property(attrgetter("_state"), doc="The current state (read it, never change it).")

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset this game is played by (the edition's)."""
        return self._ruleset

    @property
    def events(self) -> tuple[ev.Event, ...]:
        """Every event so far, in order."""
        return tuple(self._events)

    @property
    def commands_applied(self) -> int:
        """How many commands were accepted (the ``command`` number of the last events)."""
        return self._command

    def in_force(self, last: int | None = None) -> tuple[tuple[int, tuple[ev.Event, ...]], ...]:
        """The commands still in force (not undone), oldest first, each as (its number, its events); only
        the ``last`` ones when given. The first is the one ``Undo`` reverses last, the last the next one."""
        stack = self._stack if last is None else self._stack[-last:] if last > 0 else []
        return tuple((number, tuple(events)) for number, events in stack)

    def invariants(self) -> list[str]:
        """Problems with the state (empty = healthy): the ruleset's invariants (engine/invariants.py)."""
        return self._ruleset.invariants(self._state, self._edition)

    # -- commands ------------------------------------------------------------------------------------
    def check(self, cmd: Command) -> Refusal | None:
        """Why ``cmd`` would be refused now (the English sentence, with ``key`` and ``params``: see
        engine/errors.py), or ``None`` if it would be accepted. Changes nothing."""
        return self._check(cmd, self._rules.get(type(cmd)))

    def _check(self, cmd: Command, rule: tuple[Check, Do] | None) -> Refusal | None:
        if rule is None:
            if type(cmd) is Undo:
                if self._stack:
                    return None
                return refuse("nothing_to_undo", "Undo: expected an earlier command to undo, there is none",
                              command="Undo")
            what = type(cmd).__name__  # in words: e.g. a correction the classic rules do not offer
            return refuse("unknown_command", f"{what}: the {self._edition.ruleset} rules do not offer it "
                          f"(expected a command of this game's rules)", command=what, got=repr(cmd)[:120])
        s = self._state
        phase = s.phase
        if (phase == "over" or phase == "setup") and type(cmd) is not StartGame:
            what = type(cmd).__name__
            if phase == "over":
                return refuse("game_over", f"{what}: the game is over; only Undo is possible", command=what)
            return refuse("game_not_started", f"{what}: expected StartGame first, the game is in phase setup",
                          command=what, phase=phase)
        try:
            return rule[0](s, self._edition, cmd)
        except (AttributeError, TypeError, KeyError) as exc:  # a malformed command (wrong field types)
            what = type(cmd).__name__
            return refuse("malformed_command", f"{what}: malformed command {cmd!r} ({exc})",
                          command=what, got=repr(cmd), error=str(exc))

    def apply(self, cmd: Command) -> tuple[ev.Event, ...]:
        """Apply ``cmd``: its events, numbered and folded; :class:`IllegalCommand` if refused (no change)."""
        rule = self._rules.get(type(cmd))
        phase = self._state.phase
        if rule is None or phase == "over" or phase == "setup":
            reason = self._check(cmd, rule)
        else:  # the common case of _check, inline: a command of the ruleset in a game under way
            try:
                reason = rule[0](self._state, self._edition, cmd)
            except (AttributeError, TypeError, KeyError):
                reason = self._check(cmd, rule)
        if reason is not None:
            raise IllegalCommand(reason)
        self._command += 1
        n_events = len(self._events)
        try:
            if rule is None:  # Undo: folded by the game itself (it pops the stack and rebuilds the state)
                undone = ev.CommandUndone(n_events + 1, self._command, self._stack[-1][0])
                self._fold(undone)
                new: list[ev.Event] = [undone]
            else:
                # the command's entry on the undo stack is opened here, so that emit only appends; the
                # checkpoint of this depth (if due) is the state before the command, as in _fold
                stack = self._stack
                depth = len(stack)
                if depth % CHECKPOINT_EVERY == 0 and depth not in self._checkpoints:
                    self._checkpoints[depth] = self._state.copy()
                new = self._new = []
                stack.append((self._command, new))
                self._folded_command = self._command
                rule[1](self, cmd)
                if not new:  # a command without events leaves no entry (as a replay of its events)
                    stack.pop()
            if rule is None or type(cmd) is StartGame:
                self._retable()
        except BaseException:
            # a defect in a rule: rebuild everything from the events before this command, then re-raise
            before = Game.replay(self._edition, self._events[:n_events])
            self._state.assign(before._state)
            self._events, self._stack = before._events, before._stack
            self._checkpoints, self._folded_command = before._checkpoints, before._folded_command
            self._command -= 1
            self._retable()
            raise
        return tuple(new)

    def preview(self, cmd: Command) -> tuple[ev.Event, ...]:
        """The events ``cmd`` would make now, made on a twin of this game (this one is unchanged);
        :class:`IllegalCommand` if refused. For a step that asks before a command (the banker's questions)."""
        twin = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._state = self._state.copy()
        twin._events = list(self._events)
        twin._stack = list(self._stack)
        twin._checkpoints = dict(self._checkpoints)
        return twin.apply(cmd)

    def _retable(self) -> None:
        """The rule table for the state now: the ruleset's table for a started game (``rules_for``: the
        same refusals and events, less idle work), else its full one."""
        self._rules = self._ruleset.rules
        if self._rules_for is not None and self._state.phase != "setup":
            self._rules = self._rules_for(self._state)

    def emit(self, cls: type, *fields: Any) -> None:
        """Create the next event of the current command and fold it (used by the rules)."""
        make, fold = self._emitters[cls]
        events = self._events
        event = make(len(events) + 1, self._command, fields)
        fold(self._state, event)
        events.append(event)
        self._new.append(event)  # the command's entry on the undo stack (opened by apply)

    def _fold(self, event: ev.Event) -> None:
        if event.command != self._folded_command:
            self._folded_command = event.command
            if type(event) is ev.CommandUndone:
                self._undo(event)
                self._events.append(event)
                return
            depth = len(self._stack)
            if depth % CHECKPOINT_EVERY == 0 and depth not in self._checkpoints:
                self._checkpoints[depth] = self._state.copy()
            self._stack.append((event.command, []))
        self._fold_table[type(event)](self._state, event)
        self._stack[-1][1].append(event)
        self._events.append(event)

    def _undo(self, event: ev.CommandUndone) -> None:
        """Pop the last command in force and rebuild the state from the nearest checkpoint."""
        if not self._stack:
            raise IllegalCommand(refuse(
                "replay_nothing_to_undo", f"CommandUndone: expected a command in force to undo, there is none: {event!r}",
                command="CommandUndone", event=repr(event)))
        number, _ = self._stack.pop()
        if number != event.undone:
            raise IllegalCommand(refuse(
                "replay_undo_mismatch", f"CommandUndone: expected to undo command {number}, got {event.undone}",
                command="CommandUndone", expected=number, got=event.undone))
        depth = len(self._stack)
        base = depth - depth % CHECKPOINT_EVERY
        for stale in [d for d in self._checkpoints if d > depth]:
            del self._checkpoints[stale]
        state = self._checkpoints[base].copy()
        fold = self._fold_table
        for _, events in self._stack[base:]:
            for e in events:
                fold[type(e)](state, e)
        self._state.assign(state)

    # -- replay --------------------------------------------------------------------------------------
    @classmethod
    def replay(cls, edition: Edition, events: Iterable[ev.Event]) -> Game:
        """The game rebuilt from its events (the fold only; no rule is run).

        Raises :class:`RecordError` if the events are not numbered 1, 2, ... with non-decreasing command
        numbers (a damaged journal), and :class:`IllegalCommand` for an undo of nothing.

        The cyclic garbage collector is paused during the fold (and resumed as it was): the fold makes no
        reference cycles, but the collector's passes over the long-lived events of a long game took more
        than half of the fold's time (100,000 events: 0.32 s with it, 0.13 s without)."""
        game = cls(edition)
        collecting = gc.isenabled()
        gc.disable()
        try:
            done, fold, state, stack = game._events, game._fold_table, game._state, game._stack
            for event in events:
                command = event.command
                if event.seq != len(done) + 1 or command < game._command:
                    raise RecordError(
                        f"expected event {len(done) + 1} of command >= {game._command}, "
                        f"got seq {event.seq} of command {command}: {event!r}")
                if command == game._folded_command:  # a further event of the same command (as in _fold)
                    fold[type(event)](state, event)
                    stack[-1][1].append(event)
                    done.append(event)
                else:
                    game._fold(event)
                game._command = command
        finally:
            if collecting:
                gc.enable()
        game._retable()
        return game
