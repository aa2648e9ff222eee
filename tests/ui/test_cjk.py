"""Japanese on the screen: lines break between CJK characters (not only at spaces, never before 。、）),
and Latin and Cyrillic runs inside Japanese text are drawn in Roboto, not letter-spaced by the CJK font."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ui_driver import pump

from ui.i18n import load_catalog
from ui.touch.widgets import cjktext

pytestmark = pytest.mark.ui


def width_of(text: str) -> float:
    return float(len(text))  # one unit per character: enough to test where the breaks go


def test_breaks_fall_between_cjk_characters_and_respect_kinsoku() -> None:
    text = "カードをタッチして入札。最高入札"
    lines = cjktext.wrap(text, 6, width_of).split("\n")
    assert "".join(lines) == text
    assert all(len(line) <= 7 for line in lines)  # a closing 。 may hang on the line it closes
    assert not any(line.startswith(("。", "、", "）")) for line in lines)
    assert cjktext.char_units("入札（最高）。") == ["入", "札", "（最", "高）。"]  # a phrase wider than a line
    assert cjktext.units("入札（最高）。") == ["入札", "（最高）。"]  # else whole phrases


def test_latin_words_stay_whole_and_spaces_still_break() -> None:
    text = "Northumberland Avenueのオークション"
    lines = cjktext.wrap(text, 16, width_of).split("\n")
    assert lines[0] == "Northumberland"
    assert lines[1].startswith("Avenueのオー")


def test_markup_puts_non_cjk_runs_in_the_latin_font() -> None:
    out = cjktext.markup("最高入札：Екатерина [1]", "Roboto")
    assert out == "最高入札：[font=Roboto]Екатерина &bl;1&br;[/font]"


def test_a_japanese_label_breaks_between_characters_and_draws_cyrillic_in_roboto(ui_app: Any) -> None:
    from ui.touch import fonts
    from ui.touch.widgets.fitlabel import FitLabel

    if fonts.register_fonts() is None:
        pytest.skip("no CJK font on this machine")
    ui_app.set_language("ja")
    text = "Northumberland Avenueのオークション：カードをタッチして入札。最高M1,240（Екатерина Владимировна）"
    label = FitLabel(text=text, wrap=True, max_font_size=18, min_font_size=14, size_hint=(None, None),
                     size=(300, 120))
    plain = FitLabel(text="最高入札：Екатерина Владимировна", max_font_size=18, min_font_size=18,
                     size_hint=(None, None), size=(600, 40))
    ui_app.root.add_widget(label)
    ui_app.root.add_widget(plain)
    try:
        pump(3)
        lines = label._display.split("\n")
        assert len(lines) >= 3 and "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert all(label._label.get_extents(line)[0] <= 300 for line in lines)
        assert any(line[-1] not in " " and cjktext.is_cjk(line[-1]) for line in lines[:-1])  # a break inside a CJK run
        from kivy.core.text import Label as CoreLabel

        spaced = CoreLabel(text=plain.text, font_name=fonts.CJK_FONT, font_size=18)
        spaced.refresh()
        assert plain.texture_size[0] < spaced.texture.size[0] * 0.9  # Cyrillic in Roboto is narrower
    finally:
        ui_app.root.remove_widget(label)
        ui_app.root.remove_widget(plain)
        ui_app.set_language("en")


WORDS = ("ルーブル", "銀行", "権利書", "オークション", "カード", "タッチ", "プレイヤー", "支払い")
"""Japanese words a line must never break inside (the toasts broke ルーブ/ル and 銀/行)."""
TEXTS = ("現金：1,500千ルーブル。不足額：500千ルーブル。権利書をタッチして銀行に返す",
         "Reading Railroad は M200 で販売中。止まったプレイヤーが銀行カードをタッチ",
         "支払いは落札者のみ：オークションの勝者が銀行カードをタッチ")


def breaks_inside_words(text: str, wrapped: str) -> list[str]:
    """The words of :data:`WORDS` that a line break of ``wrapped`` (``text`` with breaks) falls inside."""
    cuts, at = set(), 0
    for line in wrapped.split("\n")[:-1]:
        at = text.index(line, at) + len(line)
        cuts.add(at)
    found = []
    for word in WORDS:
        for match in re.finditer(word, text):
            if any(match.start() < cut < match.end() for cut in cuts):
                found.append(f"{word} at {match.start()}")
    return found


@pytest.mark.parametrize("width", range(7, 31))
def test_no_line_break_falls_inside_a_japanese_word(width: int) -> None:
    for text in TEXTS:
        wrapped = cjktext.wrap(text, width, width_of)
        assert re.sub(r"\s", "", wrapped) == re.sub(r"\s", "", text), wrapped
        assert breaks_inside_words(text, wrapped) == [], wrapped


def test_the_break_check_sees_a_break_inside_a_word() -> None:
    assert breaks_inside_words("銀行に返す", "銀\n行に返す") == ["銀行 at 0"]


def test_a_japanese_toast_breaks_between_phrases(ui_app: Any) -> None:
    from fixtures.views import SCREENS

    ui_app.set_language("ja")
    try:
        ui_app.render(SCREENS["table"]())
        pump(2)
        for text in (f"{one}、{one}" for one in TEXTS):  # two lines or more in the toast
            ui_app.toast(text)
            pump(3)
            label = ui_app.root.ids.toast
            shown = label._display if getattr(label, "_display", None) is not None else label.text
            assert "\n" in shown, (shown, label.size, label.font_size, label.texture_size)  # long: it wraps
            assert breaks_inside_words(text, shown) == [], shown
            assert label.texture_size[1] <= label.height + 1, (shown, label.texture_size, label.size)
    finally:
        ui_app.clear_toast()
        ui_app.set_language("en")


def test_a_japanese_prompt_drawn_after_a_fit_that_changed_nothing_fits_its_box(ui_app: Any) -> None:
    """A new prompt whose fit equals the last one's (same size, same box) is drawn with our breaks: Kivy's own
    draw of it, made before the fit, had a line more than the box holds (the table at 800x480)."""
    from dataclasses import replace

    from fixtures.classic_views import table_view

    from engine.banker.viewmodel import Prompt

    ui_app.set_language("ja")
    try:
        for name in ("Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad"):
            view = replace(table_view(), prompt=Prompt("prompt.deed_unowned", (("name", name), ("price", 200))))
            ui_app.render(view)
            pump(3)
            prompt = ui_app.screen("table").ids.prompt
            assert prompt.texture_size[1] <= prompt.height + 1, (prompt.text, prompt.texture_size, prompt.size)
            assert prompt.texture_size[0] <= prompt.width + 1, (prompt.text, prompt.texture_size, prompt.size)
    finally:
        ui_app.set_language("en")


@settings(max_examples=80, deadline=None)
@given(key=st.sampled_from(sorted(load_catalog("ja"))), width=st.integers(min_value=4, max_value=40))
def test_every_japanese_message_wraps_whole_and_within_its_width(key: str, width: int) -> None:
    """Any catalog text: the breaks add no character and drop none (spaces aside), and no line is wider than the
    width unless it is one Latin word (which stands alone) or one character."""
    text = load_catalog("ja")[key]
    wrapped = cjktext.wrap(text, width, width_of)
    assert re.sub(r"\s", "", wrapped) == re.sub(r"\s", "", text)
    for line in wrapped.split("\n"):
        too_wide = width_of(line) > width + 1  # a closing mark may hang on the line it closes
        assert not too_wide or (" " not in line.strip() and not any(cjktext.is_cjk(ch) for ch in line[1:-1])) \
            or len(cjktext.char_units(line)) == 1, (width, line)
