"""What each printed card says: an edition's cards as :class:`CardFace` values in one language.

Amounts are formatted here with :func:`ui.money.format_money` (money units of the edition: M, or
thousands of rubles for ``RUB_K``); names come from the edition's board names in the language when it
has them (else its own), card texts from the catalogs (``event.<key>``, ``event.<key>.text``, with the
edition's places and amounts filled in), the words around them from the ``print.*`` catalog keys.

The cards of a set, in this order (the numbers are those of ``boardbank cards enroll``):

* the title deeds 1..N: a colour band with the name; a classic street has its rent, the rents with 1-4
  houses and a hotel, the house cost and the mortgage value; a railroad its rent by how many are owned;
  a utility its dice multipliers; an Ultimate Banking deed its price and its five rent levels;
* the event cards 1..M: the classic Chance and Community Chest cards under their deck's name, Ultimate
  Banking's event cards;
* the bank cards of players 1..8 and the banker card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.editions import Deed, Edition, EventCard, list_editions, load_edition
from ui.i18n import Translator, load_catalog
from ui.money import format_money
from ui.setmarks import SetMark, mark_of

PLAYER_CARDS = 8
"""How many bank cards a set has (the most players a game may have)."""

COLOURS: dict[str, str] = {
    "brown": "#8B4513",
    "light_blue": "#9DD3F0",
    "pink": "#D63C91",
    "orange": "#F39325",
    "red": "#E1261C",
    "yellow": "#FBE320",
    "green": "#1FA346",
    "dark_blue": "#1D4FA5",
    "railroad": "#FFFFFF",
    "utility": "#FFFFFF",
}
"""Colour bands (hex RGB) by the edition's colour set name."""

DARK_BANDS = frozenset({"brown", "pink", "red", "green", "dark_blue"})
"""Bands whose name is printed in white."""


@dataclass(frozen=True, slots=True)
class CardFace:
    """One printed card: ``kind`` is ``deed``, ``event``, ``player`` or ``banker``; ``role`` how ``cards
    enroll`` names it (``deed 3``); ``header`` the small line above the ``title``; ``band`` the colour band
    (hex) or ``""``; ``rows`` (label, amount) pairs of a table; ``lines`` free text under it; ``deck`` an event card's
    deck (``chance``, ``chest``, or ``""`` for Ultimate Banking's events); ``mark`` a deed's colour set mark
    (ui/setmarks.py: letters and pattern, printed in a strip of the band), None for no colour set."""

    kind: str
    role: str
    header: str
    title: str
    band: str = ""
    dark_band: bool = False
    rows: tuple[tuple[str, str], ...] = ()
    lines: tuple[str, ...] = ()
    deck: str = ""
    mark: SetMark | None = None


def space_names(edition: Edition, lang: str) -> tuple[str, ...]:
    """The board's names in ``lang`` when the edition has them, else its own."""
    own = tuple(space.name for space in edition.spaces)
    return tuple(edition.names.get(lang, own))


class CardSet:
    """The faces of ``edition``'s cards in ``lang`` (see the module docstring)."""

    def __init__(self, edition: Edition, lang: str, translator: Translator | None = None) -> None:
        self.edition = edition
        self.lang = lang
        self.tr = translator or Translator(lang)
        self.names = space_names(edition, lang)

    def t(self, key: str, **params: object) -> str:
        """The catalog text of ``key`` in the set's language."""
        return self.tr.text(key, self.lang, **params)

    def money(self, amount: int) -> str:
        """``amount`` (money units of the edition) as the language shows it, with no-break spaces (an amount
        is never split across two lines: "50 тыс. ₽")."""
        return format_money(amount, self.edition.currency, self.lang, self.tr).replace(" ", "\u00a0")

    # -- deeds ------------------------------------------------------------------------------------------
    def deed(self, deed: Deed) -> CardFace:
        """The title deed ``deed``."""
        name = self.names[deed.position]
        band = COLOURS.get(deed.colour, "#FFFFFF")

        def face(rows: list[tuple[str, str]], lines: tuple[str, ...] = ()) -> CardFace:
            return CardFace("deed", f"deed {deed.number}", self.t("print.title_deed"), name, band,
                            deed.colour in DARK_BANDS, tuple(rows), lines, mark=mark_of(deed.colour))

        if self.edition.ruleset != "classic":
            rows = [(self.t("print.price"), self.money(deed.price))]
            rows += [(self.t("print.level", level=i), self.money(r)) for i, r in enumerate(deed.rents, 1)]
            return face(rows)
        if deed.kind == "railroad":
            rows = [(self.t("print.owned", count=i), self.money(r)) for i, r in enumerate(deed.rents, 1)]
            lines = (self.t("print.mortgage", amount=self.money(deed.mortgage)),)
            return face(rows, lines)
        if deed.kind == "utility":
            one, both = (*deed.rents, 0, 0)[:2]
            lines = (self.t("print.utility_one", times=one), self.t("print.utility_both", times=both),
                     self.t("print.mortgage", amount=self.money(deed.mortgage)))
            return face([], lines)
        labels = [self.t("print.rent")] + [self.t(f"print.house_{i}") for i in range(1, 5)] + [self.t("print.hotel")]
        rows = list(zip(labels, (self.money(r) for r in deed.rents), strict=False))
        lines = (self.t("print.set_double"),
                 self.t("print.house_cost", amount=self.money(deed.house_cost)),
                 self.t("print.hotel_cost", amount=self.money(deed.house_cost)),
                 self.t("print.mortgage", amount=self.money(deed.mortgage)))
        return face(rows, lines)

    # -- event cards ------------------------------------------------------------------------------------
    def _params(self, card: EventCard) -> dict[str, str]:
        params: Mapping[str, object] = card.params
        out: dict[str, str] = {}
        target = params.get("target")
        if isinstance(target, int) and 0 <= target < len(self.names):
            out["place"] = self.names[target]
        for name in ("amount", "per_house", "per_hotel"):
            value = params.get(name)
            if isinstance(value, int):
                out[name] = self.money(value)
        if "amount" not in out and card.amount:
            out["amount"] = self.money(card.amount)
        if isinstance(params.get("steps"), int):
            out["steps"] = str(params["steps"])
        return out

    def event(self, card: EventCard) -> CardFace:
        """The event card ``card``: the classic deck's name or "Event" above its title and text."""
        params = self._params(card)
        key = f"event.{card.key}"
        title = self.t(key, **params) if self.tr.has(key, "en") else card.name
        text = self.t(f"{key}.text", **params) if self.tr.has(f"{key}.text", "en") else card.text
        lines = [text]
        if card.amount and "{amount}" not in load_catalog("en").get(f"{key}.text", card.text):
            lines.append(self.t("print.amount", amount=self.money(card.amount)))
        header = self.t(f"deck.{card.deck}") if card.deck else self.t("space.event")
        return CardFace("event", f"event {card.id}", header, title, lines=tuple(lines), deck=card.deck)

    # -- bank cards -------------------------------------------------------------------------------------
    def player(self, number: int) -> CardFace:
        """The bank card of player ``number``."""
        return CardFace("player", f"player {number}", self.t("print.bank_card"),
                        self.t("print.player", number=number))

    def banker(self) -> CardFace:
        """The banker card (opens the banker's menu)."""
        return CardFace("banker", "banker", self.t("print.bank_card"), self.t("print.banker"))

    def faces(self) -> dict[str, list[CardFace]]:
        """Every card of the set by kind of card: ``deed``, ``event``, ``bank`` (players and the banker)."""
        deeds = [self.deed(self.edition.deeds[n]) for n in sorted(self.edition.deeds)]
        events = [self.event(card) for card in self.edition.events]
        bank = [self.player(n) for n in range(1, PLAYER_CARDS + 1)] + [self.banker()]
        return {"deed": deeds, "event": events, "bank": bank}


def card_set(edition_id: str, lang: str) -> CardSet:
    """The card set of a built-in or user edition ``edition_id`` (raises :class:`EditionError`)."""
    return CardSet(load_edition(edition_id), lang)


def editions() -> list[str]:
    """The editions a set can be printed for."""
    return list(list_editions())
