"""The words and figures of the classic game's screens (no Kivy, no rules): card texts with the edition's
places and amounts, buildings, mortgages, trade sides, the clock, the pot, and the wealth split.

Everything reads the banker's view-model (``building``, ``mortgage``, ``trade``, ``card``, ``tax``,
``clock``, ``pot`` and the classic fields of the board's spaces) through :class:`Presenter`; a field the
view does not carry reads as absent, so Ultimate Banking's views show none of it. Amounts are ``int`` in
the edition's money unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.banker.viewmodel import SpaceView
from engine.editions import Edition, load_edition
from ui.touch.screens.present import Presenter

HOTEL_LEVEL = 5


@cache
def _edition(edition_id: str) -> Edition | None:
    try:
        return load_edition(edition_id)
    except (OSError, KeyError, ValueError):
        return None


def edition_of(presenter: Presenter) -> Edition | None:
    """The edition of the view (its printed deeds and cards), or None when it is not known."""
    return _edition(presenter.view.edition) if presenter.view.edition else None


def field(presenter: Presenter, name: str, default: Any = None) -> Any:
    """A classic field of the view-model (``building``, ``trade``...), ``default`` when the view has none."""
    return getattr(presenter.view, name, default)


# -- the cards ------------------------------------------------------------------------------------------
def card_params(presenter: Presenter, card_id: int) -> dict[str, str]:
    """The figures a Chance or Community Chest card's text names: ``place`` (the target square's name on
    this edition's board), ``amount``, ``per_house``, ``per_hotel`` (money) and ``steps``."""
    edition = edition_of(presenter)
    out: dict[str, str] = {}
    if edition is None:
        return out
    card = next((c for c in edition.events if c.id == card_id), None)
    if card is None:
        return out
    params = dict(card.params)
    target = params.get("target")
    if isinstance(target, int):
        space = next((s for s in presenter.view.board if s.position == target), None)
        out["place"] = presenter.space_name(space) if space is not None else str(target)
    for name in ("amount", "per_house", "per_hotel"):
        value = params.get(name)
        if isinstance(value, int):
            out[name] = presenter.money(value)
    if isinstance(params.get("steps"), int):
        out["steps"] = str(params["steps"])
    return out


def card_text(presenter: Presenter, card: Any) -> tuple[str, str]:
    """(title, text) of the card in the screen's language, with this edition's places and amounts."""
    params = card_params(presenter, int(card.card_id))
    if "amount" not in params and getattr(card, "amount", 0):
        params["amount"] = presenter.money(int(card.amount))
    title = presenter.tr(card.card_key, **params) if presenter.tr.has(card.card_key, "en") else card.card_key
    body = presenter.tr(card.text_key, **params) if presenter.tr.has(card.text_key, "en") else ""
    return title, body


def deck_name(presenter: Presenter, deck: str) -> str:
    """"Chance" or "Community Chest" in the screen's language."""
    key = f"deck.{deck}"
    return presenter.tr(key) if presenter.tr.has(key, "en") else deck


# -- buildings and deeds --------------------------------------------------------------------------------
def buildings_of(space: SpaceView) -> int:
    """A street's buildings as a level: 0 none, 1-4 houses, 5 a hotel."""
    if getattr(space, "hotel", False):
        return HOTEL_LEVEL
    return int(getattr(space, "houses", 0) or 0)


def buildings_words(presenter: Presenter, level: int) -> str:
    """"a hotel", "3 houses" or "no buildings"."""
    if level >= HOTEL_LEVEL:
        return presenter.tr("board.hotel")
    if level == 1:
        return presenter.tr("board.house_one")
    return presenter.tr("board.houses", count=level) if level else presenter.tr("board.no_buildings")


def set_deeds(presenter: Presenter, player: str, extra: tuple[int, ...] = ()) -> list[SpaceView]:
    """The streets of every colour set ``player`` holds whole (and the deeds in ``extra``), in board order."""
    edition = edition_of(presenter)
    spaces = [s for s in presenter.view.board if s.deed is not None]
    by_colour: dict[str, list[SpaceView]] = {}
    for s in spaces:
        by_colour.setdefault(s.colour or "", []).append(s)
    shown: list[SpaceView] = []
    for s in spaces:
        kind = edition.deeds[s.deed].kind if edition is not None and s.deed in edition.deeds else "street"
        whole = kind == "street" and all(o.owner == player for o in by_colour[s.colour or ""])
        if whole or s.deed in extra:
            shown.append(s)
    return shown


def house_cost(presenter: Presenter, deed: int) -> int:
    """The printed cost of one house on ``deed`` (money units; 0 when not a street)."""
    edition = edition_of(presenter)
    return edition.deeds[deed].house_cost if edition is not None and deed in edition.deeds else 0


def mortgage_value(presenter: Presenter, deed: int) -> int:
    """The printed mortgage value of ``deed`` (money units)."""
    edition = edition_of(presenter)
    return edition.deeds[deed].mortgage if edition is not None and deed in edition.deeds else 0


def sell_value(presenter: Presenter, deed: int) -> int:
    """What the Bank pays for one building of ``deed`` sold back: the option ``house_sell_price`` percent of
    the printed house cost (money units)."""
    percent = int(dict(presenter.view.options).get("house_sell_price", 50))
    return house_cost(presenter, deed) * percent // 100


# -- the wealth split -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Wealth:
    """One player's worth split for the bars: ``cash``, ``deeds`` and ``buildings`` in money units."""

    player: str
    cash: int
    deeds: int
    buildings: int

    @property
    def total(self) -> int:
        return self.cash + self.deeds + self.buildings


def buildings_value(presenter: Presenter, player: str) -> int:
    """What ``player``'s buildings cost (a hotel with the houses it needed; money units)."""
    per_hotel = int(dict(presenter.view.options).get("houses_per_hotel", 4)) + 1
    total = 0
    for space in presenter.view.board:
        if space.owner == player and space.deed is not None:
            level = buildings_of(space)
            total += (per_hotel if level == HOTEL_LEVEL else level) * house_cost(presenter, space.deed)
    return total


def wealth_split(presenter: Presenter) -> list[Wealth]:
    """Each player's cash, deeds and buildings: from the standings when the game is over (their total is
    the rules' worth), else from the players' balances and wealth."""
    rows: list[Wealth] = []
    if presenter.view.standings:
        for s in presenter.view.standings:
            built = min(buildings_value(presenter, s.player), max(0, s.deeds_value))
            rows.append(Wealth(s.player, s.cash, s.deeds_value - built, built))
        return rows
    for p in presenter.view.players:
        built = min(buildings_value(presenter, p.id), max(0, p.wealth - p.balance))
        rows.append(Wealth(p.id, p.balance, max(0, p.wealth - p.balance - built), built))
    return rows


# -- the table's strip: the clock, the rent tax, the pot --------------------------------------------------
def clock_text(presenter: Presenter) -> str:
    """The time-limited game's minutes left, and the running action timer with its warning (option
    ``action_timers``) ("" when there is neither)."""
    clock = field(presenter, "clock")
    timer = field(presenter, "timer")
    parts = []
    if clock is not None and clock.seconds_left is not None:
        parts.append(presenter.tr("clock.left", minutes=max(0, int(-(-float(clock.seconds_left) // 60)))))
    if timer is not None:
        key = "timer.warning" if timer.warning else f"timer.{timer.action}"
        parts.append(presenter.tr(key, player=presenter.player_name(timer.player),
                                  seconds=max(0, int(-(-float(timer.seconds_left) // 1)))))
    return " · ".join(parts)


def rent_tax_text(presenter: Presenter) -> str:
    """The late-game rent tax while it applies ("" otherwise)."""
    clock = field(presenter, "clock")
    if clock is None or not clock.rent_tax:
        return ""
    return presenter.tr("clock.rent_tax", percent=int(clock.rent_tax))


def pot_text(presenter: Presenter) -> str:
    """The Free Parking pot when the option plays it ("" otherwise)."""
    if not dict(presenter.view.options).get("free_parking_jackpot"):
        return ""
    return presenter.tr("pot.amount", amount=presenter.money(int(field(presenter, "pot", 0) or 0)))
