"""Commands: what the table asks the engine to do (frozen dataclasses, imperative names).

A command is a request; the game either refuses it (``IllegalCommand``) or answers with events. Amounts
are ``int`` in the edition's money unit. Deeds are named by their number, players by their id. These are the commands both rulesets
share; a ruleset's own live in its folder (e.g. engine/rulesets/ultimate/commands.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A registered player: ``id`` (unique, e.g. a bank card's role), display ``name``, ``token`` colour."""

    id: str
    name: str = ""
    token: str = ""


@dataclass(frozen=True, slots=True)
class StartGame:
    """Players registered, ✓ pressed: each gets ``start_money``. ``options`` override docs/rules.md 6.2 defaults."""

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
class RollDice:
    """The unit keeps the tokens (option ``positions``): ``player`` rolled ``die1`` and ``die2`` (1..6 each).

    The dice come from the table (two touches on the unit's pad) or from the banker's seeded roll, never
    from the engine, so a replay moves the tokens exactly as the game did. The ruleset moves the token,
    pays GO when it passes, and sends it to jail on the third double in a row (or releases it from jail)."""

    player: str
    die1: int
    die2: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """The turn passes to the next player (counts rounds for ON THE RUN)."""

    player: str


@dataclass(frozen=True, slots=True)
class Undo:
    """Reverse the last command not yet undone (a ``CommandUndone`` event; nothing is deleted)."""


@dataclass(frozen=True, slots=True)
class CorrectMoney:
    """The banker's correction: ``amount`` money units from ``payer`` to ``payee`` (a player or ``"bank"``),
    with a ``reason`` for the history (engine/corrections.py)."""

    payer: str
    payee: str
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class CorrectDeed:
    """The banker's correction: ``deed`` goes to ``to`` (a player, or ``"bank"``: unowned), with a reason."""

    deed: int
    to: str
    reason: str


Command = Any
"""Any command (a frozen dataclass): the shared ones below and each ruleset's own."""

CORE_COMMANDS: tuple[type, ...] = (
    StartGame, PassGo, BuyDeed, DeclineDeed, PlaceBid, CloseAuction, PayRent, GoToJail, PayJailFee, JailRoll, EndTurn,
    Undo, RollDice, CorrectMoney, CorrectDeed,
)
"""Every shared command class (the record codec adds each ruleset's own)."""
