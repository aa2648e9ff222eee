"""The touch player's finger (tests/ui/touch_player.py) on small widget trees of its own: a button that
answers acts for every hold; a grid rebuilt on every clock tick (as the Build screen's streets and the card's
choices were whenever the countdown redrew them) is reported as a dead button; hidden, disabled and covered
buttons are not offered to the finger."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from touch_player import HOLDS_S, DeadButton, Finger, live_buttons, run_frames, start_mouse

pytestmark = pytest.mark.ui


class Panel:
    """A grid of three buttons on a relative layout above the window's bottom band (as a screen sits between
    the status bar and the card tray); each release counts in :attr:`acted`; with ``rebuild`` the grid is
    cleared and refilled every 0.1 s (the app's banker tick). A button dropped while the finger is down still
    gets its lift, but in window coordinates (Kivy's loop cannot carry them into a widget that left the
    window): it misses itself unless that window point lies in its own box; the layer stands where none does,
    as the Build screen's upper tiles do in the app."""

    def __init__(self, rebuild: bool) -> None:
        from kivy.clock import Clock
        from kivy.uix.gridlayout import GridLayout
        from kivy.uix.relativelayout import RelativeLayout

        self.acted = 0
        self.layer = RelativeLayout(size_hint=(None, None), pos=(0, 200), size=(800, 150))
        self.grid = GridLayout(cols=3)
        self.layer.add_widget(self.grid)
        self.fill()
        self.event = Clock.schedule_interval(lambda _dt: self.fill(), 0.1) if rebuild else None

    def fill(self) -> None:
        from kivy.uix.button import Button

        self.grid.clear_widgets()
        for n in range(3):
            button = Button(text=f"street {n}")
            button.bind(on_release=lambda _b: self.release())
            self.grid.add_widget(button)

    def release(self) -> None:
        self.acted += 1

    def close(self) -> None:
        if self.event is not None:
            self.event.cancel()


@pytest.fixture
def panel(ui_app: Any, request: pytest.FixtureRequest) -> Iterator[Panel]:
    from kivy.core.window import Window

    start_mouse()
    made = Panel(rebuild=request.param)
    Window.add_widget(made.layer)
    run_frames(3)
    yield made
    made.close()
    Window.remove_widget(made.layer)
    run_frames(2)


@pytest.mark.parametrize("panel", [False], indirect=True)
def test_a_steady_button_acts_for_every_hold(panel: Panel) -> None:
    finger = Finger(random.Random(1), marker=lambda: panel.acted)
    for _ in range(2 * len(HOLDS_S)):
        button = live_buttons()[0]
        assert button.parent is panel.grid  # the panel is on top of the app's screen
        record = finger.touch(button, "street")
        assert 1 <= record.frames <= 2
    assert sorted({t.hold for t in finger.touches}) == sorted(HOLDS_S)
    assert panel.acted == 2 * len(HOLDS_S)


@pytest.mark.parametrize("panel", [True], indirect=True)
def test_a_button_rebuilt_on_every_tick_is_reported_dead(panel: Panel) -> None:
    """A 300 ms touch spans three rebuilds: the button under the finger at the lift never saw it go down and
    the one that did is gone (the window held it weakly): nothing happens, and the player says so."""
    import gc

    finger = Finger(random.Random(2), marker=lambda: panel.acted)
    gc.collect()
    with pytest.raises(DeadButton, match=r"dead button: street: (touched for 300 ms|replaced)"):
        finger.touch(live_buttons()[0], "street", hold=0.3)
    assert panel.acted == 0
    finger.strict = False
    for hold in (0.3, 0.3, 0.08):
        finger.touch(live_buttons()[0], "street", hold=hold)
    assert len(finger.dead) >= 3


def test_hidden_disabled_and_covered_buttons_are_not_live(ui_app: Any) -> None:
    from kivy.core.window import Window
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout

    start_mouse()
    layer = FloatLayout()
    shown_ = Button(text="shown", size_hint=(None, None), size=(100, 60), pos=(10, 10))
    hidden = Button(text="hidden", size_hint=(None, None), size=(100, 60), pos=(200, 10), opacity=0)
    disabled = Button(text="off", size_hint=(None, None), size=(100, 60), pos=(400, 10), disabled=True)
    under = Button(text="under", size_hint=(None, None), size=(100, 60), pos=(600, 10))
    over = Button(text="over", size_hint=(None, None), size=(120, 80), pos=(590, 0))
    outside = Button(text="outside", size_hint=(None, None), size=(100, 60), pos=(900, 10))
    for widget in (shown_, hidden, disabled, under, over, outside):
        layer.add_widget(widget)
    Window.add_widget(layer)
    try:
        run_frames(3)
        live = [b for b in live_buttons() if b.parent is layer]
        assert {b.text for b in live} == {"shown", "over"}
        finger = Finger(random.Random(3), marker=lambda: 0)
        with pytest.raises(AssertionError, match="not a live button"):
            finger.touch(under, "under")
    finally:
        Window.remove_widget(layer)
        run_frames(2)


def test_the_button_file_lists_the_drawn_buttons_only_when_asked(fresh_session: Any, tmp_path: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """ui/touch/button_dump.py: nothing without $BOARDBANK_TEST_BUTTONS; with it, the file names the screen
    and every enabled button drawn, its box from the window's top-left corner and what it sends."""
    from kivy.clock import Clock

    from ui.touch import button_dump

    def writers() -> list[Any]:
        return [e for e in Clock.get_events() if getattr(e.callback, "__name__", "") == "write"]

    monkeypatch.delenv(button_dump.ENV, raising=False)
    target = tmp_path / "buttons.json"
    button_dump.install(fresh_session)
    assert writers() == []
    monkeypatch.setenv(button_dump.ENV, str(target))
    button_dump.install(fresh_session)
    from touch_player import run_until

    run_until(target.exists, 5.0, "the button file")
    import json

    shot = json.loads(target.read_text(encoding="utf-8"))
    assert shot["screen"] == fresh_session.root.ids.sm.current
    menu = next(b for b in shot["buttons"] if b["text"] == fresh_session.t("nav.menu"))
    x, y = fresh_session.root.ids.menu_button.to_window(*fresh_session.root.ids.menu_button.pos)
    assert (menu["x"], menu["y"] + menu["h"]) == (round(x), round(480 - y))
    assert any(b.get("card") for b in shot["buttons"])  # the tray's cards with their roles
    for event in writers():  # the test's writer stops with the test
        event.cancel()
