"""The classic invariants: the shared ones (engine/invariants.py) and this ruleset's own.

Its own: a known phase that agrees with the auction, debt and placing details; money conserved with the
Bank and the Free Parking pot (0 <= pot <= what the Bank received); houses and hotels within the Bank's
supply, only on whole colour sets of one owner with no deed mortgaged, built evenly (``even_build``);
mortgages and lots on the right deeds; jail entries of active players with fewer tries than allowed; each
jail card in exactly one place (its deck or one active player's hand) and the decks permutations of the
rest.
"""

from __future__ import annotations

from engine.editions import Edition
from engine.invariants import core_invariants
from engine.rulesets.classic.building import height
from engine.rulesets.classic.edition import cards
from engine.rulesets.classic.state import HOTEL, PHASES, ClassicState


def check_invariants(s: ClassicState, ed: Edition) -> list[str]:
    """Every broken invariant of ``s`` as a sentence (amounts in money units)."""
    out = core_invariants(s, ed)
    if s.phase not in PHASES:
        return [*out, f"unknown phase {s.phase!r}"]
    if s.phase == "setup":
        return out
    if not 0 <= s.pot <= s.ledger.bank_position:
        out.append(f"pot {s.pot} outside 0..{s.ledger.bank_position} (what the Bank received)")
    for phase, present in (("auction", s.auction is not None), ("debt", bool(s.debts)), ("place", s.credit is not None)):
        if present != (s.phase == phase):
            out.append(f"phase {s.phase} but {phase} details {'present' if present else 'absent'}")
    out.extend(_buildings(s, ed))
    for d in s.mortgaged:
        if d not in s.owner:
            out.append(f"unowned deed {d} is mortgaged")
    for d in s.lots:
        if d in s.owner:
            out.append(f"deed {d} waits for auction but is owned by {s.owner[d]}")
    for p, tries in s.jail.items():
        if p not in s.specs or p in s.bankrupt or not 0 <= tries < s.options.jail_max_turns:
            out.append(f"jail entry {p!r} with {tries} tries")
    out.extend(_cards(s, ed))
    for debt in s.debts:
        if debt.debtor in s.bankrupt or debt.amount <= 0:
            out.append(f"debt {debt} of a bankrupt player or of nothing")
    return out


def _buildings(s: ClassicState, ed: Edition) -> list[str]:
    out: list[str] = []
    houses, hotels = s.houses_used(), s.hotels_used()
    if houses > s.options.houses_in_bank or hotels > s.options.hotels_in_bank:
        out.append(f"{houses} houses and {hotels} hotels built, the Bank has {s.options.houses_in_bank} and "
                   f"{s.options.hotels_in_bank}")
    for deed, level in s.level.items():
        d = ed.deeds[deed]
        members = ed.colour_sets[d.colour]
        owner = s.owner.get(deed)
        if d.kind != "street" or not 1 <= level <= HOTEL or (level != HOTEL and level > s.options.houses_per_hotel):
            out.append(f"deed {deed} ({d.kind}) has level {level}")
        if owner is None or any(s.owner.get(m) != owner for m in members):
            out.append(f"deed {deed} has buildings but its {d.colour} set is not one owner's")
        if any(m in s.mortgaged for m in members):
            out.append(f"deed {deed} has buildings but its {d.colour} set has a mortgaged deed")
        if s.options.even_build:
            heights = [height(s, s.level.get(m, 0)) for m in members]
            if max(heights) - min(heights) > 1:
                out.append(f"the {d.colour} set is built unevenly: {heights}")
    return out


def _cards(s: ClassicState, ed: Edition) -> list[str]:
    out: list[str] = []
    for deck_name, deck in (("chance", s.chance), ("chest", s.chest)):
        ids = sorted(c.id for c in ed.events if c.deck == deck_name)
        present = sorted([*deck, *(c for c in s.held if cards(ed)[c].deck == deck_name)])
        if present != ids:
            out.append(f"the {deck_name} cards in the deck and in hands {present} are not each card once {ids}")
    for card, holder in s.held.items():
        if cards(ed)[card].effect != "jail_card":
            out.append(f"card {card} is held but is not a Get Out of Jail Free card")
        if holder not in s.specs or holder in s.bankrupt:
            out.append(f"jail card {card} held by {holder!r}, not an active player")
    return out
