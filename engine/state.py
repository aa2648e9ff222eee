"""State pieces every ruleset shares: read-only views of players and deeds, a running auction, a debt, and
the shape of a state's snapshot.

Each ruleset keeps its own state class and fold (e.g. engine/rulesets/ultimate/state.py); these frozen
values are what they have in common, and :func:`snapshot_of` and :func:`players_of` are what both state
classes' ``snapshot()`` and ``players`` are made of. Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.ledger import BANK

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


def players_of(s: Any) -> dict[str, PlayerState]:
    """Player id -> :class:`PlayerState` of a ruleset's state ``s`` (its ``specs``, ``ledger``, ``jail``:
    player -> failed tries, ``bankrupt`` and ``owner``), built on demand."""
    balances, jail, owner = s.ledger.balances, s.jail, s.owner
    return {
        p: PlayerState(p, spec.name, spec.token, balances[p], p in jail, jail.get(p, 0), p in s.bankrupt,
                       tuple(sorted(d for d, o in owner.items() if o == p)))
        for p, spec in s.specs.items()
    }


def snapshot_of(s: Any, **own: object) -> dict[str, object]:
    """The whole state ``s`` as plain data, for equality, tests and display: what every ruleset's state has
    (phase, edition, options, players, money, owners and levels, jail, bankruptcies, the turn, the final
    standings, the seed, the tokens and the last roll), then the ruleset's ``own`` fields."""
    return {
        "phase": s.phase, "edition": s.edition_id, "options": s.options.as_dict(), "order": s.order,
        "specs": {p: (spec.name, spec.token) for p, spec in s.specs.items()}, "ledger": s.ledger.snapshot(),
        "owner": dict(sorted(s.owner.items())), "level": dict(sorted(s.level.items())), "jail": dict(s.jail),
        "bankrupt": sorted(s.bankrupt), "turn": s.turn, "standings": s.standings_final, "seed": s.seed,
        "position": dict(s.position), "roll": s.roll, **own,
    }


def fold_started(s: Any, e: Any, options: Any) -> None:
    """``GameStarted`` as both rulesets fold it: the game in play, its edition, ``options`` (the ruleset's
    own, read from the event), the seat order and specs, the seed, the first seat's turn, and each player's
    account opened with the start money from the Bank. Each ruleset's fold then adds its own (decks, tokens)."""
    s.phase = "play"
    s.edition_id = e.edition
    s.options = options
    s.order = tuple(p.id for p in e.players)
    s.specs = {p.id: p for p in e.players}
    s.seed = e.seed
    s.turn = s.order[0]
    for p in s.order:
        s.ledger.open_account(p)
        s.ledger.transfer(BANK, p, options.start_money)
