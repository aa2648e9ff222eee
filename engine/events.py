"""Events: what happened (frozen dataclasses, past-tense names), and their JSON records.

Every event starts with ``seq`` (1, 2, ... per game) and ``command`` (the number of the accepted command
that produced it, 1, 2, ...). The game's state is the fold of its events (engine/state.py). Amounts are
``int`` in the edition's money unit; the Bank is the account ``"bank"`` (engine/ledger.py ``BANK``).

:func:`event_to_record` / :func:`event_from_record` (and the same pair for commands) convert to and from
JSON-safe dicts with a ``"type"`` key; tuples become lists and come back as tuples, so they round-trip
exactly.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass

from engine import commands as _commands
from engine.commands import PlayerSpec
from engine.errors import RecordError


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the final standings: ``total`` = ``cash`` + ``deeds_value`` (printed prices), in money
    units; ``top_deed`` is the printed price of the player's most expensive deed (the tie-break)."""

    rank: int
    player: str
    cash: int
    deeds_value: int
    total: int
    top_deed: int


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The game began: players in turn order, the options in force, the seed and the shuffled deck."""

    seq: int
    command: int
    edition: str
    players: tuple[PlayerSpec, ...]
    options: Mapping[str, int | bool]
    seed: int
    deck: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SalaryPaid:
    """The Bank paid ``amount`` (GO salary) to ``player``."""

    seq: int
    command: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class DeedBought:
    """``player`` paid ``price`` to the Bank and owns ``deed`` at level 1."""

    seq: int
    command: int
    player: str
    deed: int
    price: int


@dataclass(frozen=True, slots=True)
class DeedDeclined:
    """``player`` did not buy ``deed``."""

    seq: int
    command: int
    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class AuctionOpened:
    """An auction of ``deed`` opened; ``bidders`` may bid."""

    seq: int
    command: int
    deed: int
    bidders: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BidPlaced:
    """``player`` bid ``amount`` (the new high bid)."""

    seq: int
    command: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class AuctionWon:
    """``player`` paid ``amount`` to the Bank and owns ``deed`` at level 1."""

    seq: int
    command: int
    player: str
    deed: int
    amount: int


@dataclass(frozen=True, slots=True)
class AuctionEnded:
    """The auction of ``deed`` closed without a bid: it stays unowned."""

    seq: int
    command: int
    deed: int


@dataclass(frozen=True, slots=True)
class RentPaid:
    """``payer`` paid ``amount`` rent for ``deed`` to ``owner``."""

    seq: int
    command: int
    payer: str
    owner: str
    deed: int
    amount: int


@dataclass(frozen=True, slots=True)
class RentWaived:
    """No rent for ``deed`` and no level rise: ``reason`` is ``"owner_in_jail"``."""

    seq: int
    command: int
    payer: str
    owner: str
    deed: int
    reason: str


@dataclass(frozen=True, slots=True)
class LevelChanged:
    """The rent level of ``deed`` went from ``old`` to ``new`` (1..5)."""

    seq: int
    command: int
    deed: int
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class OwnDeedVisited:
    """``player`` landed on their own ``deed`` (a ``LevelChanged`` follows unless it is at level 5)."""

    seq: int
    command: int
    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class ColourSetBonusApplied:
    """The colour-set bonus of ``colour`` fired (once per game): ``steps`` levels (1 or 2) on the set."""

    seq: int
    command: int
    colour: str
    steps: int


@dataclass(frozen=True, slots=True)
class LocationUsed:
    """``player`` paid ``fee`` to the Bank to jump to ``deed``."""

    seq: int
    command: int
    player: str
    deed: int
    fee: int


@dataclass(frozen=True, slots=True)
class TokenMoved:
    """``player``'s token moved to board ``position`` (Location, a move card, gridlock, jail)."""

    seq: int
    command: int
    player: str
    position: int


@dataclass(frozen=True, slots=True)
class JailEntered:
    """``player`` went to jail."""

    seq: int
    command: int
    player: str


@dataclass(frozen=True, slots=True)
class JailRollFailed:
    """``player`` rolled no doubles in jail; ``tries`` so far."""

    seq: int
    command: int
    player: str
    tries: int


@dataclass(frozen=True, slots=True)
class JailLeft:
    """``player`` left jail; ``reason`` is ``"fee"``, ``"doubles"`` or ``"tries_used"``."""

    seq: int
    command: int
    player: str
    reason: str


@dataclass(frozen=True, slots=True)
class MoneyTransferred:
    """``amount`` moved from ``payer`` to ``payee`` (either may be ``"bank"``) for ``reason``
    (``"jail_fee"``, ``"event_bonus"``, ``"highway_tax"``...)."""

    seq: int
    command: int
    payer: str
    payee: str
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class EventDrawn:
    """``player`` drew event ``card``; it went to the bottom of the deck."""

    seq: int
    command: int
    player: str
    card: int


@dataclass(frozen=True, slots=True)
class ChoiceRequested:
    """The drawn ``card`` needs an answer from ``player`` (phase ``event``)."""

    seq: int
    command: int
    player: str
    card: int
    origin: int | None


@dataclass(frozen=True, slots=True)
class EventResolved:
    """``card`` took effect with ``choice`` (empty when it asked none or had no target)."""

    seq: int
    command: int
    player: str
    card: int
    choice: tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class DeedsSwapped:
    """``player``'s ``deed`` went to ``other`` and ``other``'s ``other_deed`` to ``player`` (levels stay)."""

    seq: int
    command: int
    player: str
    deed: int
    other: str
    other_deed: int


@dataclass(frozen=True, slots=True)
class OnTheRunStarted:
    """ON THE RUN: level-1 rent for the next ``turns`` ``EndTurn`` commands."""

    seq: int
    command: int
    turns: int


@dataclass(frozen=True, slots=True)
class DebtOpened:
    """``debtor`` owes ``amount`` to ``creditor`` (a player or ``"bank"``) for ``reason`` and cannot pay."""

    seq: int
    command: int
    debtor: str
    creditor: str
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class DeedReturned:
    """``player`` returned ``deed`` to the Bank and got its printed ``price``; the deed is unowned."""

    seq: int
    command: int
    player: str
    deed: int
    price: int


@dataclass(frozen=True, slots=True)
class DebtSettled:
    """``debtor`` paid the ``amount`` owed to ``creditor``; the change stays with the debtor."""

    seq: int
    command: int
    debtor: str
    creditor: str
    amount: int


@dataclass(frozen=True, slots=True)
class PlayerBankrupt:
    """``player`` paid all their cash (``paid``) to ``creditor``; the Bank paid ``covered`` of the rest to
    a player creditor (0 when the creditor is the Bank)."""

    seq: int
    command: int
    player: str
    creditor: str
    paid: int
    covered: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over; ``standings`` best first."""

    seq: int
    command: int
    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """``player``'s turn ended; ``next_player`` is up."""

    seq: int
    command: int
    player: str
    next_player: str


@dataclass(frozen=True, slots=True)
class CommandUndone:
    """The command numbered ``undone`` was reversed: the state is what it was before it."""

    seq: int
    command: int
    undone: int


Event = (
    GameStarted | SalaryPaid | DeedBought | DeedDeclined | AuctionOpened | BidPlaced | AuctionWon
    | AuctionEnded | RentPaid | RentWaived | LevelChanged | OwnDeedVisited | ColourSetBonusApplied | LocationUsed | TokenMoved
    | JailEntered | JailRollFailed | JailLeft | MoneyTransferred | EventDrawn | ChoiceRequested
    | EventResolved | DeedsSwapped | OnTheRunStarted | DebtOpened | DeedReturned | DebtSettled
    | PlayerBankrupt | GameEnded | TurnEnded | CommandUndone
)

EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in typing.get_args(Event)
}
COMMAND_TYPES: dict[str, type] = {cls.__name__: cls for cls in _commands.COMMAND_TYPES}

# ----------------------------------------------------------------------------------------------------
# JSON records

_Decoder = Callable[[object, str], object]
_ENCODERS: dict[type, tuple[tuple[str, bool], ...]] = {}
_DECODERS: dict[type, tuple[tuple[str, type | None, _Decoder], ...]] = {}
_NAMESPACE = {**vars(_commands), **globals()}


def _encode(value: object) -> object:
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


def _decoder(tp: object) -> _Decoder:
    """A function turning a JSON value back into ``tp`` (raising RecordError with the field's path)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is int or tp is str or tp is bool:
        want = typing.cast(type, tp)

        def prim(v: object, where: str) -> object:
            if not isinstance(v, want) or (want is int and isinstance(v, bool)):
                raise RecordError(f"{where}: expected {want.__name__}, got {v!r}")
            return v

        return prim
    if tp is object:
        return lambda v, where: v
    if origin is tuple:
        item = _decoder(args[0])

        def tup(v: object, where: str) -> object:
            if not isinstance(v, list | tuple):
                raise RecordError(f"{where}: expected a list, got {v!r}")
            return tuple(item(x, f"{where}[{i}]") for i, x in enumerate(v))

        return tup
    if origin in (Mapping, dict, typing.Mapping) or (origin is not None and origin.__name__ == "Mapping"):
        val = _decoder(args[1])

        def mapping(v: object, where: str) -> object:
            if not isinstance(v, dict):
                raise RecordError(f"{where}: expected an object, got {v!r}")
            return {str(k): val(x, f"{where}.{k}") for k, x in v.items()}

        return mapping
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        allows_none = len(options) != len(args)
        decs = [_decoder(a) for a in options]

        def union(v: object, where: str) -> object:
            if v is None and allows_none:
                return None
            for dec in decs:
                try:
                    return dec(v, where)
                except RecordError:
                    continue
            raise RecordError(f"{where}: expected {tp}, got {v!r}")

        return union
    if isinstance(tp, type) and is_dataclass(tp):
        return lambda v, where: _from_fields(tp, v, where)
    raise TypeError(f"no record decoder for {tp!r}")


_Plan = tuple[tuple[str, type | None, _Decoder], ...]  # field, its primitive type (or None), its decoder
_PRIMITIVES = (int, str, bool)


def _plan(cls: type) -> _Plan:
    """How to decode each field of ``cls`` (computed once per class)."""
    plan = _DECODERS.get(cls)
    if plan is None:
        hints = typing.get_type_hints(cls, globalns=_NAMESPACE)
        plan = tuple(
            (f.name, hints[f.name] if hints[f.name] in _PRIMITIVES else None, _decoder(hints[f.name]))
            for f in fields(cls)
        )
        _DECODERS[cls] = plan
    return plan


def _from_fields(cls: type, data: object, where: str) -> object:
    if not isinstance(data, dict):
        raise RecordError(f"{where}: expected an object for {cls.__name__}, got {data!r}")
    values: list[object] = []
    for name, prim, dec in _plan(cls):
        try:
            v = data[name]
        except KeyError:
            raise RecordError(f"{where}: {cls.__name__} record lacks field {name!r}: {data!r}") from None
        if prim is not None:
            if type(v) is not prim:  # exact: a bool is not an int here
                raise RecordError(f"{where}.{name}: expected {prim.__name__}, got {v!r}")
            values.append(v)
        else:
            values.append(dec(v, f"{where}.{name}"))
    return cls(*values)


def _encoder(cls: type) -> tuple[tuple[str, bool], ...]:
    """(field, needs deep encoding) per field of ``cls`` (computed once per class)."""
    plan = _ENCODERS.get(cls)
    if plan is None:
        plan = tuple((name, prim is None) for name, prim, _ in _plan(cls))
        _ENCODERS[cls] = plan
    return plan


def _to_record(obj: object) -> dict[str, object]:
    record: dict[str, object] = {"type": type(obj).__name__}
    for name, deep in _encoder(type(obj)):
        value = getattr(obj, name)
        record[name] = _encode(value) if deep else value
    return record


def _from_record(record: Mapping[str, object], table: dict[str, type], kind: str) -> object:
    if not isinstance(record, Mapping):
        raise RecordError(f"expected a {kind} record (an object with 'type'), got {record!r}")
    name = record.get("type")
    cls = table.get(name) if isinstance(name, str) else None
    if cls is None:
        raise RecordError(f"unknown {kind} type {name!r}; expected one of {sorted(table)}")
    return _from_fields(cls, record if isinstance(record, dict) else dict(record), name)  # type: ignore[arg-type]


def event_to_record(event: Event) -> dict[str, object]:
    """The event as a JSON-safe dict with its class name under ``"type"``."""
    return _to_record(event)


def event_from_record(record: Mapping[str, object]) -> Event:
    """The event a record of :func:`event_to_record` describes; raise :class:`RecordError` if malformed."""
    return typing.cast(Event, _from_record(record, EVENT_TYPES, "event"))


def command_to_record(command: _commands.Command) -> dict[str, object]:
    """The command as a JSON-safe dict with its class name under ``"type"``."""
    return _to_record(command)


def command_from_record(record: Mapping[str, object]) -> _commands.Command:
    """The command a record of :func:`command_to_record` describes; raise :class:`RecordError` if malformed."""
    return typing.cast(_commands.Command, _from_record(record, COMMAND_TYPES, "command"))
