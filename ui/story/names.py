"""What a sentence needs to name things in the table's language: players, deeds and spaces, cards, colours,
money. Made from the view a screen already has (:meth:`Names.from_view`) or from a rebuilt game
(:meth:`Names.from_game`, for the story export); amounts are ints in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.banker.setup import default_seat
from engine.editions import Edition, load_edition
from ui.i18n import Translator
from ui.money import CURRENCIES, format_amount, format_money
from ui.story.plural import ngettext


@dataclass
class Names:
    """Names and words of one game in one language (``lang`` one of ui.i18n.LANGUAGES)."""

    lang: str
    currency: str = "M"
    players: Mapping[str, str] = field(default_factory=dict)
    edition: Edition | None = None
    tr: Translator = field(default_factory=Translator)

    @classmethod
    def from_game(cls, game: Any, lang: str) -> Names:
        """From a rebuilt :class:`engine.game.Game` (its players' names as registered)."""
        players = {pid: spec.name for pid, spec in game.state.specs.items()}
        return cls(lang, _currency(game.edition), players, game.edition, Translator(lang))

    @classmethod
    def from_view(cls, view: Any, lang: str, translator: Translator | None = None) -> Names:
        """From a screen's :class:`engine.banker.viewmodel.ViewModel` (its players' display names)."""
        edition = load_edition(view.edition) if view.edition else None
        players = {p.id: p.name for p in view.players}
        return cls(lang, view.currency if view.currency in CURRENCIES else "M", players, edition,
                   translator or Translator(lang))

    def text(self, key: str, **params: object) -> str:
        """The catalog's ``key`` in this language with ``params``."""
        return self.tr.text(key, self.lang, **params)

    def count(self, key: str, n: int) -> str:
        """A counted word (a plural entry of the catalog), e.g. ``3 дома``."""
        return ngettext(key, n, self.lang)

    def money(self, amount: int) -> str:
        """``amount`` money units as the table reads them (``M1,500``, ``1 500 тыс. ₽``)."""
        return format_money(int(amount), self.currency, self.lang, self.tr)

    def number(self, value: int) -> str:
        """A plain figure with the language's digit grouping."""
        return format_amount(int(value), self.lang)

    def player(self, player_id: str | None) -> str:
        """A player's name; the Bank, the pot or the seat's default name where there is no name."""
        if player_id is None or player_id == "bank":
            return self.text("word.bank")
        if player_id == "pot":
            return self.text("word.pot")
        name = self.players.get(player_id, "")
        seat = default_seat(name, player_id)
        if seat is not None:
            return self.text("player.default_name", number=seat)
        return name or player_id

    def deed(self, number: int) -> str:
        """A deed's name in this language where the edition has it, else in the edition's own."""
        ed = self.edition
        if ed is None or number not in ed.deeds:
            return self.text("deed.number", number=number)
        return self.place(ed.deeds[number].position)

    def place(self, position: int) -> str:
        """A board space's name (the deed's, or the translated kind of an unnamed space)."""
        ed = self.edition
        if ed is None or not 0 <= position < len(ed.spaces):
            return str(position)
        names = ed.names.get(self.lang) or ed.names[ed.language]
        space = ed.spaces[position]
        key = f"space.{space.kind}"
        if space.kind != "deed" and space.deed is None and self.tr.has(key, "en"):
            return self.text(key)
        return names[position]

    def card(self, card_id: int) -> str:
        """An event card's title in this language (its catalog entry ``event.<key>``)."""
        ed = self.edition
        if ed is None:
            return str(card_id)
        try:
            card = ed.card(card_id)
        except (KeyError, LookupError, ValueError):
            return str(card_id)
        key = f"event.{card.key}"
        return self.text(key, **self._card_params(card)) if self.tr.has(key, "en") else card.name

    def _card_params(self, card: Any) -> dict[str, str]:
        """The figures a classic card's title may name: its target square, amounts, steps, the railway word."""
        params = dict(card.params)
        out: dict[str, str] = {}
        if isinstance(params.get("target"), int):
            out["place"] = self.place(int(params["target"]))
        for name in ("amount", "per_house", "per_hotel"):
            if isinstance(params.get(name), int):
                out[name] = self.money(int(params[name]))
        if "amount" not in out and card.amount:
            out["amount"] = self.money(card.amount)
        if isinstance(params.get("steps"), int):
            out["steps"] = str(params["steps"])
        own = f"railway.{self.edition.id}" if self.edition is not None else "railway"
        out["railway"] = self.text(own if self.tr.has(own, "en") else "railway")
        return out

    def colour(self, colour: str) -> str:
        key = f"colour.{colour}"
        return self.text(key) if self.tr.has(key, "en") else colour


def _currency(edition: Edition) -> str:
    return edition.currency if edition.currency in CURRENCIES else "M"
