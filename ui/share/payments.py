"""Payments in words for the phones, until the story module says them (ui/share/told.py chooses).

Each journal entry that moves money gets what it was for (rent, a purchase, buildings, a mortgage, a tax, a
bankruptcy...: :func:`purpose`), the place it was for when it has one (the deed's name as the board shows
it), who paid whom and how much (``Rent for Baltic Avenue: Bob » Ann: M200``), and a receipt: the figures
the entry itself holds (a bankruptcy's cash and the Bank's share and their sum, a building's new count, the
journal entry's number). The rule's arithmetic (a rent's level, houses or whole set) is not in the entry;
the story module's receipts bring it. Amounts are ints in the edition's money unit, formatted with
ui/money.py in the phone's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine import events as ev
from engine.banker.board import last_transaction
from engine.banker.setup import default_seat
from engine.banker.viewmodel import PlayerView, SpaceView, ViewModel
from ui.i18n import Translator
from ui.money import CURRENCIES, format_money

_TR = Translator("en")

PURPOSES: dict[str, str] = {
    "RentPaid": "rent", "DeedBought": "purchase", "AuctionWon": "auction", "SalaryPaid": "salary",
    "BuildingBought": "building", "BuildingSold": "building_sold", "DeedMortgaged": "mortgage",
    "MortgageLifted": "mortgage_lifted", "MortgageFeePaid": "mortgage_fee", "LocationUsed": "location",
    "DeedReturned": "deed_returned", "DebtSettled": "debt", "PlayerBankrupt": "bankruptcy",
    "MoneyCorrected": "correction",
}
"""Event type -> what its money was for (the catalog's ``share.for.<purpose>``)."""

REASONS: dict[str, str] = {
    "jail_fee": "jail", "jail_fine": "jail", "fee": "jail", "income_tax": "tax", "luxury_tax": "tax",
    "highway_tax": "tax", "tax": "tax", "rent_tax": "tax", "card": "card", "repairs": "repairs",
    "event_bonus": "event", "jackpot": "jackpot", "bankruptcy": "bankruptcy",
}
"""A ``MoneyTransferred``'s reason -> its purpose; any other reason is a plain ``payment``."""


@dataclass(frozen=True, slots=True)
class Told:
    """One journal entry as a phone shows it: ``kind`` (a purpose, "" for an entry that moves no money),
    ``text`` (one line) and ``receipt`` (its figures in words, "" if none)."""

    kind: str
    text: str
    receipt: str


@lru_cache(maxsize=16)
def ruleset_of(edition_id: str) -> str:
    """The ruleset of the built-in edition ``edition_id`` ("" when it is not one)."""
    from engine.editions import load_edition

    try:
        return load_edition(edition_id).ruleset
    except (OSError, ValueError):  # EditionError is a ValueError
        return ""


def _transaction(event: Any, edition_id: str) -> Any:
    """The money ``event`` moved (engine/banker/board.py), the edition's ruleset reading its own events."""
    from engine.banker.plugins import view_part

    ruleset = ruleset_of(edition_id) if edition_id else ""
    return last_transaction([event], view_part(ruleset).money if ruleset else None)


def purpose(event: Any) -> str:
    """What ``event``'s money was for (``rent``, ``tax``, ``bankruptcy``... or ``payment``)."""
    name = type(event).__name__
    if isinstance(event, ev.MoneyTransferred):
        return REASONS.get(event.reason, "payment")
    return PURPOSES.get(name, "payment")


@lru_cache(maxsize=4096)
def money(amount: int, currency: str, lang: str) -> str:
    """``amount`` money units as the unit's screen writes them in ``lang``."""
    return format_money(int(amount), currency if currency in CURRENCIES else "M", lang, _TR)


def name_of(players: Sequence[PlayerView], player_id: str | None, lang: str) -> str:
    """A player's name, or the Bank's or the pot's in ``lang``."""
    if player_id is None or player_id == "bank":
        return _TR.text("word.bank", lang)
    if player_id == "pot":
        return _TR.text("word.pot", lang)
    for p in players:
        if p.id == player_id:
            seat = default_seat(p.name, p.id)
            return _TR.text("player.default_name", lang, number=seat) if seat else p.name
    return player_id


def _place(board: Sequence[SpaceView], deed: object) -> str:
    if not isinstance(deed, int) or isinstance(deed, bool):
        return ""
    for space in board:
        if space.deed == deed:
            return space.name
    return ""


def _what(kind: str, place: str, lang: str) -> str:
    """``share.for.<kind>`` ("Rent for Baltic Avenue"); its ``_at`` form names the place when there is one."""
    key = f"share.for.{kind}"
    if place and _TR.has(f"{key}_at", "en"):
        return _TR.text(f"{key}_at", lang, place=place)
    return _TR.text(key if _TR.has(key, "en") else "share.for.payment", lang)


def fallback(event: Any, view: ViewModel | None, lang: str) -> Told:
    """``event`` in words from the event alone: what it was for, who paid whom and how much, and its
    receipt (the figures the entry holds). ``Told("", "", "")`` for an entry that moves no money."""
    players = view.players if view is not None else ()
    board = view.board if view is not None else ()
    cur = view.currency if view is not None else "M"
    seq = int(event.seq)
    if isinstance(event, ev.PlayerBankrupt):
        return _bankruptcy(event, players, cur, lang)
    tx = _transaction(event, view.edition if view is not None else "")
    if tx is None:
        return Told("", "", "")
    kind = purpose(event)
    what = _what(kind, _place(board, getattr(event, "deed", None)), lang)
    amount = money(tx.amount, cur, lang)
    line = _TR.text("tx.line", lang, payer=name_of(players, tx.payer, lang),
                    payee=name_of(players, tx.payee, lang), amount=amount)
    text = _TR.text("share.told", lang, what=what, line=line)
    figures = ""
    if isinstance(getattr(event, "level", None), int) and kind in ("building", "building_sold"):
        level = int(event.level)
        now = _TR.text("share.hotel", lang) if level >= 5 else _TR.text("share.houses", lang, count=level)
        figures = _TR.text("share.now", lang, now=now)
    receipt = _TR.text("share.receipt.entry", lang, seq=seq, what=what, amount=amount)
    if figures:
        receipt = _TR.text("share.receipt.figures", lang, text=receipt, figures=figures)
    return Told(kind, text, receipt)


def _bankruptcy(event: ev.PlayerBankrupt, players: Sequence[PlayerView], cur: str, lang: str) -> Told:
    """A bankruptcy: the player's cash to the creditor and what the Bank covered, with their sum."""
    player, creditor = name_of(players, event.player, lang), name_of(players, event.creditor, lang)
    paid, covered = money(event.paid, cur, lang), money(event.covered, cur, lang)
    total = money(event.paid + event.covered, cur, lang)
    if event.covered:
        text = _TR.text("share.bankrupt_covered", lang, player=player, creditor=creditor, paid=paid, covered=covered)
        figures = _TR.text("share.receipt.bankrupt_covered", lang, player=player, creditor=creditor, paid=paid,
                           covered=covered, total=total)
    else:
        text = _TR.text("share.bankrupt_paid", lang, player=player, creditor=creditor, paid=paid)
        figures = _TR.text("share.receipt.bankrupt_paid", lang, player=player, creditor=creditor, paid=paid)
    receipt = _TR.text("share.receipt.entry", lang, seq=int(event.seq), what=_what("bankruptcy", "", lang),
                       amount=total)
    return Told("bankruptcy", text, _TR.text("share.receipt.figures", lang, text=receipt, figures=figures))
