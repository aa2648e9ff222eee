"""The Chance card "advance to the nearest railroad" asks on which Chance square the token stands: each of the
three answers takes a finger's tap at any moment while the gesture's countdown runs (a quick tap, down and up in
one frame, as a light finger or a touchpad gives; 80 ms; 300 ms), and all three stand in sight above the
actions at 800x480 in every language (docs/flows.md, "A finger on the screen")."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from finger import clock_running, frames_for, frames_until, point_of, press, tap
from fixtures.classic_views import board, card_space_view
from layout import problems
from ui_driver import SIZE, pump

from ui.i18n import LANGUAGES

pytestmark = pytest.mark.ui

CHANCE_SQUARES = ("7", "22", "36")
"""The classic board's Chance squares: the answers of the card."""
NEAREST = {"7": 15, "22": 25, "36": 5}
"""The railroad square each Chance square's nearest-railroad card sends the token to."""


def two_players_and_a_card(app: Any, event: int = 5) -> str:
    """A classic game of two started (bank cards 000000A1 and 000000A2) with the Chance card ``event`` enrolled
    (5: "advance to the nearest railroad"); returns the card's uid."""
    uid_of_card = f"000002{event:02d}"
    registry = app.session.registry
    for uid, kind, value in (("000000A1", "player", 1), ("000000A2", "player", 2), (uid_of_card, "event", event)):
        registry.enroll(uid, kind, value, replace=True)
    for uid in ("000000A1", "000000A2"):
        app.controller.tap(uid)
    app.controller.press("ok")
    return uid_of_card


def to_card_space(app: Any) -> Any:
    """A classic game of two; player 1 draws "advance to the nearest railroad" (a physical Chance card): the
    card screen asks for the token's square. Returns the app."""
    controller = app.controller
    controller.tap(two_players_and_a_card(app))
    controller.tap("000000A1")
    assert controller.view.state == "card_space", controller.view.state
    pump(2)
    return app


def choice_button(app: Any, value: str) -> Any:
    """The card screen's answer button of ``value`` as it stands now."""
    return next(b for b in app.screen("card").ids.choices.children if b.value == value)


@pytest.mark.parametrize("square", CHANCE_SQUARES)
def test_each_nearest_railroad_answer_takes_a_quick_tap_while_the_countdown_runs(
        classic_session: Any, square: str) -> None:
    app = to_card_space(classic_session)
    with clock_running(app):
        frames_for(0.15)
        tap(lambda: choice_button(app, square), hold_s=0.0, rng=random.Random(square))
        assert frames_until(lambda: app.controller.view.state != "card_space", 2.0), "the tap was lost"
    view = app.controller.view
    railroad = next(s for s in view.board if s.deed is not None and s.deed == view.selected_deed)
    assert (view.state, railroad.position) == ("buy", NEAREST[square])  # the railroad is for sale


def test_every_answer_takes_every_press_exactly_once(classic_session: Any, monkeypatch: Any) -> None:
    """Twelve presses (each answer quick, 80 ms, 300 ms and 1 s) at random moments against the frame and
    the banker's ticks: each one answers once, with the answer under the finger."""
    app = to_card_space(classic_session)
    chosen: list[str] = []
    monkeypatch.setattr(app, "choose", chosen.append)
    rng = random.Random(5)
    with clock_running(app):
        for hold in (0.0, 0.08, 0.3, 1.0):
            for square in CHANCE_SQUARES:
                before = len(chosen)
                tap(lambda s=square: choice_button(app, s), hold_s=hold, rng=rng)
                frames_until(lambda b=before: len(chosen) > b, 1.0)
                frames_for(0.05)
                assert chosen[before:] == [square], f"a {hold * 1000:.0f} ms press on {square} gave {chosen[before:]}"


def test_an_answer_takes_a_tap_in_the_first_frame_the_card_is_drawn(classic_session: Any) -> None:
    app = classic_session
    app.controller.tap(two_players_and_a_card(app))
    pump(2)
    with clock_running(app):
        app.controller.reader_sink(_presented("000000A1"))  # the drawer's card, through the reader's thread hand-over
        assert frames_until(lambda: app.root.ids.sm.current == "card")
        frames_for(0.0)
        pump(1)  # the first frame with the card drawn
        press(*point_of(choice_button(app, "22")), hold_s=0.0)
        assert frames_until(lambda: app.controller.view.state != "card_space", 2.0), "the tap was lost"


def test_a_new_screen_is_drawn_in_its_place_from_its_first_frame(classic_session: Any) -> None:
    """The card screen, built as it is first shown, stands where the screens stand (above the card tray) in
    the first frame drawn with it, not one frame later: a finger aimed at what that frame showed lands on the
    button it saw."""
    from kivy.core.window import Window

    app = classic_session
    two_players_and_a_card(app)
    pump(2)
    manager = app.root.ids.sm
    assert not manager.has_screen("card") and manager.y > 0  # built when shown; the tray under the screens
    drawn: list[tuple[float, float]] = []

    def flipped(*_: Any) -> None:
        if manager.current == "card":
            drawn.append(tuple(manager.current_screen.pos))

    Window.bind(on_flip=flipped)
    try:
        app.controller.reader_sink(_presented("00000205"))  # the Chance card on the reader: it shows
        assert frames_until(lambda: len(drawn) >= 2)
    finally:
        Window.unbind(on_flip=flipped)
    assert drawn[0] == tuple(manager.pos), f"first frame at {drawn[0]}, the screens stand at {tuple(manager.pos)}"


def _presented(uid: str) -> Any:
    import time

    from reader.events import CardPresented

    return CardPresented(reader="mock://ui-test", uid=uid, t=time.monotonic())


@pytest.mark.parametrize("edition", ("classic-us", "classic-uk", "classic-ru"))
def test_the_three_answers_stand_in_sight_above_the_actions(ui_app: Any, edition: str) -> None:
    base = card_space_view()
    spaces = board(edition=edition)
    view = replace(base, edition=edition, board=spaces, currency="RUB_K" if edition.endswith("ru") else "M",
                   choices=tuple(replace(c, params=(("name", spaces[int(c.value)].name),)) for c in base.choices))
    found: list[str] = []
    for lang in LANGUAGES:
        ui_app.set_language(lang)
        ui_app.overlay = None
        ui_app.render(view)
        pump(3)
        screen = ui_app.screen("card")
        scroll = screen.ids.choices.parent
        sx0, sy0 = scroll.to_window(scroll.x, scroll.y)
        actions = screen.ids.actions
        _, ay0 = actions.to_window(actions.x, actions.y)
        atop = ay0 + actions.height
        buttons = list(screen.ids.choices.children)
        assert len(buttons) == 3
        for button in buttons:
            x0, y0 = button.to_parent(button.x, button.y)
            x0, y0 = scroll.to_window(*scroll.to_parent(x0, y0))  # through the scroll's offset
            if y0 < sy0 - 1 or y0 + button.height > sy0 + scroll.height + 1 or x0 < sx0 - 1 or \
                    x0 + button.width > sx0 + scroll.width + 1:
                found.append(f"{lang}: {button.text!r} is not all in sight")
            if y0 < atop - 1:
                found.append(f"{lang}: {button.text!r} is under the actions")
            if button.height < 48:
                found.append(f"{lang}: {button.text!r} is {button.height:.0f} px high")
        found += [f"{lang}: {p}" for p in problems(ui_app.root, SIZE)]
    ui_app.set_language("en")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ("en", "ru", "ja"))
def test_a_card_that_asks_nothing_folds_the_actions_as_the_table_does(classic_session: Any, lang: str) -> None:
    """After a Dividend card the card screen stays up with the game's actions; they were fourteen flat buttons,
    Pay the fine and Use the card among them for a player not in jail. Now the table's groups fold them, and
    the In jail… group's actions are a touch away."""
    from ui.touch.screens.grouped import GROUP_PREFIX, MAX_BUTTONS

    app = classic_session
    app.set_language(lang)
    try:
        app.controller.tap(two_players_and_a_card(app, 8))  # Dividend: the Bank pays 50, nothing asked
        app.controller.tap("000000A1")
        pump(2)
        screen = app.screen("card")
        assert app.root.ids.sm.current == "card" and app.controller.view.state == "idle"
        row = screen.ids.actions
        shown = [b.trigger for b in row.children if getattr(b, "trigger", "")]
        assert len(shown) <= MAX_BUTTONS, shown
        assert "press_pay_fee" not in shown and GROUP_PREFIX + "in_jail" in shown, shown
        assert screen.group_of("press_pay_fee") == "in_jail"
    finally:
        app.set_language("en")
