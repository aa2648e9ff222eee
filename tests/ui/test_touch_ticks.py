"""Screens update their widgets in place: a clock tick (the gesture timeout's seconds, the auction's countdown,
the classic game's clock) renders the screen again ten times a second, and no widget is replaced by it; a
button is made again only when the set of choices changes, and never while a finger is down on one of them
(ui/touch/widgets/kept.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from finger import answers_to, clock_running, frames_for, frames_until, identities, point_of, press, started
from fixtures.views import SCREENS
from ui_driver import pump

from engine.banker.viewmodel import ViewModel

pytestmark = pytest.mark.ui


def ticked(view: ViewModel, tick: int) -> ViewModel:
    """``view`` ``tick`` tenths of a second later: every countdown in it has moved."""
    moved: dict[str, Any] = {"seconds_left": max(0.0, (view.seconds_left or 10.0) - tick / 10)}
    if view.auction is not None:
        moved["auction"] = replace(view.auction, seconds_left=max(0.0, view.auction.seconds_left - tick / 10))
    clock = getattr(view, "clock", None)
    if clock is not None:
        moved["clock"] = replace(clock, elapsed_s=clock.elapsed_s + tick / 10)
    timer = getattr(view, "timer", None)
    if timer is not None:
        moved["timer"] = replace(timer, seconds_left=max(0.0, timer.seconds_left - tick / 10))
    return replace(view, **moved)


def test_no_screen_replaces_a_widget_at_a_clock_tick(ui_app: Any) -> None:
    replaced: dict[str, int] = {}
    for name, build in SCREENS.items():
        ui_app.overlay = None
        view = build()
        ui_app.render(view)
        if name.startswith(("board", "classic_board")):
            ui_app.show_screen("board")
        pump(2)
        screen = ui_app.root.ids.sm.current_screen
        before = identities(screen)
        for tick in range(1, 6):
            ui_app.render(ticked(view, tick))
            if name.startswith(("board", "classic_board")):
                ui_app.show_screen("board")
        pump(1)
        after = identities(screen)
        if before != after:
            replaced[name] = len(before - after)
    assert not replaced, f"widgets replaced by a clock tick (screen: how many): {replaced}"


def test_the_card_screen_keeps_its_buttons_while_the_banker_clock_runs(classic_session: Any) -> None:
    from test_touch_card import to_card_space

    app = to_card_space(classic_session)
    screen = app.screen("card")
    with clock_running(app):
        frames_for(0.2)
        before = identities(screen)
        shown = app.rendered
        frames_for(0.5)
        press(*point_of(screen.ids.body), hold_s=0.1)  # a finger on the card restarts the timeout: one more render
        frames_for(0.2)
        assert app.rendered > shown + 3, "the countdown did not render the screen again"
        assert identities(screen) == before


def finger_down(x: float, y: float) -> None:
    """A finger put down at ``(x, y)`` (system coordinates) and left there."""
    from kivy.core.window import Window

    started()
    Window.dispatch("on_mouse_down", x, y, "left", [])


def finger_up(x: float, y: float) -> None:
    """The finger at ``(x, y)`` lifted."""
    from kivy.core.window import Window

    Window.dispatch("on_mouse_up", x, y, "left", [])


def test_a_new_set_of_choices_waits_for_the_finger_on_one_of_them(ui_app: Any, monkeypatch: Any) -> None:
    from fixtures.classic_views import card_space_view

    from engine.banker.viewmodel import ChoiceView

    view = card_space_view()
    chosen = answers_to(ui_app, monkeypatch, view)
    grid = ui_app.screen("card").ids.choices
    buttons = {b.value: b for b in grid.children}
    fewer = replace(view, choices=(ChoiceView("7", "choice.space", (("name", "Chance"),)),))
    point = point_of(buttons["22"])
    finger_down(*point)
    assert frames_until(lambda: buttons["22"].state == "down")
    ui_app.render(fewer)  # a reader's tap changes the answers under the finger
    frames_for(0.1)
    assert {id(b) for b in grid.children} == {id(b) for b in buttons.values()}, "the buttons changed under the finger"
    finger_up(*point)
    assert frames_until(lambda: bool(chosen))
    assert chosen == ["22"], "the finger's press sent another answer than the one it pressed"
    assert frames_until(lambda: [b.value for b in grid.children] == ["7"]), "the new answers never came"


def test_a_box_is_changed_only_when_its_keys_change(ui_app: Any) -> None:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button

    from ui.touch.widgets.kept import Kept

    box = BoxLayout()
    made: list[object] = []

    def make(key: object) -> Button:
        made.append(key)
        return Button(text=str(key))

    kept: Kept[Button] = Kept(box, make)
    first = kept.show(["a", "b"])
    assert kept.show(["a", "b"]) == first and kept.rebuilds == 1 and made == ["a", "b"]
    second = kept.show(["b", "c"])
    assert second is not None and second[0] is first[1] and made == ["a", "b", "c"]  # b kept, c made
    assert [w.text for w in reversed(box.children)] == ["b", "c"] and kept.rebuilds == 2


def test_a_scrolled_list_waits_for_the_finger_it_holds(ui_app: Any, monkeypatch: Any) -> None:
    """A scroll view holds a still finger up to 250 ms before it presses the button under it: the answers are
    not changed under that finger either, before or after the hand-over."""
    from fixtures.views import event_deeds_view

    view = event_deeds_view()
    chosen = answers_to(ui_app, monkeypatch, view)
    grid = ui_app.screen("event").ids.choices
    scroll = grid.parent
    assert scroll.do_scroll_y
    first = {id(b) for b in grid.children}
    target = sorted(grid.children, key=lambda b: -b.to_window(b.x, b.y)[1])[1]  # a button at the top, in sight
    fewer = replace(view, event_card=replace(view.event_card, choices=view.event_card.choices[:10]))
    point = point_of(target)
    finger_down(*point)
    assert frames_until(lambda: bool(scroll._touch) or target.state == "down")  # held by the list, or handed on
    ui_app.render(fewer)
    assert {id(b) for b in grid.children} == first, "the answers changed under the finger the list held"
    assert frames_until(lambda: target.state == "down")  # the list handed the press to the button
    ui_app.render(fewer)
    assert {id(b) for b in grid.children} == first, "the answers changed under the pressed button"
    finger_up(*point)
    assert frames_until(lambda: bool(chosen))
    assert chosen == [target.value]
    assert frames_until(lambda: len(grid.children) == 10), "the new answers never came"


def test_a_kept_button_given_a_text_fitted_before_is_drawn_with_that_fit(ui_app: Any) -> None:
    """A kept button's text changes (a street's offer after a sale): when that text's fit is remembered
    (ui/touch/widgets/fitlabel.py), no property of the label changes, yet its texture must be drawn again
    with it (it kept Kivy's own line breaks of the Japanese text, 106 px high in a 96 px button)."""
    from kivy.core.window import Window
    from kivy.metrics import dp

    from ui.touch.widgets.fitlabel import FitButton

    ui_app.set_language("ja")
    sold = "Whitechapel Road\nホテル1軒 · ホテルを売る：M25"
    one = FitButton(text=sold, size_hint=(None, None), size=(158, 96), max_font_size=dp(22))
    kept = FitButton(text="Whitechapel Road\nホテル1軒 · ホテルを建てる：M50", size_hint=(None, None),
                     size=(158, 96), max_font_size=dp(22))
    try:
        Window.add_widget(one)
        Window.add_widget(kept)
        pump(3)
        kept.text = sold  # its fit is remembered from the first button
        pump(3)
        assert list(kept.texture_size) == list(one.texture_size)
        assert kept.texture_size[1] <= kept.height
    finally:
        Window.remove_widget(one)
        Window.remove_widget(kept)
        ui_app.set_language("en")
