"""The tables a classic edition file carries beyond the shared ones (docs/rules.md 3.1-3.4, 6.1).

Deeds have a ``kind``: a ``street`` prints six rents (none, 1-4 houses, a hotel), a ``house_cost`` and a
``mortgage``; a ``railroad`` prints the rents with 1-4 stations owned; a ``utility`` prints the two dice
multipliers (one or both owned). ``[[taxes]]`` gives each tax space its ``kind`` (``income`` or ``luxury``)
and ``amount``. ``[[cards]]`` are Chance and Community Chest: ``deck``, ``effect`` (one of
:data:`EFFECT_PARAMS`) and the effect's figures. Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import cast

from engine.editions import Deed, Edition, EditionReader, EventCard

SPACE_KINDS = ("go", "deed", "chance", "chest", "tax", "jail", "parking", "go_to_jail")
DECKS = ("chance", "chest")
RENTS_BY_KIND: Mapping[str, int] = MappingProxyType({"street": 6, "railroad": 4, "utility": 2})
EFFECT_PARAMS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "advance": ("target",),  # move to the board position, the salary if GO is passed or reached
    "back": ("steps",),  # move back that many spaces
    "nearest": ("kind", "rule"),  # the next railroad/utility ahead; rule "double" or "tenfold"
    "jail": (),  # straight to jail
    "jail_card": (),  # Get Out of Jail Free: kept until used, traded or returned
    "collect": ("amount",),  # from the Bank
    "pay": ("amount",),  # to the Bank (or the pot)
    "pay_each": ("amount",),  # to every other player
    "collect_each": ("amount",),  # from every other player
    "repairs": ("per_house", "per_hotel"),  # for each house and hotel the drawer owns
})
RULES = ("double", "tenfold")


def cards(ed: Edition) -> Mapping[int, EventCard]:
    """The edition's Chance and Community Chest cards by id."""
    return cast(Mapping[int, EventCard], ed.extra["cards"])


def taxes(ed: Edition) -> Mapping[int, tuple[str, int]]:
    """Tax space position -> (``"income"`` or ``"luxury"``, amount in money units)."""
    return cast(Mapping[int, tuple[str, int]], ed.extra["taxes"])


def parse_edition(r: EditionReader, data: Mapping[str, object], deeds: Mapping[int, Deed]) -> dict[str, object]:
    """Check the deeds' kinds and figures, read the taxes and the two decks (EditionError naming the field)."""
    for n, d in deeds.items():
        where = f"deeds[{n - 1}]"
        if d.kind not in RENTS_BY_KIND:
            raise r.fail(f"{where}.kind", f"one of {sorted(RENTS_BY_KIND)}", d.kind)
        if len(d.rents) != RENTS_BY_KIND[d.kind]:
            raise r.fail(f"{where}.rents", f"{RENTS_BY_KIND[d.kind]} rents for a {d.kind}", list(d.rents))
        if d.mortgage < 1 or d.mortgage > d.price:
            raise r.fail(f"{where}.mortgage", "a mortgage value 1..price", d.mortgage)
        if (d.kind == "street") != (d.house_cost > 0):
            raise r.fail(f"{where}.house_cost", "a house cost on streets only", d.house_cost)
    kinds = r.list_(data, "spaces", "spaces")
    taxes: dict[int, tuple[str, int]] = {}
    for where, t in r.tables(data, "taxes"):
        pos = r.int_(t, "position", f"{where}.position")
        if pos >= len(kinds) or kinds[pos] != "tax":
            raise r.fail(f"{where}.position", "a tax space", pos)
        kind = r.str_(t, "kind", f"{where}.kind")
        if kind not in ("income", "luxury"):
            raise r.fail(f"{where}.kind", "income or luxury", kind)
        taxes[pos] = (kind, r.int_(t, "amount", f"{where}.amount", 1))
    if sorted(taxes) != [p for p, k in enumerate(kinds) if k == "tax"]:
        raise r.fail("taxes", "one entry for each tax space", sorted(taxes))
    deck = _cards(r, data, len(kinds), deeds)
    return {"events": deck, "sides": (), "extra": {
        "cards": MappingProxyType({c.id: c for c in deck}), "taxes": MappingProxyType(taxes),
    }}


def _cards(r: EditionReader, data: Mapping[str, object], size: int, deeds: Mapping[int, Deed]) -> tuple[EventCard, ...]:
    def read(t: Mapping[str, object], where: str, card_id: int) -> EventCard:
        deck = r.str_(t, "deck", f"{where}.deck")
        if deck not in DECKS:
            raise r.fail(f"{where}.deck", f"one of {DECKS}", deck)
        effect = r.str_(t, "effect", f"{where}.effect")
        if effect not in EFFECT_PARAMS:
            raise r.fail(f"{where}.effect", f"one of {sorted(EFFECT_PARAMS)}", effect)
        params: dict[str, object] = {}
        for name in EFFECT_PARAMS[effect]:
            if name in ("kind", "rule"):
                value: object = r.str_(t, name, f"{where}.{name}")
                allowed = ("railroad", "utility") if name == "kind" else RULES
                if value not in allowed:
                    raise r.fail(f"{where}.{name}", f"one of {allowed}", value)
            else:
                value = r.int_(t, name, f"{where}.{name}", 0 if name in ("per_hotel", "target") else 1)
                if name == "target" and isinstance(value, int) and value >= size:
                    raise r.fail(f"{where}.target", f"a board position 0..{size - 1}", value)
            params[name] = value
        if effect == "nearest" and not any(d.kind == params["kind"] for d in deeds.values()):
            raise r.fail(f"{where}.kind", "a kind of deed the board has", params["kind"])
        amount = params.get("amount", 0)
        return r.card(t, where, card_id, effect, "none", amount if isinstance(amount, int) else 0, deck, params)

    cards = r.cards(data, "cards", read)
    for deck in DECKS:
        if not any(c.deck == deck for c in cards):
            raise r.fail("cards", f"at least one {deck} card", len(cards))
    return cards
