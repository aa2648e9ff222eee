"""The look from the banker's menu (ui/touch/screens/looks.py): a finger on "High contrast" or "Large text"
makes the whole screen again in that look at once (the bar, the menu it was touched on, then the table), and
the choice is in the installation's settings after a restart. Touches go through the window's input."""

from __future__ import annotations

import random
from typing import Any

import finger
import pytest
from ui_driver import wait_for

from ui.touch.widgets import palette

pytestmark = pytest.mark.ui
RNG = random.Random(51)


def _menu(app: Any) -> Any:
    app.open_menu()
    wait_for(lambda: app.root.ids.sm.current == "menu" and app.session.banker.state_name == "menu")
    return app.screen("menu")


def test_high_contrast_and_large_text_apply_in_place_and_survive_a_restart(installation: Any) -> None:
    from kivy.core.window import Window

    app = installation.start("--edition", "classic-us")
    try:
        old_root = app.root
        menu = _menu(app)
        assert menu.ids.look_contrast.text == "High contrast: off"
        finger.click(menu.ids.look_contrast, RNG)
        wait_for(lambda: palette.THEME == "high_contrast" and app.root is not old_root)
        assert app.root.ids.sm.current == "menu", "still on the menu, made again in the new look"
        menu = app.screen("menu")
        assert menu.ids.look_contrast.text == "High contrast: on"
        assert tuple(menu.ids.look_contrast.bg) == palette.ACCENT == palette.HIGH_CONTRAST["ACCENT"]
        assert tuple(Window.clearcolor) == palette.HIGH_CONTRAST["BACKGROUND"]
        assert old_root.parent is None, "the old screen is gone"
        finger.click(menu.ids.look_large, RNG)
        wait_for(lambda: palette.TEXT_SCALE == palette.LARGE_TEXT_SCALE)
        assert app.screen("menu").ids.look_large.text == "Large text: on"
        finger.click(app.screen("menu").ids.look_large.parent.children[0], RNG)  # Close
        wait_for(lambda: app.root.ids.sm.current in ("setup", "table"))
        app.save_settings()
        app = installation.restart("--edition", "classic-us")
        stored = app.session.settings
        assert stored.theme() == "high_contrast" and stored.large_text() is True
    finally:
        app.set_look("standard", False)
    assert palette.THEME == "standard" and palette.TEXT_SCALE == 1.0
