"""What a ruleset provides: the :class:`Ruleset` record, and the protocols its parts are written against.

A ruleset is a folder under ``engine/rulesets/`` whose package exports ``RULESET = Ruleset(...)``; the
registry (:mod:`engine.rulesets.registry`) finds it by the name an edition file gives. A ruleset imports
the engine's core (commands, events, state, ledger, editions, errors, options) and this module, never
another ruleset and never the banker: the banker's rows and gesture handlers it brings are plain data and
functions of a :class:`GestureContext`, which the banker implements.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from engine.errors import Refusal, refuse
from engine.options import RuleOptions

# The editions module looks rulesets up through the registry, which imports this module: so this module
# does not import the editions module back (not even for the type checker), and an edition, its reader and
# its deeds (engine/editions.py's Edition, EditionReader, Deed) are ``Any`` in the signatures below.
Edition = Any
EditionReader = Any
Deed = Any

Check = Callable[[Any, Any, Any], "Refusal | None"]
"""``check(state, edition, command)``: why the command is refused now (nothing changes), or None."""
Do = Callable[[Any, Any], None]
"""``do(table, command)``: emits the command's events through ``table.emit`` (only after the check passed)."""
Fold = Callable[[Any, Any], None]
"""``fold(state, event)``: the one way an event changes the state."""


class State(Protocol):
    """What the game needs of a ruleset's state (the rules and folds know the rest)."""

    phase: str

    def copy(self) -> Any: ...

    def assign(self, other: Any) -> None: ...

    def snapshot(self) -> dict[str, object]: ...


StateT = TypeVar("StateT", covariant=True)


class Table(Protocol[StateT]):
    """The game as a rule sees it: the state, the edition, and ``emit(EventClass, *fields)``, which folds
    the event into ``state`` at once (a rule reads the state after each event it emits). Each ruleset names
    its own, e.g. ``Table[ClassicState]``."""

    @property
    def state(self) -> StateT: ...

    @property
    def edition(self) -> Edition: ...

    def emit(self, cls: type, *fields: Any) -> None: ...


class Phased(Protocol):
    """A ruleset's state as :func:`check_phase` reads it."""

    @property
    def phase(self) -> str: ...


class Seats(Phased, Protocol):
    """What the shared checks and turn order read of a ruleset's state: the phase, the players registered
    (``specs`` by id, ``order`` of play), who went bankrupt and whose turn it is."""

    @property
    def specs(self) -> Mapping[str, Any]: ...

    @property
    def order(self) -> tuple[str, ...]: ...

    @property
    def bankrupt(self) -> frozenset[str]: ...

    @property
    def turn(self) -> str | None: ...


class Runner(Protocol):
    """One simulated game of a ruleset (see engine/sim/runner.py for the arguments it is built with)."""

    def play(self) -> Any: ...


@dataclass(frozen=True)
class Ruleset:
    """Everything a ruleset brings to the engine, the banker and the simulator.

    ``rules`` maps each command type it accepts to its (check, do) pair; ``fold`` maps every event type
    its rules emit (shared ones included) to the function that folds it; ``commands`` and ``events`` are
    its own classes beyond :mod:`engine.commands` and :mod:`engine.events` (the record codec finds them
    here, names unique within the ruleset); ``parse_edition`` reads and checks the tables its edition files
    carry and returns the edition's ``events`` (cards), ``sides`` and ``extra``; ``space_kinds`` are the space
    kinds its boards may have; ``runner`` builds the simulator's
    table for one game; ``gestures`` names the module of the ruleset's banker plug-in (its rows of the
    transition table, ``ROWS``, and the handler modules they name, ``HANDLERS``: engine/banker/plugins.py),
    the one part of a ruleset that imports the banker.
    """

    name: str
    options: type[RuleOptions]
    rules: Mapping[type, tuple[Check, Do]]
    new_state: Callable[[Edition], Any]
    fold: Mapping[type, Fold]
    invariants: Callable[[Any, Edition], list[str]]
    parse_edition: Callable[[EditionReader, Mapping[str, object], Mapping[int, Deed]], Mapping[str, Any]]
    runner: Callable[..., Runner]
    space_kinds: tuple[str, ...] = ()
    commands: tuple[type, ...] = ()
    events: tuple[type, ...] = ()
    gestures: str = ""
    refusal_keys: frozenset[str] = field(default_factory=frozenset)
    rules_for: Callable[[Any], Mapping[type, tuple[Check, Do]]] | None = None
    """The rule table for a started game, from its state (its options): the same refusals and events as
    ``rules``, without work its options leave idle; the engine takes it after ``StartGame`` and ``Undo``."""
    receipt: Callable[..., Any] | None = None
    """``receipt(state, edition, event, earlier) -> engine.receipts.Receipt | None``: how an event's amount
    was reached, from the state before it and the events of its command before it (its ``receipts.py``)."""


def lazy(target: str) -> Callable[..., Any]:
    """A function that imports ``target`` (``"module:name"``) at its first call and calls it with its
    arguments, so a record names a part that is loaded only when used."""
    module_name, _, name = target.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module_name), name)(*args, **kwargs)

    return call


def ruleset_in(package: str, *, runner: str, **parts: Any) -> Ruleset:
    """The :class:`Ruleset` of the ruleset folder ``package`` (``engine.rulesets.NAME``), laid out as every
    ruleset is: its simulator's table the class ``runner`` of ``PACKAGE.sim`` and its receipts
    ``PACKAGE.receipts.receipt``, both imported only when first used (a replay or the banker never loads
    the simulator and its bots), its banker plug-in ``PACKAGE.gestures``; ``parts``: the rest of the
    record (its options, rules, state, fold, invariants, edition parser, commands, events, refusal keys)."""
    return Ruleset(name=package.rpartition(".")[2], runner=lazy(f"{package}.sim:{runner}"),
                   receipt=lazy(f"{package}.receipts:receipt"), gestures=f"{package}.gestures", **parts)


class GestureContext(Protocol):
    """What a ruleset's gesture handler may use: the banker implements it (engine/banker/context.py)."""

    @property
    def game(self) -> Any: ...

    def allowed(self, cmd: Any, key: str = "error.rule") -> bool: ...

    def apply(self, cmd: Any) -> None: ...

    def input_player(self, event: Any) -> str | None: ...

    def input_deed(self, event: Any) -> int | None: ...


def check_phase(s: Phased, expected: str, what: str) -> Refusal | None:
    """Refusal if the game is not in phase ``expected`` (every ruleset's rules start with it)."""
    if s.phase != expected:
        return refuse("wrong_phase", f"{what}: expected phase {expected}, the game is in phase {s.phase}",
                      command=what, expected=expected, phase=s.phase)
    return None


def check_player(s: Seats, player: object, what: str, jailed: Container[str] = ()) -> Refusal | None:
    """Refusal unless ``player`` is a registered player who is not bankrupt (every ruleset's rules) and, for
    a command a jailed player may not send, not in ``jailed`` (the state's jail)."""
    if not isinstance(player, str) or player not in s.specs:
        return refuse("unknown_player", f"{what}: unknown player {player!r}; expected one of {list(s.order)}",
                      command=what, player=player, players=", ".join(s.order))
    if player in s.bankrupt:
        return refuse("player_bankrupt", f"{what}: player {player} is bankrupt", command=what, player=player)
    if player in jailed:
        return refuse("player_in_jail", f"{what}: player {player} is in jail", command=what, player=player)
    return None


def check_deed(ed: Edition, deed: object, what: str) -> Refusal | None:
    """Refusal unless ``deed`` is a deed number of the edition ``ed`` (a bool is not a number)."""
    if isinstance(deed, bool) or not isinstance(deed, int) or deed not in ed.deeds:
        return refuse("unknown_deed", f"{what}: unknown deed {deed!r}; expected a deed number 1..{len(ed.deeds)}",
                      command=what, deed=deed, deeds=len(ed.deeds))
    return None


def check_jailed(jail: Container[str], player: object, what: str) -> Refusal | None:
    """Refusal unless ``player`` is in ``jail`` (the state's jail): the commands only a jailed player sends."""
    if player not in jail:
        return refuse("not_in_jail", f"{what}: player {player} is not in jail", command=what, player=player)
    return None


def check_price(cash: int, player: str, deed: int, price: int, what: str) -> Refusal | None:
    """Refusal unless ``cash`` (the player's, money units) covers the deed's ``price`` (a purchase)."""
    if cash < price:
        return refuse("not_enough_cash", f"{what}: {player} has {cash}, the deed costs {price} (deed {deed})",
                      command=what, player=player, cash=cash, deed=deed, price=price)
    return None
