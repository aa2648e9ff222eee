"""Cards that cannot lie (hardware/cards.md, "The record's grammar" and "What a tap resolves to"): every forged
or sloppy sticker of the issue is refused, the registry unchanged, with a sentence in en/ru/ro/ja made of
catalog entries with parameters (ui/cardtext.py renders it; the touch screen's presenter renders the same)."""

from __future__ import annotations

import re
import string

import ndef
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reader.registry import CardRegistry
from ui.cardgrammar import GrammarError, parse
from ui.cardrecord import RECORD_TYPE, CardRecord, decode, encode, record_for, resolve
from ui.cardtext import render, render_params
from ui.i18n import Translator, load_catalog
from ui.touch.screens.present import Presenter

LANGS = ("en", "ru", "ro", "ja")
EDITIONS = ("classic-us", "classic-uk", "classic-ru", "ultimate-uk", "ultimate-us", "ultimate-ru")
GAME = "ultimate-uk"
NEW = "04FEEDFACE0001"
"""A card this unit has never seen, carrying the forged sticker."""


def placeholders(template: str) -> list[str]:
    return [name for _text, name, _spec, _conv in string.Formatter().parse(template) if name]


def sticker(text: str | bytes) -> bytes:
    payload = text.encode() if isinstance(text, str) else text
    return b"".join(ndef.message_encoder([ndef.Record(RECORD_TYPE, "", payload)]))


def registry_with_deed_7() -> CardRegistry:
    registry = CardRegistry.in_memory()
    registry.enroll("04A1B2C3D4E5F6", "deed", 7)
    registry.enroll("0000A001", "player", 1)
    return registry


FORGED: dict[str, tuple[str, str]] = {
    # payload -> (the refusal, the reason's key where it is the grammar's)
    "1 classic-us banker": ("error.sticker_unreadable", "cardrecord.edition_named"),
    "1 - banker": ("error.sticker_banker", ""),
    "1 - deed 7": ("error.sticker_unreadable", "cardrecord.edition_missing"),
    "1 - event 3": ("error.sticker_unreadable", "cardrecord.edition_missing"),
    "1 ultimate-uk player 2": ("error.sticker_unreadable", "cardrecord.edition_named"),
    "1 ultimate-uk deed ３": ("error.sticker_unreadable", "cardrecord.not_ascii"),
    "1 ultimate-uk deed 010": ("error.sticker_unreadable", "cardrecord.number_form"),
    "1 ultimate-uk deed 0": ("error.sticker_unreadable", "cardrecord.number_form"),
    "1 ultimate-uk deed +5": ("error.sticker_unreadable", "cardrecord.number_form"),
    "1 ultimate-uk deed 29": ("error.sticker_unreadable", "cardrecord.number_range"),
    "1 ultimate-uk deed 25": ("error.sticker_unreadable", "cardrecord.number_range"),  # Ultimate has 22
    "1 ultimate-uk event 24": ("error.sticker_unreadable", "cardrecord.number_range"),  # and 23 event cards
    "1 ultimate-uk deed": ("error.sticker_unreadable", "cardrecord.number_missing"),
    "1 - banker 1": ("error.sticker_unreadable", "cardrecord.number_extra"),
    "1 ultimate-uk event  4": ("error.sticker_unreadable", "cardrecord.shape"),
    "1 ultimate-uk Deed 4": ("error.sticker_unreadable", "cardrecord.kind"),
    "1 classic-zz deed 4": ("error.sticker_unreadable", "cardrecord.edition_unknown"),
    "2 - player 1": ("error.sticker_unreadable", "cardrecord.version"),
    "1 ultimate-uk deed 7": ("error.sticker_role_taken", ""),
    "1 - player 1": ("error.sticker_role_taken", ""),
    "1 classic-us deed 7": ("error.sticker_other_edition", ""),
}

ENGLISH_WORDS = re.compile(r"\b(card|cards|deed|event|sticker|refused|banker|edition|registry|number|found)\b")
"""English words that must not leak into a Russian, Romanian or Japanese sentence ("card" is Romanian too)."""


@pytest.mark.parametrize("payload", sorted(FORGED))
def test_each_forged_sticker_is_refused_and_the_registry_is_unchanged(payload: str) -> None:
    registry = registry_with_deed_7()
    before = registry.cards()
    resolution = resolve(NEW, sticker(payload), registry, GAME)
    refusal, reason = FORGED[payload]
    assert resolution.role is None and resolution.refusal == refusal
    assert dict(resolution.params).get("reason_key", "") == reason
    assert registry.cards() == before


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("payload", sorted(FORGED))
def test_each_refusal_is_a_whole_sentence_in_each_language(payload: str, lang: str) -> None:
    """Every parameter filled (no braces, no em dash of a missing one), no English word in ru/ro/ja, and the
    touch screen's presenter says the very same sentence."""
    resolution = resolve(NEW, sticker(payload), registry_with_deed_7(), GAME)
    text = render(resolution.refusal, resolution.params, lang)
    assert "{" not in text and "cardrecord." not in text and "cardrole." not in text and NEW in text
    tr = Translator(lang)
    rendered = render_params(resolution.params, tr)
    for key in (resolution.refusal, dict(resolution.params).get("reason_key", "")):
        if key:  # every placeholder of the sentence (and of its reason) has its parameter
            assert tr.has(key) and set(placeholders(load_catalog(lang)[key])) <= set(rendered), key
    if lang != "en":
        words = re.sub(r"player.{1,2}deed.{1,2}event.{1,2}banker|[«„“「][^»”」]*[»”」]", "", text)  # quoted: the sticker's
        assert not ENGLISH_WORDS.search(words.replace(" card ", " ") if lang == "ro" else words), text
    presenter = Presenter(tr)
    assert presenter.text(resolution.refusal, resolution.params) == text


def test_the_sentences_name_both_sides() -> None:
    """The issue's examples: another edition names both editions; a taken role names the card holding it."""
    registry = registry_with_deed_7()
    other = resolve(NEW, sticker("1 classic-us deed 7"), registry, GAME)
    assert render(other.refusal, other.params, "en") == (
        f"This sticker says deed 7 of “The classic game (US)”, but this game is “Ultimate Banking (UK)” (card {NEW})")
    assert "Классическая игра (США)" in render(other.refusal, other.params, "ru")
    taken = resolve(NEW, sticker("1 ultimate-uk deed 7"), registry, GAME)
    assert render(taken.refusal, taken.params, "en") == (
        f"Card {NEW} refused: its sticker says deed 7, but deed 7 is already card 04A1B2C3D4E5F6")
    assert "карточка собственности 7 — это уже карта 04A1B2C3D4E5F6" in render(taken.refusal, taken.params, "ru")
    event = resolve(NEW, sticker("1 - event 3"), registry, GAME)
    assert "event card records always name their edition" in render(event.refusal, event.params, "en")
    assert "a event" not in render(event.refusal, event.params, "en")


def test_a_banker_sticker_never_makes_a_banker_card() -> None:
    """On a unit with no banker card, a sticker saying banker (with or without an edition) is refused and
    enrolls nothing; the banker card enrolled through the unit's own enrolment is taken with its sticker."""
    registry = CardRegistry.in_memory()
    for payload in ("1 - banker", "1 classic-us banker", "1 ultimate-uk banker"):
        resolution = resolve(NEW, sticker(payload), registry, GAME)
        assert resolution.role is None and resolution.refusal
        assert registry.holder("banker", None) is None and len(registry) == 0
    registry.enroll("0000B000", "banker")
    assert resolve("0000B000", sticker("1 - banker"), registry, GAME).role == ("banker", None)
    deed = resolve("0000B000", sticker("1 ultimate-uk deed 3"), registry, GAME)
    assert deed.refusal == "error.sticker_disagrees_banker"


def test_the_menu_enrolment_takes_every_tap_itself() -> None:
    """ui/cardrecord.card_resolver: while the unit's own card enrolment runs (``enrolling``), a sticker's
    record decides nothing and enrolls nothing: the enrolment gives the card its role."""
    from types import SimpleNamespace

    from reader.events import CardPresented
    from ui.cardrecord import card_resolver

    registry = CardRegistry.in_memory()
    banker = SimpleNamespace(view=SimpleNamespace(prompt="prompt", edition=GAME))
    running = [True]
    verdict = card_resolver(banker, registry, enrolling=lambda: running[0])
    event = CardPresented(NEW, "mock://", 0.0, sticker("1 - banker"))
    assert verdict(event) is None and len(registry) == 0
    running[0] = False
    assert verdict(event).error == "error.sticker_banker" and len(registry) == 0


def test_the_documented_forms_are_read() -> None:
    for payload, role in (("1 classic-uk deed 3", ("deed", 3)), ("1 ultimate-uk event 23", ("event", 23)),
                          ("1 - player 2", ("player", 2)), ("1 - banker", ("banker", None)),
                          ("1 classic-us event 32", ("event", 32)), ("1 classic-us deed 28", ("deed", 28))):
        record = decode(sticker(payload))
        assert record is not None and record.role == role


@given(st.sampled_from(EDITIONS), st.sampled_from(["deed", "event", "player", "banker"]), st.integers(1, 40))
def test_what_the_unit_writes_it_reads_and_nothing_else(edition: str, kind: str, number: int) -> None:
    """Every record the unit writes parses back to itself; the same payload with a leading zero, a
    full-width digit or the other edition field is refused."""
    limit = {"deed": 28, "event": 32, "player": 8, "banker": 0}[kind]
    value = None if kind == "banker" else min(number, limit)
    record = record_for(edition, kind, value)
    assert decode(encode(record)) == record
    if value is None:
        return
    for bad in (f"0{value}", str(value).translate(str.maketrans("0123456789", "０１２３４５６７８９"))):
        with pytest.raises(GrammarError):
            parse(f"1 {record.edition} {kind} {bad}".encode(), EDITIONS)
    swapped = "-" if record.edition != "-" else edition
    with pytest.raises(GrammarError):
        parse(f"1 {swapped} {kind} {value}".encode(), EDITIONS)
    assert CardRecord(record.edition, kind, value).role == (kind, value)


def test_headless_refuses_a_banker_sticker_and_opens_no_menu(tmp_path: object) -> None:
    """The issue's first lie, through ``boardbank headless``: on a unit with no banker card, a sticker saying
    "1 - banker" (or "1 classic-us banker") is an ``error`` line; nothing is enrolled, the banker never sees
    the tap (no menu), and the same card's tap after that is still refused."""
    import argparse
    import io
    import json
    from pathlib import Path

    from reader.events import CardPresented
    from ui.cli.headless import Headless
    from ui.compose import build

    db = Path(str(tmp_path)) / "unit.sqlite3"
    args = argparse.Namespace(reader=["mock://forged"], db=str(db), edition=GAME, option=[], script=None)
    built = build(args, default_readers=[], manual_clock=True)
    out = io.StringIO()
    try:
        headless = Headless(built, out)
        state = built.banker.view.state
        for payload in ("1 - banker", "1 classic-us banker", "1 - banker"):
            headless.on_card(CardPresented(NEW, "mock://forged", 0.0, sticker(payload)))
        assert built.registry.holder("banker", None) is None and built.registry.lookup(NEW) is None
        assert built.banker.view.state == state
    finally:
        built.close()
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x["error"] for x in lines if x.get("type") == "error"] == [
        "error.sticker_banker", "error.sticker_unreadable", "error.sticker_banker"]
    assert not [x for x in lines if x.get("type") in ("card_known", "prompt") and "menu" in json.dumps(x)]
