"""Events of the Ultimate Banking ruleset only (rent levels, Location, event cards, returned deeds).

Same shape as the shared events of engine/events.py: ``seq`` and ``command`` first, amounts in money units.
"""

from __future__ import annotations

from dataclasses import dataclass


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
class DeedReturned:
    """``player`` returned ``deed`` to the Bank and got its printed ``price``; the deed is unowned."""

    seq: int
    command: int
    player: str
    deed: int
    price: int


ULTIMATE_EVENTS: tuple[type, ...] = (
    LevelChanged, OwnDeedVisited, ColourSetBonusApplied, LocationUsed, EventDrawn, ChoiceRequested, EventResolved, DeedsSwapped, OnTheRunStarted, DeedReturned,
)
