"""The table explains and speaks: the transaction line is the entry's story sentence, a touch on it shows the
receipt (the rule, its arithmetic and source), which goes at a tap or a timeout and never holds a card tap
up; touches come through the window's own mouse input at random moments of the clock; the voice's row in
the menu and the table's Say balances button (ui/touch/voice.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import finger
import pytest
from ui_driver import pump, wait_for

from tests.speakers import Said
from ui.touch.voice import TableVoice

pytestmark = pytest.mark.ui


@pytest.fixture
def mouse() -> Iterator[None]:
    """The window's mouse input (``boardbank run`` starts it from Kivy's [input] config; the test app does not):
    one provider for the whole session (tests/ui/finger.py), never a second one beside it, which would turn
    each click into two touches (the receipt shown, then taken away by the same click)."""
    finger.started()
    yield


def rent_paid(app: Any) -> None:
    """Two players; Ann buys The Angel, Islington (deed 3), Bob pays her rent on it."""
    c, registry = app.controller, app.session.registry
    for n in (1, 2):
        c.tap(registry.holder("player", n))
    c.press("ok")
    for n in (1, 2):
        c.tap(registry.holder("deed", 3))
        c.tap(registry.holder("player", n))
        if n == 1:
            c.press("ok")
    pump(2)
    assert app.root.ids.sm.current == "table"


def mouse_tap_at(x: float, y: float, rng: random.Random) -> list[bool]:
    """A mouse press and release at window point (x, y), delivered through the window's input from the
    clock at a random moment (the release 20-120 ms later); returns a list set to [True] once released."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    height = Window.system_size[1]
    done: list[bool] = []

    def down(_dt: float) -> None:
        Window.dispatch("on_mouse_down", x, height - y, "left", [])
        Clock.schedule_once(up, rng.uniform(0.02, 0.12))

    def up(_dt: float) -> None:
        Window.dispatch("on_mouse_up", x, height - y, "left", [])
        done.append(True)

    Clock.schedule_once(down, rng.uniform(0.0, 0.15))
    return done


def tap_widget(widget: Any, rng: random.Random) -> None:
    pump(2)
    x, y = widget.to_window(*widget.center)
    done = mouse_tap_at(x, y, rng)
    wait_for(lambda: bool(done))
    pump(2)


def test_the_transaction_line_says_what_the_payment_was_for(fresh_session: Any) -> None:
    app = fresh_session
    rent_paid(app)
    line = app.screen("table").ids.tx.text
    assert line == app.presenter.told()
    assert line.startswith("Rent: ") and "The Angel, Islington" in line and "(level 1)" in line
    app.set_language("ru")
    assert app.screen("table").ids.tx.text.startswith("Аренда: ")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_touching_the_payment_shows_its_receipt_and_a_tap_takes_it_away(fresh_session: Any, mouse: None,
                                                                         seed: int) -> None:
    app, rng = fresh_session, random.Random(seed)
    rent_paid(app)
    table = app.screen("table")
    tap_widget(table.ids.tx, rng)
    assert table.receipt_shown
    receipt = table.ids.receipt.text
    assert receipt.startswith(table.ids.tx.text) and "= M" in receipt and "[rules.md 1.9]" in receipt
    tap_widget(table.ids.receipt, rng)  # a tap on it: gone, and nothing under it pressed
    assert not table.receipt_shown
    tap_widget(table.ids.tx, rng)
    assert table.receipt_shown
    handled = app.controller.handled
    uid = app.session.registry.holder("player", 1)
    card = app.root.ids.tray.button_for(uid)
    app.root.ids.tray.scroll_to_card(uid)
    tap_widget(card, rng)  # a card on the tray while the receipt shows: the tap goes through, the receipt goes
    assert app.controller.handled > handled  # the card reached the banker
    assert not table.receipt_shown


def test_the_receipt_goes_by_itself(fresh_session: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = fresh_session
    rent_paid(app)
    table = app.screen("table")
    table._receipt_timeout.timeout = 0.2
    try:
        assert table.show_receipt()
        wait_for(lambda: not table.receipt_shown, timeout=5)
    finally:
        table._receipt_timeout.timeout = 8.0


def test_the_unit_says_payments_and_turns_and_the_balances_on_request(fresh_session: Any, mouse: None) -> None:
    app = fresh_session
    said = Said()
    app.voice = TableVoice(said)
    try:
        rent_paid(app)
        assert any(t.startswith("Rent: ") for t in said.texts) and any(t.startswith("Purchase: ") for t in said.texts)
        say = app.screen("table").ids.say
        assert say.opacity == 1 and not say.disabled
        tap_widget(say, random.Random(4))
        assert said.texts[-1].startswith("Balances: ")
        app.toggle_speech("payments")
        assert app.voice.topics == {"turns"}
        app.toggle_speech()
        assert not app.voice.on and said.texts[-1] == "<hush>"
        app.render(app.presenter.view)
        pump(1)
        assert app.screen("table").ids.say.disabled
    finally:
        app.voice = TableVoice()
    app.render(app.presenter.view)
    pump(1)
    assert app.screen("table").ids.say.opacity == 0  # no voice: no button


@pytest.mark.parametrize("lang", ["en", "ru", "ro", "ja"])
def test_the_sentence_line_and_the_receipt_fit_and_are_legible_at_800x480(fresh_session: Any, lang: str) -> None:
    from layout import problems
    from screen_walk import small_targets, small_things
    from ui_driver import SHOTS, SIZE, screenshot

    app = fresh_session
    app.voice = TableVoice(Said())  # the Say balances button shown too
    try:
        rent_paid(app)
        app.set_language(lang)
        pump(3)
        table = app.screen("table")
        assert table.ids.tx.text == app.presenter.told() and not table.ids.tx.text.endswith("…")
        screenshot(SHOTS / lang / "table_sentence.png")
        bad = problems(app.root, SIZE) + small_things(table) + small_targets(table)
        assert not bad, "\n".join(bad)
        assert table.show_receipt()
        pump(3)
        screenshot(SHOTS / lang / "table_receipt.png")
        note = table.ids.receipt
        tw, th = note.texture_size
        assert tw <= note.width + 1 and th <= note.height + 1 and not note.text.endswith("…")
        assert not small_things(note)
        table.hide_receipt()
    finally:
        app.voice = TableVoice()
        app.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "ro", "ja"])
def test_the_menus_voice_row_fits_and_is_touchable(ui_app: Any, lang: str) -> None:
    from layout import problems
    from screen_walk import show, small_targets, small_things
    from ui_driver import SHOTS, SIZE, screenshot

    app = ui_app
    app.voice = TableVoice(Said())
    try:
        app.set_language(lang)
        show(app, "menu")
        menu = app.screen("menu")
        assert menu.ids.speech.text == app.t("speech.on") and not menu.ids.speech_payments.disabled
        screenshot(SHOTS / lang / "menu_voice.png")
        bad = problems(app.root, SIZE) + small_things(menu) + small_targets(menu)
        assert not bad, "\n".join(bad)
    finally:
        app.voice = TableVoice()
        app.set_language("en")


def test_after_a_restart_the_next_payment_still_has_its_receipt(installation: Any) -> None:
    app = installation.start()
    rent_paid(app)
    before = app.presenter.told(with_receipt=True)
    app = installation.restart()
    assert app.story.book.seq > 0  # the receipt book took the resumed game's events
    c, registry = app.controller, app.session.registry
    c.tap(registry.holder("deed", 3))
    c.tap(registry.holder("player", 2))  # Bob lands on Ann's deed again: rent at level 1 again
    pump(2)
    told = app.presenter.told(with_receipt=True)
    assert told.startswith("Rent: ") and told.splitlines()[1].startswith("rent at level ")  # not "" (no receipt)
    assert before.splitlines()[1].endswith("[rules.md 1.9]") and told.splitlines()[1].endswith("[rules.md 1.9]")
