"""A finger on the real window: touches delivered through the window's input as SDL delivers them.

``Window.dispatch('on_mouse_down', x, y, 'left', [])`` ... ``on_mouse_up`` is what Kivy's SDL2 window calls for
a mouse button, a touchpad's click or (through SDL's touch-to-mouse events) a finger, and Kivy's mouse provider
turns it into the touch the widgets see in the next frame's input. Unlike :func:`ui_driver.touch`, nothing here
lays the screen out first: the press lands at a random moment against the frame clock while the banker's clock
and its countdowns run, as a family's finger does; a quick tap (down and up before the next frame) is what a
light finger or a touchpad gives.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kivy.base import EventLoop


def started() -> None:
    """Make the configured input providers (the mouse among them) and the touch post-processing, and start
    the event loop, once, as ``App.run`` does (``runTouchApp``): the UI tests' app is prepared without its main
    loop, and without this a window's mouse event reaches no widget."""
    from kivy.base import _runTouchApp_prepare
    from kivy.input.providers.mouse import MouseMotionEventProvider

    if any(isinstance(p, MouseMotionEventProvider) for p in EventLoop.input_providers):
        return
    if EventLoop.status != "started":
        _runTouchApp_prepare()
        return
    mouse = MouseMotionEventProvider("mouse", "")  # the loop was started without it: add and start it alone
    EventLoop.add_input_provider(mouse, True)
    mouse.start()


def frames_for(seconds: float) -> None:
    """Run the event loop for ``seconds`` of wall time (clock callbacks, input, drawing)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        EventLoop.idle()


def frames_until(condition: Callable[[], bool], timeout: float = 3.0) -> bool:
    """Run frames until ``condition()`` holds (True) or ``timeout`` seconds passed (False)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        EventLoop.idle()
    return True


def point_of(widget: Any) -> tuple[float, float]:
    """The centre of ``widget`` as drawn now, in the window's system coordinates (SDL's: y from the top)."""
    from kivy.core.window import Window

    x, y = widget.to_window(*widget.center)
    return x, Window.system_size[1] - y


def press(x: float, y: float, hold_s: float, drift_px: float = 0.0) -> None:
    """A finger down at ``(x, y)`` (system coordinates), held ``hold_s`` seconds while it rolls by ``drift_px``
    pixels (over the first frames), then up where it rolled to. ``hold_s == 0``: down and up before the next
    frame, delivered together."""
    from kivy.core.window import Window

    started()
    Window.dispatch("on_mouse_down", x, y, "left", [])
    end = time.monotonic() + hold_s
    moves = 0
    while time.monotonic() < end:
        EventLoop.idle()
        if drift_px and moves < 3:
            moves += 1
            Window.dispatch("on_mouse_move", x + drift_px * moves / 3, y - drift_px * moves / 3, [])
    shift = drift_px if hold_s > 0 else 0.0
    Window.dispatch("on_mouse_up", x + shift, y - shift, "left", [])


def tap(widget: Any | Callable[[], Any], hold_s: float = 0.0, drift_px: float = 0.0,
        rng: random.Random | None = None) -> None:
    """After 0-100 ms of frames (a random phase against the frame clock and the banker's ticks), :func:`press`
    the centre of ``widget`` as it is drawn at that moment (a callable: the widget found then)."""
    started()
    frames_for((rng or random).uniform(0.0, 0.1))
    target = widget() if callable(widget) else widget
    assert target is not None, "nothing to tap"
    press(*point_of(target), hold_s, drift_px)


def click(widget: Any, rng: random.Random) -> None:
    """A finger's tap on ``widget`` (:func:`tap`: a random phase against the frame clock, held 0-120 ms, no
    frame pumped to lay it out first), then three frames for the reaction to be drawn."""
    assert widget is not None, "no widget to click"
    assert not widget.disabled, f"{widget} is disabled"
    tap(widget, hold_s=rng.choice((0.0, 0.05, 0.12)), rng=rng)
    for _ in range(3):
        EventLoop.idle()


@contextmanager
def clock_running(app: Any) -> Iterator[None]:
    """The banker's clock (the session's manual clock) runs with the wall clock while the block runs, as the
    kiosk's does: each read gives a later time, so every tick of a gesture under way (its timeout's seconds
    left, the auction's countdown) is a new view and renders the screen again, ten times a second, and so does
    every touch (it restarts the gesture timeout)."""
    clock = app.test_clock
    kind, base, start = type(clock), clock.now, time.monotonic()

    class Running(kind):  # type: ignore[misc, valid-type]
        def __call__(self) -> float:
            return float(base + time.monotonic() - start)

    clock.__class__ = Running
    try:
        yield
    finally:
        clock.__class__ = kind
        clock.now = base + time.monotonic() - start


def identities(widget: Any) -> set[int]:
    """The ids of every widget in ``widget``'s tree (a rebuilt button has a new one)."""
    return {id(w) for w in widget.walk(restrict=True)}


def answers_to(app: Any, monkeypatch: Any, view: Any) -> list[str]:
    """Show ``view`` (no overlay) and lay it out; the answers a finger then gives (the app's ``choose``) are
    recorded in the list returned instead of going to the banker."""
    from ui_driver import pump

    chosen: list[str] = []
    monkeypatch.setattr(app, "choose", chosen.append)
    app.overlay = None
    app.render(view)
    pump(3)
    return chosen
