"""The classic screens' words without a window (ui/touch/screens/classic_text.py): a card's text names this
edition's square and amounts, the standings' split of worth, the table's clock, rent tax and pot, the pot as
a payee (docs/rules-classic.md 2, 3, 9, 10)."""

from __future__ import annotations

from dataclasses import replace

from fixtures.classic_views import board, standings_view, table_view

from engine.banker.viewmodel import CardView, TransactionView
from engine.editions import load_edition
from ui.i18n import Translator
from ui.touch.screens.classic_text import card_text, clock_text, pot_text, rent_tax_text, wealth_split
from ui.touch.screens.present import Presenter


def card_id(key: str) -> int:
    return next(c.id for c in load_edition("classic-uk").events if c.key == key)


def presenter(view: object, lang: str = "en") -> Presenter:
    return Presenter(Translator(lang), view)  # type: ignore[arg-type]


def test_a_card_names_the_editions_own_square_and_amount() -> None:
    card = CardView(1, "chance", "event.advance_39", "event.advance_39.text", "advance", 0, "p1")
    uk = presenter(table_view())
    assert card_text(uk, card) == ("Stroll to Mayfair", "Take your token straight to Mayfair.")
    us = presenter(replace(table_view(), edition="classic-us", board=board(edition="classic-us")))
    assert card_text(us, card)[1] == "Take your token straight to Boardwalk."
    repairs = CardView(card_id("street_repairs"), "chest", "event.street_repairs", "event.street_repairs.text", "repairs", 0, "p1")
    assert "M40" in card_text(uk, repairs)[1] and "M115" in card_text(uk, repairs)[1]
    ja = presenter(table_view(), "ja")
    assert "Mayfair" in card_text(ja, card)[1] and card_text(ja, card)[1] != card_text(uk, card)[1]


def test_the_standings_split_worth_into_cash_deeds_and_buildings() -> None:
    p = presenter(standings_view())
    split = {w.player: w for w in wealth_split(p)}
    # p1 holds four houses and a hotel on the brown set (50 a house), 1 + 2 + 2 houses on the green (200)
    assert split["p1"].buildings == 4 * 50 + 5 * 50 + 4 * 200
    for row in p.view.standings:
        assert split[row.player].total == row.total


def test_the_table_strip_says_the_minutes_left_the_rent_tax_and_the_pot() -> None:
    p = presenter(table_view())
    assert clock_text(p) == "26 min left"
    assert rent_tax_text(p) == "Rent tax: the Bank keeps 50 %"
    assert pot_text(p) == "Free Parking: M350"
    plain = presenter(replace(table_view(), clock=None, options=()))
    assert (clock_text(plain), rent_tax_text(plain), pot_text(plain)) == ("", "", "")


def test_the_pot_is_named_as_a_payee() -> None:
    p = presenter(replace(table_view(), last_transaction=TransactionView(9, "MoneyTransferred", 200, "p2", "pot")))
    assert "the Free Parking pot" in p.transaction()
