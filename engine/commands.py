"""Commands: what the table asks the engine to do (frozen dataclasses, imperative names).

A command is a request; the game either refuses it (``IllegalCommand``) or answers with events. Amounts
are ``int`` in the edition's money unit. Deeds are named by their number (1..22), players by their id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A registered player: ``id`` (unique, e.g. a bank card's role), display ``name``, ``token`` colour."""

    id: str
    name: str = ""
    token: str = ""


@dataclass(frozen=True, slots=True)
class StartGame:
    """Players registered, ✓ pressed: each gets ``start_money``. ``options`` override RULES 6.2 defaults."""

    players: tuple[PlayerSpec, ...]
    options: Mapping[str, object] = field(default_factory=dict)
    seed: int = 0


@dataclass(frozen=True, slots=True)
class PassGo:
    """The player passed or landed on GO: +``go_salary`` from the Bank."""

    player: str


@dataclass(frozen=True, slots=True)
class BuyDeed:
    """Buy an unowned deed at its printed price; it starts at level 1."""

    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class DeclineDeed:
    """The lander does not buy: an auction opens when the ``auction`` option is on."""

    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class PlaceBid:
    """A bid of ``amount`` money units in the open auction."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class CloseAuction:
    """The auction's countdown ended (the caller owns the clock)."""


@dataclass(frozen=True, slots=True)
class PayRent:
    """``payer`` landed on another player's deed: rent at the current level, then level +1."""

    payer: str
    deed: int


@dataclass(frozen=True, slots=True)
class LandOnOwn:
    """The owner landed on their own deed: level +1."""

    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class UseLocation:
    """Pay ``location_fee`` and jump to ``deed``; the landing is then resolved with the usual commands.

    ``origin`` is the board position of the Location space the token stood on (7, 16, 25 or 34), used only
    by the ``jump_collects_go`` option to tell whether the jump passes GO; ``None`` = unknown (no salary).
    """

    player: str
    deed: int
    origin: int | None = None


@dataclass(frozen=True, slots=True)
class GoToJail:
    """The player goes to jail (space 27, third double, an event)."""

    player: str


@dataclass(frozen=True, slots=True)
class PayJailFee:
    """Leave jail by paying ``jail_fee`` before rolling."""

    player: str


@dataclass(frozen=True, slots=True)
class JailRoll:
    """One try for doubles in jail; the last allowed failure charges ``jail_fee`` and releases."""

    player: str
    doubles: bool


@dataclass(frozen=True, slots=True)
class DrawEvent:
    """Draw an event card: ``card=None`` takes the top of the seeded virtual deck, an id a physical card.

    ``origin`` is the board position of the Event space (for ``jump_collects_go``); ``None`` = unknown.
    """

    player: str
    card: int | None = None
    origin: int | None = None


@dataclass(frozen=True, slots=True)
class ResolveEvent:
    """The answer the drawn card asks for: a colour, a side letter, deed numbers or a player id."""

    player: str
    choice: tuple[str | int, ...] = ()


@dataclass(frozen=True, slots=True)
class ReturnDeed:
    """While in debt: the deed goes back to the Bank for its printed price, its level reset."""

    player: str
    deed: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """The turn passes to the next player (counts rounds for ON THE RUN)."""

    player: str


@dataclass(frozen=True, slots=True)
class Undo:
    """Reverse the last command not yet undone (a ``CommandUndone`` event; nothing is deleted)."""


Command = (
    StartGame | PassGo | BuyDeed | DeclineDeed | PlaceBid | CloseAuction | PayRent | LandOnOwn
    | UseLocation | GoToJail | PayJailFee | JailRoll | DrawEvent | ResolveEvent | ReturnDeed | EndTurn | Undo
)



def command_to_record(command: Command) -> dict[str, object]:
    """Same as :func:`engine.events.command_to_record` (kept here for convenience)."""
    from engine.events import command_to_record as to_record

    return to_record(command)


def command_from_record(record: Mapping[str, object]) -> Command:
    """Same as :func:`engine.events.command_from_record` (kept here for convenience)."""
    from engine.events import command_from_record as from_record

    return from_record(record)


COMMAND_TYPES: tuple[type, ...] = (
    StartGame, PassGo, BuyDeed, DeclineDeed, PlaceBid, CloseAuction, PayRent, LandOnOwn, UseLocation,
    GoToJail, PayJailFee, JailRoll, DrawEvent, ResolveEvent, ReturnDeed, EndTurn, Undo,
)
