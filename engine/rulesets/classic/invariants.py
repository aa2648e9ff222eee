"""The classic invariants: the shared ones (engine/invariants.py) and this ruleset's own.

Its own: a known phase that agrees with the auction, debt and placing details; money conserved with the
Bank and the Free Parking pot (0 <= pot <= what the Bank received); houses and hotels within the Bank's
supply, only on whole colour sets of one owner with no deed mortgaged, built evenly (``even_build``);
mortgages and lots on the right deeds; jail entries of active players with fewer tries than allowed; each
jail card in exactly one place (its deck or one active player's hand) and the decks permutations of the
rest.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.editions import Edition
from engine.invariants import core_accounts, core_holdings, core_invariants, core_turn
from engine.rulesets.classic.edition import cards
from engine.rulesets.classic.state import HOTEL, PHASES, ClassicState

Holdings = tuple[list[str], list[str], list[str], list[str]]
"""What the holdings give (each a list of sentences): owners (engine/invariants.py ``core_holdings``),
buildings, mortgages, lots. They read only ``owner``, ``level``, ``mortgaged``, ``lots``, ``specs``,
``bankrupt`` and the options, so a caller that knows a command's events left those alone may pass the
previous ones (engine/rulesets/classic/watch.py)."""


def check_invariants(s: ClassicState, ed: Edition, holdings: Holdings | None = None,
                     decks: list[str] | None = None) -> list[str]:
    """Every broken invariant of ``s`` as a sentence (amounts in money units). ``holdings`` and ``decks``:
    the results of :func:`holdings_problems` and :func:`deck_problems` for this state, if the caller has them."""
    phase = s.phase
    if phase == "setup" or phase not in PHASES:
        out = core_invariants(s, ed)
        return out if phase == "setup" else [*out, f"unknown phase {phase!r}"]
    if holdings is None:
        holdings = holdings_problems(s, ed)
    out = s.ledger.problems()
    more = core_accounts(s)
    if more:
        out.extend(more)
    if holdings[0]:
        out.extend(holdings[0])
    more = core_turn(s)
    if more:
        out.extend(more)
    if not 0 <= s.pot <= s.ledger.bank_position:
        out.append(f"pot {s.pot} outside 0..{s.ledger.bank_position} (what the Bank received)")
    if (s.auction is not None) != (phase == "auction"):
        out.append(f"phase {phase} but auction details {'present' if s.auction is not None else 'absent'}")
    if bool(s.debts) != (phase == "debt"):
        out.append(f"phase {phase} but debt details {'present' if s.debts else 'absent'}")
    if (s.credit is not None) != (phase == "place"):
        out.append(f"phase {phase} but place details {'present' if s.credit is not None else 'absent'}")
    for part in holdings[1:]:
        if part:
            out.extend(part)
    if s.jail:
        specs, bankrupt, most = s.specs, s.bankrupt, s.options.jail_max_turns
        for p, tries in s.jail.items():
            if p not in specs or p in bankrupt or not 0 <= tries < most:
                out.append(f"jail entry {p!r} with {tries} tries")
    out.extend(deck_problems(s, ed) if decks is None else decks)
    for debt in s.debts:
        if debt.debtor in s.bankrupt or debt.amount <= 0:
            out.append(f"debt {debt} of a bankrupt player or of nothing")
    return out


def holdings_problems(s: ClassicState, ed: Edition) -> Holdings:
    """The invariants of who holds what (see :data:`Holdings`)."""
    owner = s.owner
    mortgages = [f"unowned deed {d} is mortgaged" for d in s.mortgaged if d not in owner]
    lots = [f"deed {d} waits for auction but is owned by {owner[d]}" for d in s.lots if d in owner]
    return core_holdings(s, ed), _buildings(s, ed), mortgages, lots


def _buildings(s: ClassicState, ed: Edition) -> list[str]:
    out: list[str] = []
    level = s.level
    options = s.options
    houses, hotels = s.buildings_used()
    if houses > options.houses_in_bank or hotels > options.hotels_in_bank:
        out.append(f"{houses} houses and {hotels} hotels built, the Bank has {options.houses_in_bank} and "
                   f"{options.hotels_in_bank}")
    if not level:
        return out
    owner_of, mortgaged, even, per_hotel = s.owner, s.mortgaged, options.even_build, options.houses_per_hotel
    hotel_height = per_hotel + 1
    sets: dict[str, tuple[bool, bool, list[int] | None]] = {}  # what each built colour set gives, once a call
    deeds, colour_sets = ed.deeds, ed.colour_sets
    for deed, lv in level.items():
        d = deeds[deed]
        colour = d.colour
        if d.kind != "street" or not 1 <= lv <= HOTEL or (lv != HOTEL and lv > per_hotel):
            out.append(f"deed {deed} ({d.kind}) has level {lv}")
        found = sets.get(colour)
        if found is None:
            members = colour_sets[colour]
            owners = {owner_of.get(m) for m in members}
            heights = [hotel_height if (h := level.get(m, 0)) == HOTEL else h for m in members] if even else None
            found = sets[colour] = (len(owners) != 1 or None in owners,
                                    any(m in mortgaged for m in members),
                                    heights if heights and max(heights) - min(heights) > 1 else None)
        split, has_mortgage, uneven = found
        # the deed is one of its set's members, so "its owner owns every member" is "the set has one owner"
        if split:
            out.append(f"deed {deed} has buildings but its {colour} set is not one owner's")
        if has_mortgage:
            out.append(f"deed {deed} has buildings but its {colour} set has a mortgaged deed")
        if uneven is not None:
            out.append(f"the {colour} set is built unevenly: {uneven}")
    return out


def buildings_clean(s: ClassicState, ed: Edition, touched: Iterable[object]) -> bool:
    """Whether the buildings check would find nothing, given that it found nothing before a command that
    changed only the buildings (``level``) of the deeds ``touched``: the Bank's supply, and the colour sets
    of those deeds, as :func:`_buildings` checks them (the other sets are as they were). False when unsure
    (the caller then checks everything)."""
    level, options = s.level, s.options
    houses, hotels = s.buildings_used()
    if houses > options.houses_in_bank or hotels > options.hotels_in_bank:
        return False
    deeds, owner_of, mortgaged = ed.deeds, s.owner, s.mortgaged
    per_hotel = options.houses_per_hotel
    hotel_height = per_hotel + 1
    colours = set()
    for deed in touched:
        d = deeds.get(deed)  # type: ignore[call-overload]
        if d is None:
            return False
        colours.add(d.colour)
    for colour in colours:
        members = ed.colour_sets[colour]
        built = [m for m in members if m in level]
        if not built:
            continue
        for m in built:
            lv = level[m]
            if deeds[m].kind != "street" or not 1 <= lv <= HOTEL or (lv != HOTEL and lv > per_hotel):
                return False
        owners = {owner_of.get(m) for m in members}
        if len(owners) != 1 or None in owners or any(m in mortgaged for m in members):
            return False
        if options.even_build:
            heights = [hotel_height if (h := level.get(m, 0)) == HOTEL else h for m in members]
            if heights and max(heights) - min(heights) > 1:
                return False
    return True


def owners_clean(s: ClassicState, ed: Edition, touched: Iterable[object]) -> bool:
    """Whether the holdings check would find nothing, given that it found nothing before a command that
    changed only the owners of the deeds ``touched``: each is a deed of the edition, owned now by an active
    player and not waiting as a lot (an owned deed cannot be an unowned mortgaged one), and its colour set's
    buildings are in order (:func:`buildings_clean`; every other deed's owner is as it was). False when
    unsure (the caller then checks everything)."""
    deeds, owner_of, specs, bankrupt, lots = ed.deeds, s.owner, s.specs, s.bankrupt, s.lots
    for deed in touched:
        if deed not in deeds:
            return False
        owner = owner_of.get(deed)  # type: ignore[call-overload]
        if owner is None or owner not in specs or owner in bankrupt or deed in lots:
            return False
    return buildings_clean(s, ed, touched)


_DECK_IDS: dict[str, tuple[tuple[str, list[int]], ...]] = {}  # edition id -> (deck, its sorted card ids)


def deck_problems(s: ClassicState, ed: Edition) -> list[str]:
    """The invariants of the two decks and the jail cards held (reads ``chance``, ``chest``, ``held``,
    ``specs``, ``bankrupt``)."""
    out: list[str] = []
    decks = _DECK_IDS.get(ed.id)
    if decks is None:
        decks = _DECK_IDS[ed.id] = tuple(
            (name, sorted(c.id for c in ed.events if c.deck == name)) for name in ("chance", "chest"))
    held = s.held
    by_id = cards(ed)
    for (deck_name, ids), deck in zip(decks, (s.chance, s.chest), strict=True):
        present = sorted([*deck, *(c for c in held if by_id[c].deck == deck_name)]) if held else sorted(deck)
        if present != ids:
            out.append(f"the {deck_name} cards in the deck and in hands {present} are not each card once {ids}")
    for card, holder in held.items():
        if by_id[card].effect != "jail_card":
            out.append(f"card {card} is held but is not a Get Out of Jail Free card")
        if holder not in s.specs or holder in s.bankrupt:
            out.append(f"jail card {card} held by {holder!r}, not an active player")
    return out
