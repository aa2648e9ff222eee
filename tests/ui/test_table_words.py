"""The words the table reads, checked in every catalog and as rendered by the presenter: a Russian street name
never stands where a case ending is needed, Undo and Cancel never read alike, each edition's money word is the
unit its amounts show, the mortgage's lifting cost is said as a total, a deal with no side chosen yet names
nobody, a refusal names the player (never a seat number), and several buildings bought in one go are said as
their count and total."""

from __future__ import annotations

import re
import string

import pytest

from engine.banker.viewmodel import PlayerView, Prompt, SpaceView, TransactionView, ViewModel
from engine.editions import load_edition
from ui.i18n import LANGUAGES, Translator, load_catalog
from ui.touch.screens.present import Presenter

NAME_PARAMS = ("name", "deed", "deed2", "space", "property", "railway")
"""Placeholders a street's, railway's or space's name fills (in the nominative, as the edition files have it)."""
GOVERNS_A_CASE = frozenset({
    # prepositions: the name after them would need another case (на Житной улице, за Житную улицу)
    "на", "за", "в", "во", "о", "об", "у", "для", "до", "из", "от", "после", "с", "со", "к", "ко", "по", "про",
    "через", "без", "при", "над", "под", "перед", "между",
    # verbs whose object is in the accusative (купить Житную улицу)
    "купить", "покупает", "купил", "купила", "продать", "продаёт", "продал", "заложить", "закладывает",
    "выкупить", "выкупает", "выигрывает", "выиграл", "получает", "получить", "отдаёт", "отдать", "передаёт",
    "вернуть", "возвращает", "строит", "построить", "выбрать", "выберите", "забирает",
})
GENDERED_AFTER = re.compile(r"^\s*(заложен|продан|куплен|выкуплен|свободен|занят)\b")
"""A short participle right after the name would have to agree with the name's gender (улица заложена)."""


def case_problems(texts: dict[str, str]) -> list[str]:
    """``key: text`` for every Russian message that puts a name placeholder where Russian needs its ending
    changed: right after a preposition or a verb that governs a case, or before a gendered participle. A name
    after a noun (поле «{deed}»), at the start of a clause, or before a colon is taken as it is."""
    found = []
    for key, text in texts.items():
        for match in re.finditer(r"\{(\w+)\}", text):
            if match.group(1) not in NAME_PARAMS:
                continue
            before = re.findall(r"[\w-]+", text[: match.start()].rstrip(" «\"„"))
            if before and before[-1].lower() in GOVERNS_A_CASE:
                found.append(f"{key}: {before[-1]} {{{match.group(1)}}}: {text}")
            if GENDERED_AFTER.match(text[match.end():].lstrip("»\"")):
                found.append(f"{key}: {{{match.group(1)}}} + a gendered participle: {text}")
    return found


def test_no_russian_message_puts_a_street_name_where_its_case_would_change() -> None:
    assert case_problems(dict(load_catalog("ru"))) == []


def test_the_case_check_sees_a_preposition_a_verb_and_a_participle() -> None:
    texts = {"a": "{player} может купить {name} за {price}", "b": "на {deed} уже стоит отель",
             "c": "{deed} заложен", "ok": "{player}, покупка: {name} за {price}", "ok2": "за поле «{deed}»"}
    assert [p.split(":")[0] for p in case_problems(texts)] == ["a", "b", "c"]


def russian(prompt: Prompt, edition: str = "classic-ru") -> str:
    tr = Translator("ru")
    players = (PlayerView("p1", "Катя", "red", 1500, 1500), PlayerView("p2", "Борис", "blue", 100, 100))
    board = (SpaceView(1, "deed", "Житная улица", 1, "brown", 60),)
    view = ViewModel(state="buy", edition=edition, currency="RUB_K", players=players, board=board, prompt=prompt,
                     actions=("press_ok", "press_decline"))
    return Presenter(tr, view).prompt()


def test_the_russian_buy_prompt_takes_the_street_name_as_it_is() -> None:
    text = russian(Prompt("prompt.buy", (("player", "p1"), ("deed", 1), ("name", "Житная улица"), ("price", 60))))
    assert "купить Житная" not in text
    assert "покупка: Житная улица" in text


def stems(text: str) -> set[str]:
    """The first four letters of each word of ``text`` (the whole of a CJK text's words: its kanji)."""
    words = re.findall(r"\w+", text.casefold())
    return {w[:4] for w in words} | {ch for ch in text if "\u4e00" <= ch <= "\u9fff"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_undo_never_reads_like_cancel_or_back(lang: str) -> None:
    texts = load_catalog(lang)
    for other in ("action.cancel", "nav.back"):  # side by side: the table's buttons, the banker's menu
        for key in ("action.undo", "menu.undo"):
            shared = stems(texts[key]) & stems(texts[other])
            assert not shared, f"{lang}: {key} {texts[key]!r} reads like {other} {texts[other]!r} ({shared})"


CURRENCY_WORDS: dict[str, tuple[str, ...]] = {
    "dollar": ("dollar", "доллар", "dolar", "ドル"),
    "pound": ("pound", "фунт", "lire", "ポンド"),
    "ruble": ("ruble", "рубл", "ruble", "ルーブル"),
}
"""Money words that name a real currency, in every language (stems)."""
SHOWN_AS: dict[str, str | None] = {"M": None, "RUB_K": "ruble"}
"""The currency word an edition's unit may be called by: M is the game's own unit, no real currency."""


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", ("classic-us", "classic-uk", "classic-ru"))
def test_each_editions_money_word_matches_the_unit_its_amounts_show(lang: str, edition: str) -> None:
    line = Translator(lang)(f"game.{edition}.line").casefold()
    allowed = SHOWN_AS[load_edition(edition).currency]
    named = [word for word, stems in CURRENCY_WORDS.items() if any(stem in line for stem in stems)]
    assert all(word == allowed for word in named), f"{lang} {edition}: {line!r} names {named}"
    if allowed is None:
        assert "m" in line.split() or "m" in re.findall(r"[a-zа-я]+|m", line), line  # the unit as shown: M


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lifting_cost_is_said_as_its_total(lang: str) -> None:
    text = Translator(lang)("mortgage.interest", value="M100", interest="M10", total="M110")
    assert "M110" in text
    assert text.index("M110") < text.index("M10)") if "M10)" in text else True
    assert not text.rstrip().endswith("M10"), text  # "plus 10 %: M10" read as the cost


def trade_prompt(lang: str, first: str, second: str) -> str:
    players = (PlayerView("p1", "Ann", "red", 1500, 1500), PlayerView("p2", "Cat", "blue", 1500, 1500))
    view = ViewModel(state="trade", edition="classic-us", currency="M", players=players,
                     prompt=Prompt("prompt.trade", (("first", first), ("second", second))))
    return Presenter(Translator(lang), view).prompt()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_deal_with_no_side_chosen_yet_names_nobody(lang: str) -> None:
    nobody = Translator(lang)("word.nobody")
    assert nobody not in trade_prompt(lang, "", "")
    one = trade_prompt(lang, "p1", "")
    assert "Ann" in one and nobody not in one
    both = trade_prompt(lang, "p1", "p2")
    assert "Ann" in both and "Cat" in both


SEAT_REFUSALS = {
    "error.not_winner": {"winner": "3"}, "error.wrong_player": {"expected": "1", "seat": "3"},
    "error.not_playing": {"seat": "3"}, "error.already_seated": {"seat": 3}, "error.token_taken": {"seat": 3, "token": "red"},
}
"""Refusals that carry seat numbers (engine/banker/setup.py ``seat_of``) and what they carry."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_refusals_name_the_player_never_the_seat(lang: str) -> None:
    players = (PlayerView("p1", "Ann", "red", 1500, 1500), PlayerView("p3", "Cat", "blue", 1500, 1500))
    presenter = Presenter(Translator(lang), ViewModel(state="idle", edition="classic-us", currency="M", players=players))
    seat_words = ("seat", "место", "места", "locul", "席")
    for key, params in SEAT_REFUSALS.items():
        text = presenter.text(key, tuple(params.items()))
        assert "Cat" in text, f"{lang} {key}: {text}"
        assert not any(word in text.casefold() for word in seat_words), f"{lang} {key}: {text}"
        assert "3" not in text, f"{lang} {key}: {text}"


def test_every_seat_refusal_placeholder_is_one_the_presenter_names() -> None:
    from ui.touch.screens.present import PLAYER_PARAMS, SEAT_PARAMS
    from ui.touch.screens.present import SEAT_REFUSALS as NAMED

    assert set(SEAT_REFUSALS) <= NAMED
    for lang in LANGUAGES:
        for key in SEAT_REFUSALS:
            names = {n for _, n, _, _ in string.Formatter().parse(load_catalog(lang)[key]) if n}
            assert names - {"token"} <= SEAT_PARAMS | PLAYER_PARAMS, (lang, key, names)


def test_a_list_of_squares_is_not_taken_for_a_seat() -> None:
    players = (PlayerView("p3", "Cat", "blue", 1500, 1500),)
    presenter = Presenter(Translator("en"), ViewModel(state="idle", edition="classic-us", currency="M", players=players))
    assert presenter.render_params((("expected", "3"),))["expected"] == "3"  # error.bad_choice: square 3


def built(seq: int, amount: int = 50, kind: str = "BuildingBought", payer: str | None = "p1",
          payee: str | None = None) -> ViewModel:
    players = (PlayerView("p1", "Cat", "red", 1500 - seq * 50, 1500),)
    return ViewModel(state="build", edition="classic-us", currency="M", players=players, seq=seq,
                     last_transaction=TransactionView(seq, kind, amount, payer, payee))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_several_buildings_bought_in_one_go_are_said_as_their_count_and_total(lang: str) -> None:
    presenter = Presenter(Translator(lang))
    for seq in (10, 11, 12):
        presenter.show(built(seq))
        presenter.show(built(seq))  # the same state shown again adds nothing
    line = presenter.transaction()
    assert "M150" in line and "3" in line and "Cat" in line, line
    presenter.show(built(13, 200, "RentPaid", "p1", "p2"))  # something else: a line of its own
    assert "M150" not in presenter.transaction()
    presenter.show(built(14))
    assert "M50" in presenter.transaction() and "M100" not in presenter.transaction()


def test_one_building_is_said_as_one_payment() -> None:
    presenter = Presenter(Translator("en"))
    presenter.show(built(10))
    assert presenter.transaction() == "Cat » Bank: M50"
