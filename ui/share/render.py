"""What a phone is sent: the banker's view-model and the journal's events as JSON, in one language.

Pure functions over immutable inputs (a :class:`ViewModel` is a frozen dataclass; engine events too), so
the share's thread may call them on snapshots the banker handed over. Amounts are ints in the edition's
money unit; every amount a phone shows is formatted here with ui/money.py in the phone's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engine.banker.viewmodel import ViewModel
from engine.events import Event
from ui.i18n import LANGUAGES, Translator
from ui.share.payments import money, name_of, ruleset_of
from ui.share.told import tell

PAGE_KEYS: tuple[str, ...] = (
    "share.title", "share.players", "share.board", "share.payments", "share.chart", "share.standings",
    "share.waiting", "share.reconnecting", "share.live", "share.jail", "share.bankrupt", "share.turn",
    "share.mortgaged", "share.hotel", "share.houses", "share.no_payments", "share.over", "share.language",
    "share.unowned", "share.read_only", "share.receipt_hint", "standings.rank", "standings.player",
    "standings.cash",
    "standings.deeds", "standings.total",
)
"""The catalog keys the page's own words come from (sent once with the page)."""

LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "ro": "Română", "ja": "日本語"}

_TR = Translator("en")


def page_strings(lang: str) -> dict[str, str]:
    """The page's words in ``lang`` (``share.houses`` keeps its ``{count}``)."""
    strings = {key: _TR.text(key, lang) for key in PAGE_KEYS}
    strings["share.houses"] = _TR.text("share.houses", lang, count="{count}")
    return strings


def pick_language(query: str | None, accept: str | None) -> str:
    """The phone's language: ``?lang=`` when it is one of ours, else the first of ``Accept-Language``
    we speak (``ru-RU,ru;q=0.9`` -> ru), else English."""
    if query in LANGUAGES:
        return str(query)
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept or "")[:512].split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower().split("-")[0]
        q = 1.0
        for field in fields[1:]:
            name, _, value = field.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag in LANGUAGES and q > 0:
            ranked.append((-q, index, tag))
    return sorted(ranked)[0][2] if ranked else "en"


CHART_POINTS = 160  # at most this many points per player on the phone's chart (a long game is thinned)


_money = money
_name = name_of


def event_message(event: Event, view: ViewModel | None, lang: str,
                  game_events: Sequence[Event] = ()) -> dict[str, Any]:
    """One journal event as a phone gets it: its seq and type, ``kind`` (what its money was for, "" if it
    moved none), ``text`` (the entry in words, "" if none) and ``receipt`` (its figures in words, "" if
    none), all from ui/share/told.py in ``lang``."""
    told = tell(event, game_events, view, lang)
    return {"seq": event.seq, "type": type(event).__name__, "kind": told.kind, "text": told.text,
            "receipt": told.receipt}


def view_message(view: ViewModel, lang: str) -> dict[str, Any]:
    """The table as a phone shows it: players, board, chart, standings; amounts formatted for ``lang``."""
    cur = view.currency
    names = {p.id: p for p in view.players}
    here: dict[int, list[str]] = {}
    for p in view.players:
        if p.position is not None and not p.bankrupt:
            here.setdefault(p.position, []).append(p.token)
    board = []
    levels = ruleset_of(view.edition) == "ultimate"  # Ultimate's rent levels; classic shows its buildings
    for s in view.board:
        owner = names.get(s.owner) if s.owner else None
        board.append({
            "pos": s.position, "kind": s.kind, "name": s.name, "colour": s.colour, "deed": s.deed,
            "price": _money(s.price, cur, lang) if s.price is not None else "",
            "owner": _name(view.players, owner.id, lang) if owner else (s.owner or ""), "owner_token": owner.token if owner else "",
            "level": s.level, "houses": s.houses, "hotel": s.hotel, "mortgaged": s.mortgaged,
            "rent": _money(s.rent, cur, lang) if s.rent is not None and s.owner else "",
            "rent_level": _TR.text("share.level", lang, level=s.level) if levels and s.owner and s.level else "",
            "rent_text": _TR.text("share.rent", lang, rent=_money(s.rent, cur, lang))
            if s.rent is not None and s.owner and not s.mortgaged else "",
            "tokens": here.get(s.position, []),
        })
    players = [{
        "id": p.id, "name": _name(view.players, p.id, lang), "token": p.token, "balance": _money(p.balance, cur, lang),
        "wealth": _money(p.wealth, cur, lang), "jail": p.in_jail, "bankrupt": p.bankrupt,
        "deeds": len(p.deeds), "turn": p.id == view.turn and not p.bankrupt and view.phase != "over", "position": p.position,
    } for p in view.players]
    series = [{"name": _name(view.players, pid, lang), "token": names[pid].token if pid in names else "",
               "points": _thin(points)} for pid, points in view.wealth_history]
    standings = [{"rank": r.rank, "name": _name(view.players, r.player, lang), "cash": _money(r.cash, cur, lang),
                  "deeds": _money(r.deeds_value, cur, lang), "total": _money(r.total, cur, lang)}
                 for r in view.standings]
    return {
        "seq": view.seq, "state": view.state, "phase": view.phase, "positions": view.positions,
        "edition": _edition_name(view.edition, lang), "players": players, "board": board,
        "chart": series, "standings": standings,
        "pot": _money(view.pot, cur, lang) if view.pot else "",
    }


def _thin(points: tuple[int, ...]) -> list[int]:
    """At most about :data:`CHART_POINTS` of ``points``, evenly spaced, the last one always kept."""
    if len(points) <= CHART_POINTS:
        return list(points)
    step = -(-len(points) // CHART_POINTS)
    thinned = list(points[::step])
    if (len(points) - 1) % step:
        thinned.append(points[-1])
    return thinned


@lru_cache(maxsize=64)
def _edition_name(edition_id: str, lang: str) -> str:
    key = f"edition.{edition_id}"
    return _TR.text(key, lang) if _TR.has(key, "en") else edition_id
