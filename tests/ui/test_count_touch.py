"""Count it at the touch screen (docs/flows.md, "Count it"): a counting player's question before a payment,
answered on the question screen's keypad (wrong, the hint, right), skipped, in en/ru/ja; who counts chosen
by the setup screen's "counts" toggles; a question on the screen through a restart of the app. Every touch goes
through the window's own input (``Window.dispatch('on_mouse_down' / 'on_mouse_up')`` scheduled from the
clock at random moments), never a widget's ``on_release`` called directly."""

from __future__ import annotations

import random
from typing import Any

import finger
import pytest
from ui_driver import wait_for

CLICK_RNG = random.Random(31)

pytestmark = pytest.mark.ui
RNG = random.Random(20261205)


def click(widget: Any) -> None:
    """A finger's tap through the window's input (tests/ui/finger.py)."""
    finger.click(widget, CLICK_RNG)


def key(screen: Any, text: str) -> Any:
    """The keypad's key showing ``text`` (a digit or OK's caption)."""
    for widget in screen.ids.keypad.walk(restrict=True):
        if getattr(widget, "text", None) == text and hasattr(widget, "on_release"):
            return widget
    raise AssertionError(f"no key {text!r}")


def type_amount(screen: Any, amount: int) -> None:
    for digit in str(amount):
        click(key(screen, digit))
    click(screen.ids.keypad.ok_button())


def _buy(app: Any, seat: int, deed: int) -> None:
    app.controller.tap(app.session.registry.holder("deed", deed))
    app.controller.tap(f"BB0000{seat:02X}")
    app.press("ok")


@pytest.mark.parametrize("lang", ["en", "ru", "ja"])
def test_the_question_screen_takes_a_wrong_then_a_right_answer_and_skip(fresh_session: Any, lang: str) -> None:
    app = fresh_session
    app.set_language(lang)
    for n, name in ((1, "Ann"), (2, "Ben")):
        app.controller.tap(f"BB0000{n:02X}")
        app.choose(f"name={n}:{name}")
    app.choose("count=1")
    app.press("ok")
    balance = {p.id: p.balance for p in app.controller.view.players}
    _buy(app, 1, 3)  # Ann buys: she counts the price first
    view = app.controller.view
    assert view.question is not None and view.question.player == "p1"
    assert app.root.ids.sm.current == "question"
    screen = app.screen("question")
    assert "Ann" in screen.ids.title.text
    price = view.question.amount
    asked = screen.ids.hint.text
    assert {p.id: p.balance for p in view.players} == balance, "nothing paid while the question is asked"
    type_amount(screen, price + 10)
    wait_for(lambda: app.controller.view.question is not None and app.controller.view.question.tries == 1)
    assert screen.ids.hint.text and screen.ids.hint.text != asked, "a hint after the wrong answer"
    type_amount(screen, price)
    wait_for(lambda: app.controller.view.question is None)
    assert app.toast_kind == "notice" and "Ann" in app.root.ids.toast.text, "a right answer is praised"
    after = {p.id: p.balance for p in app.controller.view.players}
    assert after["p1"] == balance["p1"] - price and app.root.ids.sm.current != "question"
    _buy(app, 1, 1)  # a second question: Skip lets it through
    assert app.root.ids.sm.current == "question"
    skip = app.screen("question").ids.actions.button_for("press_skip")
    assert skip is not None and skip.text
    click(skip)
    wait_for(lambda: app.controller.view.question is None)
    assert app.controller.view.scores[0].right == 1 and app.controller.view.scores[0].answered == 1
    owner = app.session.banker.game.state.owner
    assert owner[3] == "p1" and owner[1] == "p1"


def _in_sight(screen: Any, widget: Any) -> Any:
    """``widget`` scrolled into the setup's right column's sight (in code, as the touch player does)."""
    screen.ids.right_scroll.scroll_to(widget, animate=False)
    finger.frames_for(0.1)
    return widget


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_setup_screen_chooses_who_counts_by_touch(fresh_session: Any, lang: str) -> None:
    """Each seated player has a "counts" toggle under the game's choice, with the player's name, off by
    default; a finger's touch turns it on or off (the banker's ``count=`` answer), and the game started
    has those players counting."""
    app = fresh_session
    app.set_language(lang)
    for n, name in ((1, "Ann"), (2, "Ben")):
        app.controller.tap(f"BB0000{n:02X}")
        app.choose(f"name={n}:{name}")
    finger.frames_for(0.1)
    screen = app.screen("setup")
    rows = screen.count_rows
    assert sorted(rows) == [1, 2] and "Ann" in rows[1].label.text and "Ben" in rows[2].label.text
    assert screen.ids.count_title.text and screen.counting_seats(app.presenter) == [], "nobody counts by default"
    assert rows[1].toggle.text == app.t("word.off")
    click(_in_sight(screen, rows[1].toggle))
    wait_for(lambda: screen.counting_seats(app.presenter) == [1])
    assert screen.count_rows[1].toggle.text == app.t("word.on")
    click(_in_sight(screen, screen.count_rows[2].toggle))
    wait_for(lambda: screen.counting_seats(app.presenter) == [1, 2])
    click(_in_sight(screen, screen.count_rows[1].toggle))
    wait_for(lambda: screen.counting_seats(app.presenter) == [2])
    app.press("ok")
    assert [s.player for s in app.controller.view.scores] == ["p2"], "Ben alone counts in the game"


def test_a_question_on_the_screen_is_there_again_after_a_restart(installation: Any) -> None:
    """The unit stops while Ann's question is on the screen: started again, the question screen shows the
    same question, nothing paid; Skip then pays it once."""
    app = installation.start("--edition", "classic-us")
    for n in (1, 2):
        app.controller.tap(f"BB0000{n:02X}")
    app.choose("count=1")
    app.press("ok")
    before = {p.id: p.balance for p in app.controller.view.players}
    _buy(app, 1, 3)
    asked = app.controller.view.question
    assert asked is not None and app.root.ids.sm.current == "question"
    app = installation.restart("--edition", "classic-us")
    wait_for(lambda: app.root.ids.sm.current == "question")
    assert app.controller.view.question == asked
    assert {p.id: p.balance for p in app.controller.view.players} == before, "nothing paid yet"
    click(app.screen("question").ids.actions.button_for("press_skip"))
    wait_for(lambda: app.controller.view.question is None)
    after = {p.id: p.balance for p in app.controller.view.players}
    assert after["p1"] == before["p1"] - asked.amount and app.session.banker.game.state.owner[3] == "p1"
