"""Layout checks on the live widget tree: labels fit their boxes, nothing is cut, siblings do not overlap."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

TOLERANCE = 1.0  # pixels of rounding


def _visible(widget: Widget) -> bool:
    w: Any = widget
    while w is not None and isinstance(w, Widget):
        if w.opacity == 0 or w.width <= 0 or w.height <= 0:
            return False
        w = w.parent
    return True


def _in_scroll(widget: Widget) -> bool:
    w: Any = widget.parent
    while w is not None and isinstance(w, Widget):
        if isinstance(w, ScrollView):
            return True
        w = w.parent
    return False


def _in_tray(widget: Widget) -> bool:
    """Inside the card tray, which stands in for the physical cards: a long name there may end in "…" (the
    card has it whole). Everywhere else, a board square's name included, a cut text is a problem."""
    w: Any = widget.parent
    while w is not None and isinstance(w, Widget):
        if type(w).__name__ == "CardTray":
            return True
        w = w.parent
    return False


def _box(widget: Widget) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def _describe(widget: Widget) -> str:
    text = getattr(widget, "text", "")
    return f"{type(widget).__name__}({text!r})" if text else type(widget).__name__


def problems(root: Widget, window_size: tuple[int, int]) -> list[str]:
    """Every label whose text does not fit or was cut, every widget out of the window, every overlap."""
    found: list[str] = []
    width, height = window_size
    for widget in root.walk(restrict=True):
        if not _visible(widget):
            continue
        scrolled = _in_scroll(widget)
        x0, y0, x1, y1 = _box(widget)
        if not scrolled and (x0 < -TOLERANCE or y0 < -TOLERANCE or x1 > width + TOLERANCE
                             or y1 > height + TOLERANCE):
            found.append(f"{_describe(widget)} is outside the window: {(x0, y0, x1, y1)}")
        if isinstance(widget, Label) and widget.text.strip():
            tw, th = widget.texture_size
            if tw > widget.width + TOLERANCE or th > widget.height + TOLERANCE:
                found.append(f"{_describe(widget)}: text {tw}x{th} does not fit {widget.width:.0f}x{widget.height:.0f}")
            if getattr(widget, "shorten", False) and hasattr(widget, "max_font_size") and not _in_tray(widget):
                found.append(f"{_describe(widget)}: text was cut (shortened) at {widget.font_size:.1f} px")
        if isinstance(widget, BoxLayout | GridLayout | StackLayout):
            kids = [k for k in widget.children if _visible(k)]
            boxes = [(k, _box(k)) for k in kids]
            for i, (a, ba) in enumerate(boxes):
                for b, bb in boxes[i + 1:]:
                    dx = min(ba[2], bb[2]) - max(ba[0], bb[0])
                    dy = min(ba[3], bb[3]) - max(ba[1], bb[1])
                    if dx > TOLERANCE and dy > TOLERANCE:
                        found.append(f"{_describe(a)} and {_describe(b)} overlap by {dx:.0f}x{dy:.0f} in "
                                     f"{_describe(widget)}")
    return found
