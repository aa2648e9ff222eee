"""Driving the real Kivy window in tests: frames, real touches and screenshots (one window per process)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.tests.common import UnitTestTouch

SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
"""Where the UI tests write screenshots (gitignored)."""
SIZE = (800, 480)
"""The window size of the UI tests: the smallest screen the UI supports."""


def pump(frames: int = 2) -> None:
    """Run the event loop for ``frames`` frames (clock callbacks, layout, drawing)."""
    for _ in range(frames):
        EventLoop.idle()


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Run frames until ``condition()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {condition}")
        EventLoop.idle()


def touch(widget: Any) -> None:
    """A real touch down and up at the centre of ``widget`` (window coordinates)."""
    assert widget is not None, "no widget to touch"
    pump(2)  # lay out first: a widget added or moved this frame is not where it will be drawn
    assert not widget.disabled, f"{widget} is disabled"
    x, y = widget.to_window(*widget.center)
    t = UnitTestTouch(x, y)
    t.touch_down()
    pump(1)
    t.touch_up()
    pump(2)


def type_text(field: Any, text: str) -> None:
    """Focus a text field by a touch, clear it with backspaces, type ``text`` through the window's keyboard
    events and press Enter (which leaves the field)."""
    from kivy.core.window import Window

    touch(field)
    assert field.focus, f"{field} did not take the focus"
    field.cursor = (len(field.text), 0)
    for _ in range(len(field.text)):
        Window.dispatch("on_key_down", 8, 42, None, [])  # backspace
        Window.dispatch("on_key_up", 8, 42)
    assert field.text == ""
    Window.dispatch("on_textinput", text)
    pump(1)
    Window.dispatch("on_key_down", 13, 40, "\r", [])  # Enter
    Window.dispatch("on_key_up", 13, 40)
    pump(2)


def screenshot(path: Path) -> Path:
    """Save the current frame as ``path`` (Window.screenshot adds a counter: the file is renamed)."""
    from kivy.app import App
    from kivy.core.window import Window

    app: Any = App.get_running_app()
    if app is not None:
        app.settle_animations()
    pump(2)
    path.parent.mkdir(parents=True, exist_ok=True)
    stem = path.with_suffix("")
    written = Path(Window.screenshot(name=f"{stem}.png"))
    written.replace(path)
    return path
