"""One sentence per journal entry in every language: every event type of both rulesets is told (or listed
as silent), every event that moves money says its amount, no raw catalog key ever shows, and counted words
follow each language's plural rule (docs/story.md)."""

from __future__ import annotations

import dataclasses
import io
import logging
import re
import typing

import pytest
from babel.messages.pofile import read_po

from engine import events as ev
from engine.commands import PlayerSpec
from engine.editions import load_edition
from engine.events import CORE_EVENTS, Standing
from engine.receipts import money_of
from engine.rulesets.classic.events import CLASSIC_EVENTS
from engine.rulesets.ultimate.events import ULTIMATE_EVENTS
from ui.i18n import LANGUAGES, catalog_path
from ui.story.names import Names
from ui.story.plural import ngettext
from ui.story.sentences import SILENT, TELLERS, sentence

ALL_EVENTS = (*CORE_EVENTS, *ULTIMATE_EVENTS, *CLASSIC_EVENTS)
SECOND = {"owner", "payee", "creditor", "other", "partner", "next_player", "to"}
WORDS = {"reason": "jail_fee", "rule": "double", "kind": "house", "colour": "brown", "mark": "rolled",
         "action": "roll", "edition": "classic-us"}
RAW_KEY = re.compile(r"\b(story|receipt|word|player|deed|event|colour|space)\.[a-z_]+")


def sample(cls: type, amount: int = 1234) -> object:
    """An instance of event class ``cls`` with plausible fields (players p1 and p2, deed 3, ``amount``)."""
    if cls is ev.GameStarted:
        return cls(1, 1, "classic-us", (PlayerSpec("p1", "Ann"), PlayerSpec("p2", "Boris")),
                   {"start_money": amount}, 1, ())
    if cls is ev.GameEnded:
        return cls(9, 9, (Standing(1, "p1", amount, 0, amount, 0), Standing(2, "p2", 0, 0, 0, 0)))
    hints = typing.get_type_hints(cls)
    values: list[object] = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        hint = hints[f.name]
        if f.name in ("seq", "command"):
            values.append(1)
        elif hint is str:
            values.append(WORDS.get(f.name, "p2" if f.name in SECOND else "p1"))
        elif hint is bool:
            values.append(False)
        elif hint is int:
            values.append(3 if f.name in ("deed", "other_deed", "position", "card", "card_id", "start", "end",
                                           "die1", "die2", "old", "new", "level", "steps", "tries", "undone",
                                           "turns", "minute") else amount)
        else:
            values.append((1, 3) if "deeds" in f.name else (3,) if "cards" in f.name else ())
    return cls(*values)


def names(lang: str, edition: str = "classic-us") -> Names:
    from ui.i18n import Translator

    return Names(lang, "M", {"p1": "Ann", "p2": "Boris"}, load_edition(edition), Translator(lang))


def test_every_event_type_of_both_rulesets_is_told_or_listed_silent() -> None:
    untold = [cls.__name__ for cls in ALL_EVENTS if cls not in TELLERS and cls not in SILENT]
    assert not untold, f"event types without a sentence (add one to ui/story/sentences.py): {untold}"
    assert not set(TELLERS) & SILENT


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("cls", [c for c in ALL_EVENTS if c not in SILENT], ids=lambda c: c.__name__)
def test_each_event_type_has_a_sentence_in_each_language_with_its_amount(
        cls: type, lang: str, caplog: pytest.LogCaptureFixture) -> None:
    n = names(lang, "ultimate-uk" if cls in ULTIMATE_EVENTS else "classic-us")
    event = sample(cls)
    with caplog.at_level(logging.DEBUG, logger="ui.i18n"):
        text = sentence(event, n)
    assert not [r for r in caplog.records if "missing" in r.getMessage() or "no " in r.getMessage()], caplog.text
    assert text.strip(), (cls.__name__, lang)
    assert not RAW_KEY.search(text), (cls.__name__, lang, text)
    if money_of(event) is not None and cls is not ev.PlayerBankrupt:
        assert n.money(money_of(event) or 0) in text, (cls.__name__, lang, text)
    if lang == "ru":
        assert re.search("[а-яё]", text), text
    if lang == "ja":
        assert re.search("[\u3040-\u30ff\u4e00-\u9fff]", text), text


def test_every_money_event_type_has_a_sentence() -> None:
    moving = [cls for cls in ALL_EVENTS if money_of(sample(cls)) is not None]
    assert {ev.RentPaid, ev.MoneyTransferred, ev.SalaryPaid, ev.DeedBought, ev.AuctionWon} <= set(moving)
    assert all(cls in TELLERS for cls in moving), [c.__name__ for c in moving if c not in TELLERS]


@pytest.mark.parametrize("reason", ["jail_fee", "jail_fine", "event_bonus", "highway_tax", "card", "repairs",
                                    "income_tax", "luxury_tax", "rent_tax", "jackpot", "mortgage_fee",
                                    "bankruptcy"])
def test_every_transfer_reason_is_named_in_every_language(reason: str) -> None:
    for lang in LANGUAGES:
        n = names(lang)
        for payer, payee in (("p1", "p2"), ("p1", "bank"), ("bank", "p1"), ("p1", "pot"), ("pot", "p1")):
            text = sentence(ev.MoneyTransferred(1, 1, payer, payee, 50, reason), n)
            assert n.text(f"story.reason.{reason}") in text and n.money(50) in text, (lang, text)
            assert not RAW_KEY.search(text), text


def test_the_examples_read_as_the_table_says_them() -> None:
    n = names("en")
    assert sentence(ev.RentPaid(1, 1, "p2", "p1", 2, 450), n) == "Rent: Boris pays Ann M450 for Baltic Avenue"
    from engine.rulesets.classic.events import BuildingBought

    assert (sentence(BuildingBought(1, 1, "p1", 4, 1, 50), n)
            == "Building: Ann buys a house on Oriental Avenue, M50")
    from engine.receipts import shared_receipt
    from engine.rulesets.classic.events import AssetsTransferred

    bankrupt = ev.PlayerBankrupt(7, 3, "p2", "p1", 514, 0)
    command = (bankrupt, AssetsTransferred(8, 3, "p2", "p1", (1, 3, 6), ()))
    made = shared_receipt(None, bankrupt, command)
    assert sentence(bankrupt, n, made) == "Bankruptcy: Boris hands Ann M514 and 3 deeds"
    assert sentence(bankrupt, names("ru"), made) == \
        "Банкротство: Boris отдаёт все деньги, M514, и 3 участка, их получает Ann"
    ru = names("ru")
    assert sentence(ev.RentPaid(1, 1, "p2", "p1", 2, 450), ru) == \
        "Аренда: Boris платит M450 за поле «Baltic Avenue», получает Ann"


@pytest.mark.parametrize(("count", "word"), [(1, "1 дом"), (2, "2 дома"), (5, "5 домов"), (21, "21 дом"),
                                             (22, "22 дома"), (11, "11 домов"), (111, "111 домов")])
def test_russian_houses_take_the_cldr_plural_forms(count: int, word: str) -> None:
    assert ngettext("story.n_houses", count, "ru") == word
    instrumental = {1: "домом", 21: "домом"}.get(count, "домами")
    assert ngettext("receipt.with_houses", count, "ru") == f"{count} {instrumental}"


def test_romanian_and_japanese_counts() -> None:
    assert [ngettext("story.n_deeds", n, "ro") for n in (1, 2, 19, 20, 101)] == [
        "1 proprietate", "2 proprietăți", "19 proprietăți", "20 de proprietăți", "101 proprietăți"]
    assert ngettext("story.n_houses", 3, "ja") == "家3軒"
    assert [ngettext("story.n_deeds", n, "en") for n in (1, 3)] == ["1 deed", "3 deeds"]


def test_every_plural_entry_has_each_language_s_forms() -> None:
    keys: dict[str, set[str]] = {}
    for lang in LANGUAGES:
        catalog = read_po(io.BytesIO(catalog_path(lang).read_bytes()), locale=lang)
        plurals = {m.id[0]: m.string for m in catalog if isinstance(m.id, tuple)}
        keys[lang] = set(plurals)
        for key, forms in plurals.items():
            assert len(forms) == catalog.num_plurals and all(forms), (lang, key, forms)
            assert all("{count}" in form for form in forms), (lang, key)
    assert keys["en"] and all(k == keys["en"] for k in keys.values()), keys


@pytest.mark.parametrize("edition", sorted(__import__("engine.editions", fromlist=["x"]).list_editions()))
def test_every_edition_names_its_deeds_and_money_in_each_language(edition: str) -> None:
    from ui.i18n import Translator

    ed = load_edition(edition)
    for lang in LANGUAGES:
        n = Names(lang, ed.currency, {"p1": "Ann", "p2": "Boris"}, ed, Translator(lang))
        text = sentence(ev.RentPaid(1, 1, "p2", "p1", 1, 1500), n)
        own = (ed.names.get(lang) or ed.names[ed.language])[ed.deeds[1].position]
        assert own in text and n.money(1500) in text, (edition, lang, text)
        assert not RAW_KEY.search(text)
