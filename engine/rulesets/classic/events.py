"""The classic ruleset's own events (frozen dataclasses, past-tense names), beyond engine/events.py.

Every event starts with ``seq`` and ``command`` like the shared ones. Amounts are ``int`` in the edition's
money unit; ``level`` is a street's buildings: 0..4 houses, 5 a hotel. The Free Parking pot is the
pseudo-account ``"pot"`` in ``MoneyTransferred`` (engine/rulesets/classic/state.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """``player`` drew ``card``: it goes under its deck, or stays with the player if it is a jail card."""

    seq: int
    command: int
    player: str
    card: int


@dataclass(frozen=True, slots=True)
class CardRentSet:
    """The card just drawn sent ``player`` to ``deed``: its rent is ``rule`` (``"double"`` or ``"tenfold"``)."""

    seq: int
    command: int
    player: str
    deed: int
    rule: str


@dataclass(frozen=True, slots=True)
class JailCardUsed:
    """``player`` gave back jail ``card`` (to the bottom of its deck) to leave jail."""

    seq: int
    command: int
    player: str
    card: int


@dataclass(frozen=True, slots=True)
class BuildingBought:
    """``player`` paid ``cost`` to the Bank and ``deed`` now has ``level`` (1..4 houses, 5 a hotel)."""

    seq: int
    command: int
    player: str
    deed: int
    level: int
    cost: int


@dataclass(frozen=True, slots=True)
class BuildingSold:
    """The Bank paid ``player`` ``refund`` for a building of ``deed``, which now has ``level``."""

    seq: int
    command: int
    player: str
    deed: int
    level: int
    refund: int


@dataclass(frozen=True, slots=True)
class DeedMortgaged:
    """The Bank lent ``player`` ``amount`` (the printed mortgage value) on ``deed``."""

    seq: int
    command: int
    player: str
    deed: int
    amount: int


@dataclass(frozen=True, slots=True)
class MortgageLifted:
    """``player`` paid ``cost`` to the Bank and ``deed`` is no longer mortgaged."""

    seq: int
    command: int
    player: str
    deed: int
    cost: int


@dataclass(frozen=True, slots=True)
class MortgageFeePaid:
    """``player`` received mortgaged ``deed`` and paid ``amount`` (``mortgage_transfer_fee``) to the Bank;
    lifting the mortgage before their turn ends costs only the mortgage value."""

    seq: int
    command: int
    player: str
    deed: int
    amount: int


@dataclass(frozen=True, slots=True)
class BuildingAuctionOpened:
    """The Bank auctions one ``kind`` (``"house"`` or ``"hotel"``) among ``bidders``."""

    seq: int
    command: int
    kind: str
    bidders: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BuildingAuctionWon:
    """``player`` won the building auction at ``amount``: their next ``BuildHouse`` costs that instead."""

    seq: int
    command: int
    player: str
    kind: str
    amount: int


@dataclass(frozen=True, slots=True)
class BuildingAuctionEnded:
    """The building auction closed without a bid."""

    seq: int
    command: int
    kind: str


@dataclass(frozen=True, slots=True)
class TradeProposed:
    """``player`` offered ``partner`` the deal (``give_*`` to the partner, ``take_*`` back; cash in money units)."""

    seq: int
    command: int
    player: str
    partner: str
    give_deeds: tuple[int, ...]
    give_cash: int
    give_cards: tuple[int, ...]
    take_deeds: tuple[int, ...]
    take_cash: int
    take_cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TradeCancelled:
    """The open offer was withdrawn by ``player`` (or dropped because a side went bankrupt)."""

    seq: int
    command: int
    player: str


@dataclass(frozen=True, slots=True)
class TradeCompleted:
    """Both sides confirmed the open offer: its deeds, cash and cards changed hands."""

    seq: int
    command: int
    player: str
    partner: str


@dataclass(frozen=True, slots=True)
class AssetsTransferred:
    """Bankrupt ``player``'s ``deeds`` and jail ``cards`` went to ``creditor`` (buildings already sold)."""

    seq: int
    command: int
    player: str
    creditor: str
    deeds: tuple[int, ...]
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AssetsSeized:
    """The Bank took bankrupt ``player``'s ``deeds`` (buildings and mortgages cleared; each to be auctioned)
    and returned the jail ``cards`` to their decks."""

    seq: int
    command: int
    player: str
    deeds: tuple[int, ...]
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ClockAdvanced:
    """The game's clock reached ``minute``."""

    seq: int
    command: int
    minute: int


@dataclass(frozen=True, slots=True)
class TokenPlaced:
    """The unit keeps the tokens (option ``positions``): a card or jail put ``player``'s token on board
    ``position`` (``reason`` ``"card"`` or ``"jail"``); dice moves are ``DiceRolled``."""

    seq: int
    command: int
    player: str
    position: int
    reason: str


@dataclass(frozen=True, slots=True)
class RollsReset:
    """The unit keeps the tokens: the turn passed to ``player`` with End turn; they roll afresh."""

    seq: int
    command: int
    player: str


@dataclass(frozen=True, slots=True)
class TurnMarked:
    """Something the second text's limits count happened in ``player``'s turn: ``mark`` is ``"rolled"`` or
    ``"built:COLOUR"`` (a building bought on that set); the marks go at the end of the turn."""

    seq: int
    command: int
    player: str
    mark: str


@dataclass(frozen=True, slots=True)
class DebtPaidInDeeds:
    """``debtor`` handed ``deeds`` to ``creditor`` at the agreed ``value`` (money units), taken off the debt."""

    seq: int
    command: int
    debtor: str
    creditor: str
    deeds: tuple[int, ...]
    value: int


@dataclass(frozen=True, slots=True)
class AssetsReleased:
    """The second text's bankruptcy: ``player``'s ``deeds`` go back to the Bank for free sale (unbuilt,
    unmortgaged, to be bought by whoever lands on them) and the jail ``cards`` to their decks."""

    seq: int
    command: int
    player: str
    deeds: tuple[int, ...]
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LotsDealt:
    """Every deed dealt at the start (option ``deal_all_lots``, seed 001): ``player`` got ``deeds`` free."""

    seq: int
    command: int
    player: str
    deeds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ActionTimedOut:
    """``player`` did not ``action`` (``"roll"``, ``"pay"`` or ``"deal"``) in the time the table gives it."""

    seq: int
    command: int
    player: str
    action: str


CLASSIC_EVENTS: tuple[type, ...] = (
    CardDrawn, CardRentSet, JailCardUsed, BuildingBought, BuildingSold, DeedMortgaged, MortgageLifted,
    MortgageFeePaid, BuildingAuctionOpened, BuildingAuctionWon, BuildingAuctionEnded, TradeProposed,
    TradeCancelled, TradeCompleted, AssetsTransferred, AssetsSeized, ClockAdvanced, TokenPlaced, RollsReset,
    TurnMarked, DebtPaidInDeeds, AssetsReleased, LotsDealt, ActionTimedOut,
)
"""Every event class of the classic ruleset (the record codec reads them here)."""
