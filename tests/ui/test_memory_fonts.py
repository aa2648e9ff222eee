"""Fonts held by the touch app: SDL_ttf opens one font per (file, size, style) and Kivy keeps up to 64 of
them open, so a label shrunk to fit steps through whole pixel sizes only (ui/touch/widgets/fitlabel.py):
the classic whole game opened 79 font sizes with fractional steps, 32 with whole ones, about 3 MiB less
RSS (bench/bench_memory.py); since then every fitted label is drawn at a size of one short ladder
(``FONT_LADDER_DP``: 14, 16, 18, 20, 24, 28... dp), 21 fonts through the classic game instead of 32 (about 2 MiB).
The CJK font is opened only for text that holds CJK characters.
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


def test_every_fitted_label_is_drawn_at_a_size_of_the_ladder(ui_app: Any) -> None:
    """Labels asking for 17, 19, 21 or 23.5 px at most, shrunk or not, share the ladder's few sizes."""
    from kivy.metrics import dp

    from ui.touch.widgets.fitlabel import FONT_LADDER_DP, FitLabel, ladder_size

    ladder = {dp(step) for step in FONT_LADDER_DP}
    labels = [FitLabel(text=text, max_font_size=top, size_hint=(None, None), size=(width, 40))
              for text, top, width in (("GO", 17, 200), ("Jail", 19, 200), ("Free Parking", 21, 300),
                                       ("Mediterranean Avenue: owned by Boris, rent M250", 23.5, 480))]
    for label in labels:
        ui_app.root.add_widget(label)
    try:
        pump(2)
        sizes = [label.font_size for label in labels]
        assert all(size in ladder or size == label.min_font_size for size, label in zip(sizes, labels, strict=True))
        assert sizes[:3] == [dp(16), dp(18), dp(20)], sizes  # the largest step under each label's own top
    finally:
        for label in labels:
            ui_app.root.remove_widget(label)
    assert ladder_size(17, 16) == dp(16) and ladder_size(15, 16) == 16 and ladder_size(100, 16) == dp(64)


def test_latin_and_cyrillic_text_never_opens_the_cjk_font(ui_app: Any) -> None:
    from ui.touch import fonts

    assert fonts.font_for_text("Ana pays M200 / Борис платит") == fonts.UI_FONT
    if fonts.CJK_FONT in fonts._registered:
        assert fonts.font_for_text("日本語") == fonts.CJK_FONT
