"""Events both rulesets share: what happened (frozen dataclasses, past-tense names).

Every event starts with ``seq`` (1, 2, ... per game) and ``command`` (the number of the accepted command
that produced it, 1, 2, ...). The game's state is the fold of its events (each ruleset's ``state.py``).
Amounts are ``int`` in the edition's money unit; the Bank is the account ``"bank"`` (engine/ledger.py
``BANK``). A ruleset's own events live in its folder (e.g. engine/rulesets/ultimate/events.py); JSON
records of all of them are made by engine/records.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from engine.commands import PlayerSpec


class Event(Protocol):
    """Any event: a frozen dataclass whose first fields are ``seq`` and ``command``."""

    @property
    def seq(self) -> int: ...

    @property
    def command(self) -> int: ...


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
class TokenMoved:
    """``player``'s token moved to board ``position`` (Location, a move card, gridlock, jail)."""

    seq: int
    command: int
    player: str
    position: int


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """``player`` rolled ``die1`` and ``die2`` and the token went from board position ``start`` to ``end``
    (``start == end``: it stayed, after a jail roll that did not release it or a third double);
    ``passed_go``: the move passed or reached GO; ``doubles``: doubles in a row this turn (0: not a double);
    ``again``: the player rolls once more (a double that neither jailed nor came out of jail)."""

    seq: int
    command: int
    player: str
    die1: int
    die2: int
    start: int
    end: int
    passed_go: bool
    doubles: int
    again: bool


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
class DebtOpened:
    """``debtor`` owes ``amount`` to ``creditor`` (a player or ``"bank"``) for ``reason`` and cannot pay."""

    seq: int
    command: int
    debtor: str
    creditor: str
    amount: int
    reason: str


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


@dataclass(frozen=True, slots=True)
class MoneyCorrected:
    """The banker moved ``amount`` money units from ``payer`` to ``payee`` (a player or ``"bank"``) to fix
    a mistake, for ``reason``."""

    seq: int
    command: int
    payer: str
    payee: str
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class DeedCorrected:
    """The banker gave ``deed`` from ``previous`` to ``to`` (each a player or ``"bank"``), for ``reason``."""

    seq: int
    command: int
    deed: int
    previous: str
    to: str
    reason: str


CORE_EVENTS: tuple[type, ...] = (
    GameStarted, SalaryPaid, DeedBought, DeedDeclined, AuctionOpened, BidPlaced, AuctionWon, AuctionEnded, RentPaid, RentWaived, TokenMoved, JailEntered, JailRollFailed, JailLeft, MoneyTransferred, DebtOpened, DebtSettled, PlayerBankrupt, GameEnded, TurnEnded, CommandUndone,
    MoneyCorrected, DeedCorrected, DiceRolled,
)
"""Every shared event class (the record codec adds each ruleset's own)."""
