"""A button inside a scroll view takes a finger's tap: the finger rolls a few pixels (5 px) and presses 50 ms to
1 s, or taps quickly, while the screen is rendered again ten times a second; the scroll view hands it to the
button under the finger (Kivy holds a touch until it has moved ``scroll_distance`` or ``scroll_timeout`` has
passed). The event card that offers every deed (22 answers, scrolled) and the card tray (mock reader)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from finger import answers_to, frames_for, frames_until, tap
from fixtures.views import event_deeds_view
from kivy.clock import Clock
from ui_driver import pump

pytestmark = pytest.mark.ui

PRESSES = ((0.0, 0.0), (0.05, 5.0), (0.2, 5.0), (1.0, 5.0))
"""(hold in seconds, drift in pixels) of the presses tried."""


def in_sight(scroll: Any, button: Any) -> bool:
    """Whether ``button`` stands whole inside ``scroll``'s box as drawn now."""
    _, y = button.to_window(button.x, button.y)  # through the scroll's offset
    _, sy = scroll.to_window(scroll.x, scroll.y)
    return sy <= y and y + button.height <= sy + scroll.height


def test_an_answer_in_a_scrolled_list_takes_a_rolling_finger(ui_app: Any, monkeypatch: Any) -> None:
    view = event_deeds_view()
    chosen = answers_to(ui_app, monkeypatch, view)
    screen = ui_app.screen("event")
    grid = screen.ids.choices
    scroll = grid.parent
    assert scroll.do_scroll_y, "22 answers overflow their box: the list scrolls"
    ticks = [0]

    def tick(_dt: float) -> None:  # the countdown: the screen rendered again at every banker tick
        ticks[0] += 1
        ui_app.render(replace(view, seconds_left=10.0 - ticks[0] / 10))

    countdown = Clock.schedule_interval(tick, 0.1)
    rng = random.Random(11)
    try:
        for at_end in (False, True):
            scroll.scroll_y = 0.0 if at_end else 1.0
            frames_for(0.1)
            for hold, drift in PRESSES:
                button = rng.choice([b for b in grid.children if in_sight(scroll, b)])
                before = len(chosen)
                tap(button, hold_s=hold, drift_px=drift, rng=rng)
                frames_until(lambda b=before: len(chosen) > b, 1.0)
                frames_for(0.25)  # a quick tap's release is handed on 0.2 s later too: never a second answer
                assert chosen[before:] == [button.value], \
                    f"{hold * 1000:.0f} ms, {drift} px on {button.text!r}: {chosen[before:]}"
    finally:
        countdown.cancel()
    assert ticks[0] > 10


def test_a_card_on_the_tray_takes_a_rolling_finger(classic_session: Any, monkeypatch: Any) -> None:
    app = classic_session
    for n in range(1, 9):
        app.session.registry.enroll(f"000000A{n}", "player", n, replace=True)
    app.render(app.controller.view)
    pump(3)
    tray = app.root.ids.tray
    tapped: list[str] = []
    monkeypatch.setattr(tray, "on_card", tapped.append)
    rng = random.Random(2)
    for hold, drift in PRESSES:
        button = rng.choice([b for b in tray.ids.rv.layout_manager.children if b.card_uid and in_sight_x(tray, b)])
        before = len(tapped)
        tap(button, hold_s=hold, drift_px=drift, rng=rng)
        frames_until(lambda b=before: len(tapped) > b, 1.0)
        frames_for(0.25)
        assert tapped[before:] == [button.card_uid], f"{hold * 1000:.0f} ms, {drift} px: {tapped[before:]}"


def in_sight_x(tray: Any, button: Any) -> bool:
    """Whether the tray's ``button`` stands whole inside the tray's row as drawn now."""
    rv = tray.ids.rv
    x, _ = button.to_window(button.x, button.y)
    rx, _ = rv.to_window(rv.x, rv.y)
    return rx <= x and x + button.width <= rx + rv.width


def test_an_option_in_the_setup_list_takes_a_rolling_finger(ui_app: Any, monkeypatch: Any) -> None:
    from fixtures.views import setup_view

    chosen: list[str] = []
    monkeypatch.setattr(ui_app, "choose", chosen.append)
    ui_app.overlay = None
    ui_app.render(setup_view())
    pump(3)
    screen = ui_app.screen("setup")
    scroll = screen.ids.right_scroll
    scroll.scroll_y = 0.0  # the options, under the game's choice
    pump(3)
    rows = [row for row in screen.option_rows.values() if row.parent is not None]
    owner = {b: row for row in rows for b in (row.toggle, row.plus) if b is not None and not b.disabled}
    buttons = list(owner)
    rng = random.Random(4)
    for hold, drift in PRESSES:
        button = rng.choice([b for b in buttons if in_sight(scroll, b)])
        before = len(chosen)
        tap(button, hold_s=hold, drift_px=drift, rng=rng)
        frames_until(lambda b=before: len(chosen) > b, 1.0)
        frames_for(0.25)
        assert len(chosen[before:]) == 1 and chosen[before].startswith(f"option={owner[button].option}:"), \
            f"{hold * 1000:.0f} ms, {drift} px on {owner[button].option}: {chosen[before:]}"
