"""Japanese on the screen: lines break between CJK characters (not only at spaces, never before 。、）),
and Latin and Cyrillic runs inside Japanese text are drawn in Roboto, not letter-spaced by the CJK font."""

from __future__ import annotations

from typing import Any

import pytest
from ui_driver import pump

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
    assert cjktext.units("入札（最高）。") == ["入", "札", "（最", "高）。"]


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
