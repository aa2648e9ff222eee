"""Fonts held by the touch app: SDL_ttf opens one font per (file, size, style) and Kivy keeps up to 64 of
them open, so a label shrunk to fit steps through whole pixel sizes only (ui/touch/widgets/fitlabel.py):
the classic whole game opened 79 font sizes with fractional steps, 32 with whole ones, about 3 MiB less
RSS (bench/bench_memory.py). The CJK font is opened only for text that holds CJK characters.
"""

from __future__ import annotations

from typing import Any

import pytest
from ui_driver import pump

pytestmark = pytest.mark.ui


def test_a_label_shrunk_to_fit_uses_a_whole_pixel_size(ui_app: Any) -> None:
    from ui.touch.widgets.fitlabel import FitLabel

    label = FitLabel(text="Mediterranean Avenue: owned by Boris, rent M250", max_font_size=23.5,
                     size_hint=(None, None), size=(480, 40))
    ui_app.root.add_widget(label)
    try:
        pump(2)
        assert label.font_size < 23.5  # it had to shrink
        assert label.font_size == int(label.font_size) or label.font_size == label.min_font_size
    finally:
        ui_app.root.remove_widget(label)


def test_latin_and_cyrillic_text_never_opens_the_cjk_font(ui_app: Any) -> None:
    from ui.touch import fonts

    assert fonts.font_for_text("Ana pays M200 / Борис платит") == fonts.UI_FONT
    if fonts.CJK_FONT in fonts._registered:
        assert fonts.font_for_text("日本語") == fonts.CJK_FONT
