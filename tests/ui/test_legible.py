"""Legible at arm's length: at 800x480, in every language and with eight players with long names, no text a
player must read is drawn below 14 px, and no mark on the board (colour band, owner disc, houses, hotel) is
smaller than 14 px. The walk covers every screen of ``fixtures.views.SCREENS`` plus eight-player versions."""

from __future__ import annotations

from typing import Any

import pytest
from fixtures.views import SCREENS, many_players_screens
from layout import _visible
from ui_driver import pump

from ui.i18n import LANGUAGES

pytestmark = pytest.mark.ui

MIN_PX = 14.0
"""The smallest text or mark a player reads, in pixels of the 800x480 screen."""


def small_things(root: Any) -> list[str]:
    """Every visible label drawn below :data:`MIN_PX` and every board mark smaller than it."""
    from kivy.uix.label import Label

    from ui.touch.widgets.board import SpaceCell

    found = []
    for widget in root.walk(restrict=True):
        if not _visible(widget):
            continue
        if isinstance(widget, Label) and widget.text.strip() and widget.font_size < MIN_PX - 0.05:
            found.append(f"{type(widget).__name__}({widget.text!r}) at {widget.font_size:.1f} px")
        if isinstance(widget, SpaceCell):
            for kind, w, h in widget.marks():
                if min(w, h) < MIN_PX - 0.05:
                    found.append(f"space {widget.position}: {kind} mark {w:.0f}x{h:.0f} px")
    return found


def show(app: Any, name: str, build: Any) -> None:
    app.overlay = None
    view = build()
    app.render(view)
    app.presenter.changes = {}  # no balance changes carried over from a game an earlier test played
    app.render(view)
    if name.startswith(("board", "classic_board")):
        app.show_screen("board")
    pump(3)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nothing_is_drawn_below_14_px(ui_app: Any, lang: str) -> None:
    ui_app.set_language(lang)
    found = {}
    for name, build in {**SCREENS, **many_players_screens()}.items():
        show(ui_app, name, build)
        small = small_things(ui_app.root)
        if small:
            found[name] = small
    ui_app.set_language("en")
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
