"""Count it's words (ui/countit.py): the change question says the note and the payment, never the change,
and its hint is the arithmetic, in en/ru/ro/ja."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.banker.viewmodel import QuestionView
from ui.countit import hint_text, question_text
from ui.i18n import Translator
from ui.story.names import Names

CHANGE = QuestionView("p1", 270, "pays", "change", (("note", 500), ("paid", 230)), deed=3, note=500)


def _names(lang: str) -> Names:
    from engine.editions import load_edition

    return Names(lang, "M", {"p1": "Ann"}, load_edition("classic-us"), Translator(lang))


@pytest.mark.parametrize("lang", ["en", "ru", "ro", "ja"])
def test_the_change_question_names_the_note_and_the_payment_not_the_change(lang: str) -> None:
    names = _names(lang)
    asked = question_text(CHANGE, names)
    assert "Ann" in asked and names.money(500) in asked and names.money(230) in asked
    assert names.money(270) not in asked and "{" not in asked
    hint = hint_text(replace(CHANGE, tries=1, given=300), names)
    assert names.money(300) in hint and names.money(500) in hint and names.money(230) in hint
    assert names.money(270) not in hint and "−" in hint


def test_the_issue_s_example_in_english() -> None:
    assert question_text(CHANGE, _names("en")) == "Ann: change from M500 for M230?"


@pytest.mark.parametrize("outcome", ["skipped", "timeout", "interrupted"])
@pytest.mark.parametrize("lang", ["en", "ru", "ro", "ja"])
def test_a_change_question_passed_says_the_change_as_change(lang: str, outcome: str) -> None:
    """Skipped, it said "Paid without counting: M40." after M60 was paid from M100: the change read as the
    payment. A payment question passed still says the amount paid."""
    from engine.banker.viewmodel import CountedView
    from ui.countit import counted_text

    names = _names(lang)
    said = counted_text(CountedView("p1", 40, outcome, None, 100), names)
    assert names.money(100) in said and names.money(40) in said and "{" not in said, said
    paid = counted_text(CountedView("p1", 60, outcome), names)
    assert names.money(60) in paid and names.money(100) not in paid, paid


@pytest.mark.parametrize(("houses", "said"), [(1, "с 1 домом?"), (2, "с 2 домами?"), (4, "с 4 домами?")])
def test_the_russian_rent_question_says_the_houses_with_its_preposition(houses: int, said: str) -> None:
    """«(постройки: 2 домами)» put the instrumental after a colon; «с 2 домами» is the case it is in."""
    rent = QuestionView("p1", 90, "pays", "rent_houses", (("houses", houses),), deed=2, houses=houses)
    asked = question_text(rent, _names("ru"))
    assert asked.endswith(said), asked
