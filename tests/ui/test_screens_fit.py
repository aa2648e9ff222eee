"""Every screen at 800x480 in en, ru, ro and ja: labels fit, nothing is cut, siblings do not overlap.

Screenshots land in ``out/screenshots/<lang>/<screen>.png`` (gitignored) for a person to look at.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fixtures.views import SCREENS
from layout import problems
from looks import LOOKS
from screen_walk import show, walk
from ui_driver import SIZE, pump

from ui.i18n import LANGUAGES

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("look_name", LOOKS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_fits_at_800x480(ui_app: Any, lang: str, look_name: str) -> None:
    """The walk of screen_walk.py (one per language and look, which test_legible reads too)."""
    found = {name: seen.layout for name, seen in walk(ui_app, lang, look_name).items() if seen.layout}
    assert not found, "\n".join(f"{lang}/{name}: {p}" for name, ps in found.items() for p in ps)


@pytest.mark.parametrize("lang", ("ru", "ja"))
def test_every_screen_fits_with_amounts_in_thousands_of_rubles(ui_app: Any, lang: str) -> None:
    """The Russian editions count in thousands of rubles, the longest money text (``1 500 тыс. ₽``,
    ``1,500千ルーブル``): every screen's amounts must fit in it too."""
    ui_app.set_language(lang)
    found: dict[str, list[str]] = {}
    for name, build in SCREENS.items():
        show(ui_app, name, lambda build=build: replace(build(), currency="RUB_K"))
        bad = problems(ui_app.root, SIZE)
        if bad:
            found[name] = bad
    ui_app.set_language("en")
    assert not found, "\n".join(f"{lang}/{name} (RUB_K): {p}" for name, ps in found.items() for p in ps)


def test_the_layout_check_catches_overlap_and_cut_text(ui_app: Any) -> None:
    """The checker itself: a planted overlap and a label too small for its text are reported."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label

    from ui.touch.widgets.fitlabel import FitLabel

    box = BoxLayout(size=(200, 40), pos=(10, 10))
    a = Label(text="a fairly long text that cannot fit", size_hint=(None, None), size=(60, 20), pos=(10, 10))
    b = FitLabel(text="Екатерина Владимировна Константинопольская", size_hint=(None, None), size=(40, 12),
                 pos=(30, 10), min_font_size=11)
    box.add_widget(a)
    box.add_widget(b)
    a.pos, b.pos = (10, 10), (30, 10)
    ui_app.root.add_widget(box)
    try:
        pump(2)
        a.pos, b.pos = (10, 10), (30, 10)
        a.texture_update()
        found = problems(box, SIZE)
    finally:
        ui_app.root.remove_widget(box)
    assert any("overlap" in p for p in found), found
    assert any("does not fit" in p for p in found), found
    assert any("cut" in p for p in found), found
