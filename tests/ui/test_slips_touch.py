"""No slip ends a game, at the touch screen: New game and Undo ask first on the menu's confirm page, and
setup offers the game New game left ("Back to the game of Ann and Ben"). Every touch goes through the
window's own input (``Window.dispatch('on_mouse_down' / 'on_mouse_up')`` scheduled from the clock, as SDL
delivers a finger), never a widget's ``on_release`` called directly."""

from __future__ import annotations

import random
from typing import Any

import finger

CLICK_RNG = random.Random(31)


def click(widget: Any) -> None:
    """A finger's tap through the window's input (tests/ui/finger.py)."""
    finger.click(widget, CLICK_RNG)


def _start(app: Any) -> None:
    for n, name in ((1, "Ann"), (2, "Ben")):
        app.controller.tap(f"BB0000{n:02X}")
        app.choose(f"name={n}:{name}")
    app.press("ok")
    deed = app.session.registry.holder("deed", 3)
    app.controller.tap(deed)
    app.controller.tap("BB000001")
    app.press("ok")
    assert app.controller.view.phase == "play" and dict((d, o) for d, o in app.session.banker.game.state.owner.items())[3] == "p1"


def _menu(app: Any) -> Any:
    app.press("menu")
    app.choose("1234")
    assert app.controller.view.state == "menu"
    return app.screen("menu")


def test_new_game_asks_naming_the_game_and_setup_goes_back_to_it(fresh_session: Any) -> None:
    app = fresh_session
    _start(app)
    menu = _menu(app)
    click(menu.ids.new_game)
    assert app.controller.view.state == "menu" and menu.ids.pages.current == "confirm"
    assert "Ann and Ben" in menu.ids.question.text and "turn 1" in menu.ids.question.text
    click(menu.ids.confirm_no)  # No: the question goes, the menu and the game stay
    assert menu.ids.pages.current == "open" and app.controller.view.phase == "play"
    click(menu.ids.new_game)
    click(menu.ids.confirm_yes)
    assert app.controller.view.state == "setup" and app.root.ids.sm.current == "setup"
    back = app.screen("setup").ids.back
    assert back.opacity == 1 and back.text == "Back to the game of Ann and Ben"
    click(back)
    assert app.controller.view.state == "idle" and app.session.banker.game.state.owner.get(3) == "p1"


def test_undo_says_what_it_undoes_before_doing_it(fresh_session: Any) -> None:
    app = fresh_session
    _start(app)
    menu = _menu(app)
    click(menu.ids.undo)
    assert menu.ids.pages.current == "confirm"
    assert menu.ids.question.text.startswith("Undo: Ann bought ") and app.session.banker.game.state.owner.get(3) == "p1"
    click(menu.ids.confirm_no)
    assert app.session.banker.game.state.owner.get(3) == "p1"
    click(menu.ids.undo)
    click(menu.ids.confirm_yes)
    assert app.controller.view.state == "idle" and app.session.banker.game.state.owner.get(3) is None


def test_every_question_of_the_banker_shows_on_the_confirm_page() -> None:
    import re
    from pathlib import Path

    from ui.touch.screens.menu import QUESTIONS

    text = (Path(__file__).parents[2] / "engine" / "banker" / "undoing.py").read_text(encoding="utf-8")
    assert set(re.findall(r'"(prompt\.(?:undo_\w+|confirm_new_game))"', text)) == QUESTIONS


def test_a_restart_with_edition_lights_it_on_the_menu_s_new_game(installation: Any) -> None:
    """The issue: a restart with ``--edition ultimate-uk`` said so, yet New game lit the finished game's."""
    app = installation.start("--edition", "classic-us")
    for seat in (1, 2):  # the mock deck's bank cards
        app.controller.tap(f"BB0000{seat:02X}")
    app.press("ok")
    assert app.controller.view.phase == "play" and app.controller.view.edition == "classic-us"
    app = installation.restart("--edition", "ultimate-uk")
    assert app.controller.view.edition == "classic-us"  # the saved game decides
    click(app.root.ids.menu_button)  # no PIN set: the menu opens
    menu = app.screen("menu")
    click(menu.ids.new_game)
    click(menu.ids.confirm_yes)
    setup = app.screen("setup")
    assert app.controller.view.state == "setup" and app.controller.view.edition == "ultimate-uk"
    assert setup.game_choice is not None and setup.game_choice._current == "ultimate-uk"  # lit on the screen
