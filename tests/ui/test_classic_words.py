"""Classic words in the classic game, in all four languages (issue: a classic game a family plays to the
end): the prompts say Chance and Community Chest, houses and the hotel, what a bidder's tap adds; the card
that moves to the nearest railroad says the board's word; Russian says «штраф» for the jail fine and
«Вперёд на «Старт»»; the Free Parking pot button shows only with its option.

Sources: docs/rules-classic.md 3 (Chance, Community Chest: "Advance to GO", the nearest railroad), 4
(auctions), 6 (houses, hotels), 8 (the jail fine), 2 (the Free Parking pot option).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, parse, run_script
from engine.banker.viewmodel import CardView, ViewModel
from engine.rulesets.classic.gestures.auction import TAP_STEP
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal
from ui.i18n import Translator, load_catalog
from ui.touch.screens.classic_text import card_text
from ui.touch.screens.present import Presenter

LANGS = ("en", "ru", "ro", "ja")
SEATED = ("card 000000A1 player 1\ncard 000000A2 player 2\ncard 00000101 deed 1\ncard 00000102 deed 2\n"
          "tap 000000A1\ntap 000000A2\n")


def _banker(tmp_path: Path, script: str, edition: str = "classic-us") -> Banker:
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(Journal.open(tmp_path / "bb.sqlite3"), edition), cards, clock,
                    seed_source=lambda: 7)
    run_script(parse("# source: docs/rules-classic.md 6\n" + script).steps, banker, clock, cards.enroll)
    return banker


def _text(view: ViewModel, lang: str) -> str:
    return Presenter(Translator(lang), view).prompt()


@pytest.mark.parametrize("lang", LANGS)
def test_the_idle_prompt_names_chance_and_community_chest(tmp_path: Path, lang: str) -> None:
    banker = _banker(tmp_path, SEATED + "press ok\n")
    text = _text(banker.view, lang)
    catalog = load_catalog(lang)
    assert catalog["deck.chance"] in text and catalog["deck.chest"] in text, text
    assert "event" not in text and "событ" not in text and "eveniment" not in text and "イベント" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_deed_prompt_counts_houses_not_levels(tmp_path: Path, lang: str) -> None:
    banker = _banker(tmp_path, SEATED + (
        "press ok\ntap 00000101\ntap 000000A1\npress ok\ntap 00000102\ntap 000000A1\npress ok\n"
        "tap 000000A1\npress build\ntap 00000101\ntap 00000102\ntap 00000101\npress ok\nwait 2\ntap 00000101\n"))
    assert banker.state_name == "deed"
    text = _text(banker.view, lang)
    assert load_catalog(lang)["built.2"] in text, text
    assert "level" not in text and "nivel" not in text and "レベル" not in text and "уровень" not in text


def test_the_auction_prompt_promises_what_a_tap_adds(tmp_path: Path) -> None:
    banker = _banker(tmp_path, SEATED + "press ok\ntap 00000101\ntap 000000A1\npress decline\ntap 000000A2\n")
    assert banker.state_name == "auction"
    assert dict(banker.view.prompt.params)["step"] == TAP_STEP
    text = _text(banker.view, "en")
    assert "M10" in text and "+100" not in text, text
    banker.tap("000000A1")
    assert banker.game is not None and banker.game.state.auction.high_bid == 2 * TAP_STEP


@pytest.mark.parametrize(("on", "shown"), [(False, False), (True, True)])
def test_the_free_parking_pot_button_only_with_its_option(tmp_path: Path, on: bool, shown: bool) -> None:
    option = "choose option=free_parking_jackpot:on\n" if on else ""
    banker = _banker(tmp_path, SEATED + option + "press ok\n")
    assert ("press_jackpot" in banker.view.actions) is shown


def _nearest(edition: str, lang: str) -> str:
    card = CardView(5, "chance", "event.nearest_railroad_1", "event.nearest_railroad_1.text", "nearest", 0, "p1")
    view = ViewModel(state="idle", edition=edition, currency="M")
    title, body = card_text(Presenter(Translator(lang), view), card)
    return f"{title} {body}"


def test_the_nearest_railroad_card_says_the_boards_word() -> None:
    assert "railroad" in _nearest("classic-us", "en") and "station" not in _nearest("classic-us", "en")
    assert "station" in _nearest("classic-uk", "en")
    assert "железн" in _nearest("classic-ru", "ru")
    assert "鉄道" in _nearest("classic-us", "ja") and "駅" in _nearest("classic-uk", "ja")


def test_russian_says_the_fine_and_forward_to_go() -> None:
    ru = load_catalog("ru")
    assert "штраф" in ru["action.pay_fee"].lower() and "залог" not in ru["action.pay_fee"].lower()
    assert ru["event.advance_go"] == "Вперёд на «Старт»" and ru["event.chest_go"] == "Вперёд на «Старт»"
    assert load_catalog("en")["event.advance_go"] == "Advance to GO"
