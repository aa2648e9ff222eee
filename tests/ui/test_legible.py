"""Legible and touchable at arm's length on the 7-inch panel: at 800x480, in every language and with eight
players with long names, no text a player must read is drawn below 16 px (a board square's name, in a
square about 30 px tall, below 14 px), no mark on the board (colour band, owner disc, houses, hotel) is
smaller than 14 px, no touch target is under 48 px high (about 9 mm) and no keypad key under 64x48 px. The
walk covers every screen of both rulesets (``fixtures.views.SCREENS``) plus eight-player versions."""

from __future__ import annotations

from typing import Any

import pytest
from fixtures.views import SCREENS
from layout import _visible
from looks import LOOKS
from screen_walk import show, small_targets, small_things, walk
from ui_driver import pump

from ui.i18n import LANGUAGES

pytestmark = pytest.mark.ui

CASES = [(lang, LOOKS[0]) for lang in LANGUAGES] + [(lang, LOOKS[1]) for lang in ("ru", "ja")]
"""Every language in the standard look; high contrast with large text in the two that run widest (Cyrillic and
Japanese: a label that keeps 16 px and 48 px there keeps it in English and Romanian; test_screens_fit walks
all four in both looks). The sizes (16 px text, 14 px board marks, 48 px targets, 64x48 px keys) and the
checkers are in screen_walk.py, whose one walk per language and look test_screens_fit shares."""


@pytest.mark.parametrize(("lang", "look_name"), CASES)
def test_nothing_is_drawn_below_16_px(ui_app: Any, lang: str, look_name: str) -> None:
    found = {name: seen.small_text for name, seen in walk(ui_app, lang, look_name).items() if seen.small_text}
    assert not found, "\n".join(f"{lang}/{name}: {p}" for name, ps in found.items() for p in ps)


@pytest.mark.parametrize(("lang", "look_name"), CASES)
def test_every_touch_target_is_48_px_high_and_keys_64x48(ui_app: Any, lang: str, look_name: str) -> None:
    """Both rulesets' screens in every language: a finger's width for every button, a thumb's for a key."""
    found = {name: seen.small_targets for name, seen in walk(ui_app, lang, look_name).items() if seen.small_targets}
    assert not found, "\n".join(f"{lang}/{name}: {p}" for name, ps in found.items() for p in ps)


def test_the_walk_sees_small_text_and_small_marks(ui_app: Any) -> None:
    """The checker itself: a 9 px label and a squeezed board space are reported."""
    from kivy.uix.boxlayout import BoxLayout

    from ui.touch.widgets.board import SpaceCell
    from ui.touch.widgets.fitlabel import FitLabel

    box = BoxLayout(size=(300, 60), pos=(10, 10), size_hint=(None, None))
    box.add_widget(FitLabel(text="tiny", max_font_size=9, min_font_size=9))
    cell = SpaceCell(edge="bottom", size_hint=(None, None), size=(40, 20))
    box.add_widget(cell)
    ui_app.root.add_widget(box)
    try:
        pump(2)
        cell.size = (40, 20)
        cell.band_rect = [cell.x, cell.y, 40, 8]
        found = small_things(box)
    finally:
        ui_app.root.remove_widget(box)
    assert any("'tiny'" in p for p in found), found
    assert any("band mark" in p for p in found), found


def test_the_walk_sees_small_buttons_and_small_keys(ui_app: Any) -> None:
    """The checker itself: a 30 px high button and a keypad of 50x22 px keys are reported."""
    from kivy.uix.boxlayout import BoxLayout

    from ui.touch.widgets.fitlabel import FitButton
    from ui.touch.widgets.keypad import Keypad

    box = BoxLayout(size=(300, 200), pos=(10, 10), size_hint=(None, None))
    box.add_widget(FitButton(text="thin", size_hint_y=None, height=30))
    box.add_widget(Keypad(size_hint=(None, None), size=(150, 150)))
    ui_app.root.add_widget(box)
    try:
        pump(3)
        found = small_targets(box)
    finally:
        ui_app.root.remove_widget(box)
    assert any("'thin'" in p for p in found), found
    assert any("keypad key '5'" in p for p in found), found


def test_the_error_toast_never_covers_a_button(ui_app: Any) -> None:
    """An error shows at the top of the screen: no action button, keypad key or choice is under it."""
    from kivy.uix.behaviors import ButtonBehavior

    ui_app.set_language("ru")
    toast = ui_app.root.ids.toast
    for name, build in SCREENS.items():
        show(ui_app, name, build)
        ui_app.toast(ui_app.t("error.rule", reason=ui_app.t("reason.not_enough_cash", player="Alexandra",
                                                               cash="M100", deed="Mayfair", price="M400")))
        pump(2)
        tx, ty = toast.to_window(toast.x, toast.y)
        for widget in ui_app.root.ids.sm.current_screen.walk(restrict=True):
            if isinstance(widget, ButtonBehavior) and _visible(widget) and widget.__class__.__name__ != "SpaceCell":
                bx, by = widget.to_window(widget.x, widget.y)
                overlap_x = min(tx + toast.width, bx + widget.width) - max(tx, bx)
                overlap_y = min(ty + toast.height, by + widget.height) - max(ty, by)
                assert overlap_x <= 1 or overlap_y <= 1, f"{name}: the toast covers {widget} {getattr(widget, 'text', '')!r}"
    toast.opacity = 0
    ui_app.set_language("en")


def test_the_standings_show_the_winner_and_new_game_when_the_banker_allows_it(ui_app: Any,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from fixtures.views import standings_view

    ui_app.set_language("en")
    show(ui_app, "standings", standings_view)
    screen = ui_app.screen("standings")
    assert screen.ids.winner.text == "Alexandra Constantinescu wins with M3,750"
    assert screen.ids.actions.button_for("press_new_game") is None  # no banker allows it here
    monkeypatch.setattr(type(ui_app), "may", lambda self, trigger: trigger == "press_new_game")
    show(ui_app, "standings", standings_view)
    button = screen.ids.actions.button_for("press_new_game")
    assert button is not None and not button.disabled and button.text == "New game"
