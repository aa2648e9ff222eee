"""The Ultimate Banking invariants: the shared ones (engine/invariants.py) and this ruleset's own.

Its own: a known phase; levels within 1..5 for owned deeds and none for unowned ones; jail entries of
registered players with fewer tries than allowed; the deck is a permutation of the edition's cards; the
phase agrees with the auction / event / debt details; bankrupt players only once the game is over (the
first bankruptcy ends it); no open debt the debtor could pay.
"""

from __future__ import annotations

from engine.editions import Edition
from engine.invariants import core_invariants
from engine.rulesets.ultimate.state import PHASES, GameState


def check_invariants(s: GameState, ed: Edition) -> list[str]:
    """Every broken invariant of ``s`` as a sentence (amounts in money units)."""
    if s.phase not in PHASES:
        return [*core_invariants(s, ed), f"unknown phase {s.phase!r}"]
    out = core_invariants(s, ed)
    if s.phase == "setup":
        return out
    if set(s.owner) != set(s.level):
        out.append(f"owned deeds {sorted(s.owner)} != deeds with a level {sorted(s.level)}")
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
    if s.phase != "over" and len(s.bankrupt) > 0:
        out.append(f"bankrupt players {sorted(s.bankrupt)} but the game is not over")
    if s.debt is not None and s.ledger.balances.get(s.debt.debtor, 0) >= s.debt.amount:
        out.append(f"debt of {s.debt.amount} open although {s.debt.debtor} can pay it")
    return out
