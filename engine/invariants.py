"""The one invariant function (shared/DESIGN.md 3): a list of problems, empty when the state is healthy.

Checks: money issued = sum of balances + bank position, no negative balance; levels within 1..5 for owned
deeds and none for unowned ones; one owner per deed, and owners are registered, solvent players; a
bankrupt player owns nothing; the phase agrees with the auction / event / debt details; the deck is a
permutation of the edition's cards.
"""

from __future__ import annotations

from engine.editions import Edition
from engine.state import PHASES, GameState


def check_invariants(s: GameState, ed: Edition) -> list[str]:
    """Every broken invariant of ``s`` as a sentence (amounts in money units)."""
    out = s.ledger.problems()
    if s.phase not in PHASES:
        out.append(f"unknown phase {s.phase!r}")
    if s.phase == "setup":
        if s.owner or s.ledger.balances:
            out.append("setup phase with owners or accounts")
        return out
    if set(s.ledger.balances) != set(s.order):
        out.append(f"accounts {sorted(s.ledger.balances)} != players {sorted(s.order)}")
    if set(s.owner) != set(s.level):
        out.append(f"owned deeds {sorted(s.owner)} != deeds with a level {sorted(s.level)}")
    for deed, owner in s.owner.items():
        if deed not in ed.deeds:
            out.append(f"unknown deed {deed} has owner {owner}")
        if owner not in s.specs:
            out.append(f"deed {deed} owned by unknown player {owner!r}")
        if owner in s.bankrupt:
            out.append(f"bankrupt player {owner} owns deed {deed}")
    for deed, level in s.level.items():
        if not 1 <= level <= 5:
            out.append(f"deed {deed} has level {level}, expected 1..5")
    for player, tries in s.jail.items():
        if player not in s.specs or not 0 <= tries < s.options.jail_max_tries:
            out.append(f"jail entry {player!r} with {tries} tries")
    if sorted(s.deck) != sorted(card.id for card in ed.events):
        out.append(f"the deck {s.deck} is not a permutation of the edition's cards")
    checks = {"auction": s.auction is not None, "event": s.pending is not None, "debt": s.debt is not None}
    for phase, present in checks.items():
        if present != (s.phase == phase):
            out.append(f"phase {s.phase} but {phase} details {'present' if present else 'absent'}")
    if s.phase == "over" and not s.standings_final:
        out.append("game over without standings")
    if s.phase != "over" and len(s.bankrupt) > 0:
        out.append(f"bankrupt players {sorted(s.bankrupt)} but the game is not over")
    if s.debt is not None and s.ledger.balances.get(s.debt.debtor, 0) >= s.debt.amount:
        out.append(f"debt of {s.debt.amount} open although {s.debt.debtor} can pay it")
    if s.turn is not None and (s.turn not in s.specs or (s.turn in s.bankrupt and s.phase != "over")):
        out.append(f"turn with {s.turn!r}, not an active player")
    return out
