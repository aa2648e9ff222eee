"""The invariants every ruleset shares: a list of problems, empty when the state is healthy.

A ruleset's own invariant function (e.g. engine/rulesets/ultimate/invariants.py) calls
:func:`core_invariants` and adds its own checks; ``Game.invariants()`` runs the edition's ruleset's.
Checked here: money issued = sum of balances + bank position, no negative balance; accounts = players;
one owner per deed, owners are registered, solvent players of an existing deed; a bankrupt player owns
nothing; a game over has standings; the turn is with an active player. The state needs ``ledger``,
``phase``, ``order``, ``specs``, ``owner``, ``bankrupt``, ``turn`` and ``standings_final``.
"""

from __future__ import annotations

from typing import Any

from engine.editions import Edition
from engine.state import OVER, SETUP


def core_invariants(s: Any, ed: Edition) -> list[str]:
    """Every broken shared invariant of ``s`` as a sentence (amounts in money units)."""
    out: list[str] = s.ledger.problems()
    if s.phase == SETUP:
        if s.owner or s.ledger.balances:
            out.append("setup phase with owners or accounts")
        return out
    out.extend(core_accounts(s))
    out.extend(core_holdings(s, ed))
    out.extend(core_turn(s))
    return out


def core_accounts(s: Any) -> list[str]:
    """The accounts are the players' (a game under way)."""
    if s.ledger.balances.keys() != set(s.order):
        return [f"accounts {sorted(s.ledger.balances)} != players {sorted(s.order)}"]
    return []


def core_holdings(s: Any, ed: Edition) -> list[str]:
    """Each owner is an active player, of a deed of the edition (reads ``owner``, ``specs``, ``bankrupt``)."""
    out: list[str] = []
    deeds, specs, bankrupt = ed.deeds, s.specs, s.bankrupt
    for deed, owner in s.owner.items():
        if deed not in deeds:
            out.append(f"unknown deed {deed} has owner {owner}")
        if owner not in specs:
            out.append(f"deed {deed} owned by unknown player {owner!r}")
        if owner in bankrupt:
            out.append(f"bankrupt player {owner} owns deed {deed}")
    return out


def core_turn(s: Any) -> list[str]:
    """A game over has standings; the turn is with an active player."""
    out: list[str] = []
    if s.phase == OVER and not s.standings_final:
        out.append("game over without standings")
    if s.turn is not None and (s.turn not in s.specs or (s.turn in s.bankrupt and s.phase != OVER)):
        out.append(f"turn with {s.turn!r}, not an active player")
    return out
