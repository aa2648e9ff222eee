"""State pieces every ruleset shares: read-only views of players and deeds, a running auction, a debt.

Each ruleset keeps its own state class and fold (e.g. engine/rulesets/ultimate/state.py); these frozen
values are what they have in common. Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from dataclasses import dataclass

SETUP, PLAY, OVER = "setup", "play", "over"
"""The phases every ruleset has: before ``StartGame``, playing, and after the game ended."""


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player as seen from outside: ``balance`` in money units; ``deeds`` sorted deed numbers."""

    id: str
    name: str
    token: str
    balance: int
    in_jail: bool
    jail_tries: int
    bankrupt: bool
    deeds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DeedState:
    """Ownership of one deed: ``owner`` (None = the Bank) and rent ``level`` (1..5, None when unowned)."""

    number: int
    owner: str | None
    level: int | None


@dataclass(frozen=True, slots=True)
class AuctionState:
    """The running auction of ``deed``: ``high_bid`` in money units (0 = no bid yet)."""

    deed: int
    bidders: tuple[str, ...]
    high_bid: int = 0
    high_bidder: str | None = None


@dataclass(frozen=True, slots=True)
class DebtState:
    """``debtor`` owes ``amount`` money units to ``creditor`` (a player id or ``"bank"``) for ``reason``."""

    debtor: str
    creditor: str
    amount: int
    reason: str
