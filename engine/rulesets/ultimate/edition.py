"""The tables an Ultimate Banking edition file carries beyond the shared ones (docs/rules.md 1.7, 1.8, 1.11).

Every deed has the rents of levels 1..5; ``sides`` lists the deed numbers of the board's four sides (for
the "side of the board" events); ``events`` are the event cards, each with an ``effect`` of
:data:`EFFECT_CHOICES` and the ``choice`` that effect asks for. Amounts are ``int`` in money units.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.editions import SIDE_NAMES, Deed, EditionReader, EventCard

LEVELS = 5
SPACE_KINDS = ("go", "deed", "event", "location", "jail", "parking", "go_to_jail")
EFFECT_CHOICES: Mapping[str, str] = MappingProxyType({
    "set_level_up": "colour_set",
    "set_level_down": "colour_set",
    "side_level_up": "side",
    "side_level_down": "side",
    "deed_to_level_5": "own_deed",
    "deed_to_level_1": "any_owned_deed",
    "raise_lower_neighbours": "own_deed",
    "bonus_with_other": "other_player",
    "swap_deeds": "own_and_opponent_deed",
    "send_to_jail": "other_player",
    "move_to_deed": "any_deed",
    "highway_tax": "none",
    "on_the_run": "none",
    "gridlock": "none",
})
EFFECTS_WITH_AMOUNT = ("bonus_with_other", "highway_tax")


def parse_edition(r: EditionReader, data: Mapping[str, object], deeds: Mapping[int, Deed]) -> dict[str, object]:
    """Check the five rents of every deed; read ``sides`` and ``events`` (raise EditionError naming the field)."""
    for where, t in r.tables(data, "deeds"):
        rents = t.get("rents")
        if not isinstance(rents, list) or len(rents) != LEVELS:
            raise r.fail(f"{where}.rents", f"{LEVELS} positive whole numbers (levels 1-5)", rents)
    return {"sides": _sides(r, data, deeds), "events": _events(r, data)}


def _sides(r: EditionReader, data: Mapping[str, object], deeds: Mapping[int, Deed]) -> tuple[tuple[int, ...], ...]:
    sides_raw = r.list_(data, "sides", "sides")
    sides = tuple(tuple(n for n in s if isinstance(n, int)) for s in sides_raw if isinstance(s, list))
    flat = [n for s in sides for n in s]
    if len(sides) != len(SIDE_NAMES) or len(sides_raw) != len(SIDE_NAMES) or set(flat) != set(deeds) \
            or len(flat) != len(deeds) or sum(len(s) for s in sides_raw if isinstance(s, list)) != len(flat):
        raise r.fail("sides", f"{len(SIDE_NAMES)} lists covering every deed number once", sides_raw)
    return sides

def _events(r: EditionReader, data: Mapping[str, object]) -> tuple[EventCard, ...]:
    def read(t: Mapping[str, object], where: str, card_id: int) -> EventCard:
        effect = r.str_(t, "effect", f"{where}.effect")
        if effect not in EFFECT_CHOICES:
            raise r.fail(f"{where}.effect", f"one of {sorted(EFFECT_CHOICES)}", effect)
        choice = r.str_(t, "choice", f"{where}.choice")
        if choice != EFFECT_CHOICES[effect]:
            raise r.fail(f"{where}.choice", f"{EFFECT_CHOICES[effect]!r} for effect {effect!r}", choice)
        amount = r.int_(t, "amount", f"{where}.amount", 1) if effect in EFFECTS_WITH_AMOUNT else 0
        return r.card(t, where, card_id, effect, choice, amount)

    cards = r.cards(data, "events", read)
    if not cards:
        raise r.fail("events", "at least one event card", r.list_(data, "events", "events"))
    return cards
