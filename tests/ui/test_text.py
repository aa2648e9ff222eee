"""Translations, money formatting and the presenter's words, without a window."""

from __future__ import annotations

import pytest
from fixtures.views import auction_view, event_view, table_view

from engine.banker.viewmodel import ChoiceView, PlayerView, Prompt, TransactionView, ViewModel
from ui.i18n import Translator
from ui.money import MINUS, MoneyError, format_money, group_digits
from ui.touch.screens.present import Presenter

NBSP = "\u00a0"


@pytest.mark.parametrize(("lang", "currency", "amount", "expected"), [
    ("en", "M", 1500, "M1,500"),
    ("ru", "M", 1500, f"M1{NBSP}500"),
    ("ro", "M", 1500, "M1.500"),
    ("ja", "M", 1500, "M1,500"),
    ("ru", "RUB_K", 1500, f"1{NBSP}500 тыс. ₽"),
    ("en", "RUB_K", 200, "200K ₽"),
    ("ro", "RUB_K", 1234567, "1.234.567 mii ₽"),
    ("ja", "RUB_K", 60, "60千ルーブル"),
    ("en", "M", -100, f"{MINUS}M100"),
    ("en", "M", 0, "M0"),
])
def test_money_per_locale(lang: str, currency: str, amount: int, expected: str) -> None:
    assert format_money(amount, currency, lang) == expected


@pytest.mark.parametrize(("amount", "currency", "lang", "match"), [
    (1.5, "M", "en", "an int amount"), (True, "M", "en", "an int amount"),
    (5, "USD", "en", "a currency among"), (5, "M", "de", "a language among"),
])
def test_bad_money_is_refused(amount: object, currency: str, lang: str, match: str) -> None:
    with pytest.raises(MoneyError, match=match):
        format_money(amount, currency, lang)  # type: ignore[arg-type]


def test_digit_grouping_comes_from_babel() -> None:
    assert group_digits(1000000, "en") == "1,000,000"
    assert group_digits(1000000, "ro") == "1.000.000"


def test_translator_falls_back_and_notifies() -> None:
    tr = Translator("ru")
    heard: list[str] = []
    tr.on_change(heard.append)
    assert tr("nav.back") == "Назад"
    assert tr("no.such.key") == "no.such.key"
    assert tr("setup.seat") == "№ \u2014"  # a missing parameter shows as a dash
    tr.set_language("ja")
    assert heard == ["ja"]
    assert tr("nav.back") == "戻る"
    assert tr.text("nav.back", "ro") == "Înapoi"


def test_prompts_render_money_players_deeds_and_cards() -> None:
    p = Presenter(Translator("en"), table_view())
    assert p.prompt() == "Alexandra Constantinescu may buy Trafalgar Square for M240: OK buys, Decline opens the auction"
    p.view = event_view()
    assert p.prompt().startswith("Alexandra Constantinescu drew PONG! WHAT A STINKER: choose your deed")
    p.view = auction_view()
    assert "High bid M1,240 (Екатерина Владимировна)" in p.prompt()
    p.tr.set_language("ru")
    assert "M1\u00a0240" in p.prompt()


def test_an_unowned_deed_prompt_has_no_owner() -> None:
    view = ViewModel(state="deed", edition="ultimate-uk", currency="M",
                     prompt=Prompt("prompt.deed", (("deed", 16), ("name", "Coventry Street"), ("price", 260))))
    assert Presenter(Translator("en"), view).prompt() == \
        "Coventry Street is for sale at M260. The player who landed here taps their bank card"


def test_a_buyer_who_cannot_afford_the_deed_is_told_at_once() -> None:
    """The banker does not offer OK (the buyer is short): the prompt says so and offers Decline and Cancel."""
    from dataclasses import replace

    view = table_view()
    short = replace(view, actions=tuple(a for a in view.actions if a != "press_ok"))
    text = Presenter(Translator("en"), short).prompt()
    assert text.startswith("Alexandra Constantinescu has M1,500: not enough for Trafalgar Square at M240")
    assert "OK" not in text and "Decline opens the auction" in text
    no_auction = replace(short, actions=("press_cancel",))
    assert "auction" not in Presenter(Translator("en"), no_auction).prompt()


def test_wibble_wobble_says_both_payments_and_their_sum() -> None:
    p = Presenter(Translator("en"), event_view())
    assert p.event_amounts(13, "p1") == \
        "Alexandra Constantinescu gets M200, the chosen player gets M200: M400 from the Bank"
    assert p.event_amounts(21, "p1") == "M50 for each deed Alexandra Constantinescu owns"
    assert p.event_amounts(1, "p1") == ""


def test_no_message_says_lander() -> None:
    from ui.i18n import LANGUAGES, load_catalog

    for lang in LANGUAGES:
        for key, text in load_catalog(lang).items():
            assert "lander" not in text.lower() and "Jump passing" not in text, (lang, key, text)


def test_default_player_names_are_translated_and_real_names_kept() -> None:
    view = ViewModel(state="setup", edition="ultimate-uk", currency="M",
                     players=(PlayerView("p1", "Player 1", "red", 0, 0), PlayerView("p2", "Zoë", "blue", 0, 0)))
    p = Presenter(Translator("ro"), view)
    assert p.player_name("p1") == "Jucătorul 1"
    assert p.player_name("p2") == "Zoë"
    assert p.player_name(None) == "Banca"
    assert p.player_name("bank") == "Banca"
    assert p.player_name("") == "nimeni"


def test_choices_and_transactions() -> None:
    p = Presenter(Translator("ja"), table_view())
    assert p.choice_label(ChoiceView("light_blue", "choice.colour_set", (("name", "light_blue"),))) == "水色"
    assert p.choice_label(ChoiceView("p2", "choice.other_player", (("name", "p2"),))) == "Bob"
    assert p.choice_label(ChoiceView("B", "choice.side", (("name", "B"),))) == "B辺"
    assert p.choice_label(ChoiceView("14", "choice.deed", (("name", "Trafalgar Square"),))) == "Trafalgar Square"
    p.tr.set_language("en")
    assert p.transaction() == "Rent: Bob » Alexandra Constantinescu: M1,160"
    p.view = ViewModel(state="idle", edition="ultimate-uk", currency="M",
                       last_transaction=TransactionView(3, "SalaryPaid", 200, None, "p1"))
    assert p.transaction() == "GO salary: Bank » Player 1: M200"
    assert p.action_label("press_end_turn") == "End turn"


def test_enrolment_prompts_show_card_numbers_not_money() -> None:
    p = Presenter(Translator("en"), table_view())
    assert p.text("enroll.tap_player", (("kind", "player"), ("value", 2))) == "Tap the bank card for player 2"
    assert p.text("enroll.tap_deed", (("kind", "deed"), ("value", 16), ("name", "Coventry Street"))) == \
        "Tap deed card 16: Coventry Street"


def test_an_engine_refusal_is_said_in_the_screens_language() -> None:
    """The engine's reason travels as a key and values (engine/errors.py Refusal); the screen translates it."""
    params = (("reason", "BuyDeed: p1 has 100, deed 14 costs 240"), ("reason_key", "reason.not_enough_cash"),
              ("player", "p1"), ("cash", 100), ("deed", 14), ("price", 240))
    p = Presenter(Translator("ru"), table_view())
    text = p.text("error.rule", params)
    assert text == "Нельзя: у игрока Alexandra Constantinescu M100, а Trafalgar Square стоит M240"
    p.tr.set_language("ja")
    assert "M240" in p.text("error.rule", params) and "BuyDeed" not in p.text("error.rule", params)
    bid = (("reason", "x"), ("reason_key", "reason.bid_too_low"), ("amount", 30), ("high_bid", 20), ("step", 20))
    p.tr.set_language("en")
    assert p.text("error.rule", bid) == "Not allowed: a bid of M30 is too low: above M20, in steps of M20"
    phase = (("reason", "x"), ("reason_key", "reason.wrong_phase"), ("phase", "auction"))
    assert p.text("error.rule", phase) == "Not allowed: not possible now (the game is at: an auction)"


def test_a_refusal_without_a_key_keeps_the_engines_words() -> None:
    p = Presenter(Translator("ro"), table_view())
    assert p.text("error.rule", (("reason", "disk says no"),)) == "Nu este permis: disk says no"


def test_on_the_run_is_said_while_it_lasts() -> None:
    """From the view's ``on_the_run`` (EndTurn commands left with level-1 rent)."""
    from dataclasses import replace

    from fixtures.views import board_view

    view = board_view()
    p = Presenter(Translator("en"), view)
    assert p.on_the_run() == (False, None) and p.on_the_run_text() == ""
    p.view = replace(view, on_the_run=5)
    assert p.on_the_run_text() == "ON THE RUN: every rent at level 1, 5 more turns"
    p.view = replace(view, on_the_run=0)
    assert p.on_the_run_text() == ""


def test_a_payment_to_two_players_is_said_whole_on_the_table() -> None:
    """WIBBLE WOBBLE pays two players in one command: the transaction line says both and the sum."""
    from dataclasses import replace

    before = table_view(3)
    after = replace(before, seq=before.seq + 3,
                    players=tuple(replace(p, balance=p.balance + 200) if p.id in ("p1", "p3") else p
                                  for p in before.players),
                    last_transaction=TransactionView(44, "MoneyTransferred", 200, None, "p3"))
    p = Presenter(Translator("en"), before)
    p.show(after)
    assert p.changes == {"p1": 200, "p3": 200}
    assert p.transaction(p.changes) == \
        "Alexandra Constantinescu +M200, Екатерина Владимировна +M200: M400 from the Bank"
    rent = replace(after, seq=after.seq + 2,
                   players=tuple(replace(q, balance=q.balance + (50 if q.id == "p1" else -50 if q.id == "p2" else 0))
                                 for q in after.players),
                   last_transaction=TransactionView(47, "RentPaid", 50, "p2", "p1"))
    p.show(rent)
    assert p.transaction(p.changes) == "Rent: Bob » Alexandra Constantinescu: M50"


@pytest.mark.parametrize(("lang", "start"), [("en", "Taken back: "), ("ru", "Отменено: "), ("ro", "Anulat: "),
                                             ("ja", "取り消し：")])
def test_a_payment_taken_back_says_so_on_its_line(lang: str, start: str) -> None:
    """A payment whose command was undone (Undo, X after a Location's fee) is not shown as standing."""
    p = Presenter(Translator(lang), ViewModel(state="idle", edition="ultimate-uk", currency="M",
                                              last_transaction=TransactionView(3, "SalaryPaid", 200, None, "p1",
                                                                               2, undone=True)))
    line = p.transaction({"p1": 200})
    assert line.startswith(start) and "200" in line, line
