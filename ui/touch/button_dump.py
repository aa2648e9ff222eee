"""A test hook: with ``$BOARDBANK_TEST_BUTTONS`` set to a file, ``boardbank run`` writes there, whenever it
changes, where every button a finger can see stands (JSON), so a test outside the process can click it with a
real pointer (xdotool under Xvfb). Nothing is written, nothing is scheduled, when the variable is unset.

The file holds ``{"screen", "state", "seq", "buttons": [...]}``; each button has its window box in pixels from
the window's top-left corner (``x``, ``y``, ``w``, ``h``, as X and SDL count), its ``text``, and what it sends
when it has it: ``trigger`` (an action), ``value`` (an answer), ``deed``, or ``card`` (a tray card's UID and
its role ``[kind, value]``). It is written to a temporary name and renamed: a reader never sees half a file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ENV = "BOARDBANK_TEST_BUTTONS"
EVERY_S = 0.05
"""Seconds between two looks at the screen (three frames at 60 Hz)."""


def install(app: Any) -> None:
    """Start writing ``$BOARDBANK_TEST_BUTTONS`` for ``app`` (nothing when the variable is unset)."""
    target = os.environ.get(ENV)
    if not target:
        return
    from kivy.clock import Clock

    last: list[str] = [""]

    def write(_dt: float) -> None:
        text = json.dumps(snapshot(app), ensure_ascii=False)
        if text != last[0]:
            last[0] = text
            temporary = Path(f"{target}.tmp")
            temporary.write_text(text, encoding="utf-8")
            temporary.replace(target)

    Clock.schedule_interval(write, EVERY_S)


def snapshot(app: Any) -> dict[str, Any]:
    """The screen, the banker's state and every enabled button drawn on the window (see the module)."""
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior

    buttons = []
    height = Window.height
    for widget in _walk(Window):
        if not isinstance(widget, ButtonBehavior) or widget.disabled or not _drawn(widget, Window):
            continue
        x0, y0, x1, y1 = _box(widget, (0, 0, Window.width, height))
        if x1 - x0 < 4 or y1 - y0 < 4:  # off the window, or scrolled out of its row
            continue
        item: dict[str, Any] = {"x": round(x0), "y": round(height - y1), "w": round(x1 - x0), "h": round(y1 - y0),
                                "text": str(getattr(widget, "text", ""))}
        for name in ("trigger", "value", "deed"):
            if getattr(widget, name, None):
                item[name] = getattr(widget, name)
        uid = getattr(widget, "card_uid", "")
        if uid and app.session is not None and app.session.registry is not None:
            item["card"] = [uid, list(app.session.registry.lookup(uid) or ())]
        buttons.append(item)
    controller = app.controller
    view = controller.view if controller is not None else None
    return {"screen": app.root.ids.sm.current if app.root is not None else "",
            "state": getattr(view, "state", ""), "seq": getattr(view, "seq", 0), "buttons": buttons}


def _box(widget: Any, window: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The widget's window box cut by the window and by every scroll or stencil view around it."""
    from kivy.uix.stencilview import StencilView
    from kivy.uix.widget import Widget

    x0, y0, x1, y1 = (*widget.to_window(widget.x, widget.y), *widget.to_window(widget.right, widget.top))
    node = widget.parent
    while isinstance(node, Widget):  # the window is its own parent: the walk stops below it
        if isinstance(node, StencilView):
            a, b = node.to_window(node.x, node.y)
            c, d = node.to_window(node.right, node.top)
            x0, y0, x1, y1 = max(x0, a), max(y0, b), min(x1, c), min(y1, d)
        node = node.parent
    return max(x0, window[0]), max(y0, window[1]), min(x1, window[2]), min(y1, window[3])


def _drawn(widget: Any, window: Any) -> bool:
    node = widget
    while node is not None and node is not window:
        if getattr(node, "opacity", 1) <= 0.05 or node.width < 2 or node.height < 2:
            return False
        node = node.parent
    return node is window


def _walk(widget: Any) -> Any:
    for child in list(widget.children):
        yield from _walk(child)
    yield widget
