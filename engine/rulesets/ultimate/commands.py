"""Commands of the Ultimate Banking ruleset only: own landings, Location, event cards, returning deeds.

Same conventions as engine/commands.py: frozen dataclasses, imperative names, amounts in money units.
"""

from __future__ import annotations

from dataclasses import dataclass


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


ULTIMATE_COMMANDS: tuple[type, ...] = (
    LandOnOwn, UseLocation, DrawEvent, ResolveEvent, ReturnDeed,
)
