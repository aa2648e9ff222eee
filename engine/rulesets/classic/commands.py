"""The classic ruleset's own commands (frozen dataclasses, imperative names), beyond engine/commands.py.

Each is one gesture at the table. Amounts are ``int`` in the edition's money unit; deeds are numbered as
in the edition, board positions 0..39, players by id. The shared commands the classic game also uses are
StartGame, PassGo, BuyDeed, DeclineDeed, PlaceBid, CloseAuction, PayRent, GoToJail, PayJailFee, JailRoll,
EndTurn and Undo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar


@dataclass(frozen=True, slots=True)
class PayUtilityRent:
    """``payer`` landed on another player's utility and rolled ``dice`` (the total of two dice, 2..12)."""

    payer: str
    deed: int
    dice: int


@dataclass(frozen=True, slots=True)
class PayTax:
    """``player`` landed on the tax space at ``position``; ``percent``: chose the share of worth
    (Income Tax with ``income_tax_choice`` on), decided before counting."""

    player: str
    position: int
    percent: bool = False


@dataclass(frozen=True, slots=True)
class DrawCard:
    """``player`` on the Chance or Community Chest space at ``position`` draws the top card of its deck, or
    ``card`` (an id of that deck still in it) when the table plays with the physical cards."""

    player: str
    position: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class UseJailCard:
    """``player`` leaves jail with a Get Out of Jail Free card they hold (it goes back to its deck)."""

    player: str


@dataclass(frozen=True, slots=True)
class CollectJackpot:
    """``player`` stopped on Free Parking and takes the pot (``free_parking_jackpot`` on)."""

    player: str


@dataclass(frozen=True, slots=True)
class BuildHouse:
    """``player`` buys one more building for ``deed``: a house, or the hotel after the last house."""

    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class SellBuilding:
    """``player`` sells one building of ``deed`` back to the Bank (a hotel comes back as houses)."""

    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class MortgageDeed:
    """``player`` mortgages ``deed`` (no buildings on its colour set) for its printed mortgage value."""

    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class LiftMortgage:
    """``player`` pays the mortgage value plus 10 % to lift ``deed``'s mortgage."""

    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class OpenBuildingAuction:
    """The Bank is short of ``kind`` (``"house"`` or ``"hotel"``) and several players want one: auction it."""

    kind: str


@dataclass(frozen=True, slots=True)
class ProposeTrade:
    """``player`` offers ``partner`` a deal: ``give_*`` go to the partner, ``take_*`` come back.

    Deeds (without buildings on their colour set), cash in money units and Get Out of Jail Free card ids."""

    player: str
    partner: str
    give_deeds: tuple[int, ...] = ()
    give_cash: int = 0
    give_cards: tuple[int, ...] = ()
    take_deeds: tuple[int, ...] = ()
    take_cash: int = 0
    take_cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class AcceptTrade:
    """The partner of the open offer confirms it: everything changes hands at once."""

    player: str


@dataclass(frozen=True, slots=True)
class CancelTrade:
    """Either side of the open offer withdraws it."""

    player: str


@dataclass(frozen=True, slots=True)
class SettleDebt:
    """The debtor, who has raised enough cash, pays the debt at the head of the queue."""

    player: str


@dataclass(frozen=True, slots=True)
class DeclareBankruptcy:
    """The debtor cannot pay: everything goes to the creditor (a player) or to the Bank."""

    player: str


@dataclass(frozen=True, slots=True)
class AdvanceClock:
    """The game's clock reached ``minute`` (minutes since the start; the caller owns the clock)."""

    minute: int


@dataclass(frozen=True, slots=True)
class CallTime:
    """The agreed end time of a time-limited game has come: the richest player wins."""


@dataclass(frozen=True, slots=True)
class PayWithDeeds:
    """The debtor ``player`` hands ``deeds`` to their creditor (a player) at the agreed ``value`` in money
    units, taken off the debt; sent once the creditor has confirmed (option ``pay_debt_with_deeds``)."""

    player: str
    deeds: tuple[int, ...]
    value: int


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The table's timer ran out on ``player``'s ``action``: ``"roll"`` (the turn's player), ``"pay"`` (the
    debtor) or ``"deal"`` (the partner of the open offer) (option ``action_timers``)."""

    player: str
    action: str


CLASSIC_COMMANDS: tuple[type, ...] = (
    PayUtilityRent, PayTax, DrawCard, UseJailCard, CollectJackpot, BuildHouse, SellBuilding, MortgageDeed,
    LiftMortgage, OpenBuildingAuction, ProposeTrade, AcceptTrade, CancelTrade, SettleDebt, DeclareBankruptcy,
    AdvanceClock, CallTime, PayWithDeeds, TimeOut,
)
"""Every command class of the classic ruleset (the record codec reads them here)."""


_MADE: Final[dict[tuple[object, ...], Any]] = {}
"""Commands already made, by (class, fields): commands are immutable values, and a bot game sends the same
few hundred (player, deed or square) combinations again and again, in every game of a simulator's run."""


_C = TypeVar("_C")


def command(cls: Callable[..., _C], *fields: object) -> _C:
    """The command ``cls(*fields)``, made once per process (see :data:`_MADE`)."""
    key = (cls, *fields)
    found: _C | None = _MADE.get(key)  # (no typing.cast: a call at run time, on the simulator's every command)
    if found is None:
        found = _MADE[key] = cls(*fields)
    return found
