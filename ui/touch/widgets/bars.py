"""Stacked bars of each player's worth: cash, deeds and buildings (money units), one bar per player with
a strip of the player's token colour under it. The scale runs from 0 to the highest total."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.uix.widget import Widget

from ui.touch.widgets import palette

CASH: palette.RGBA = (0.75, 0.65, 0.95, 1.0)  # lilac
DEEDS: palette.RGBA = (0.55, 0.55, 0.25, 1.0)  # olive
BUILDINGS: palette.RGBA = (0.70, 0.50, 0.40, 1.0)  # clay
"""The parts' colours keep clear of every token colour (CIELAB distance of 30 or more from each of
``palette.TOKENS``): a legend swatch is never read as a player."""
SEGMENTS: tuple[palette.RGBA, ...] = (CASH, DEEDS, BUILDINGS)
"""The colours of the three parts of a bar, bottom to top."""


def bar_rects(values: Sequence[tuple[int, int, int]], x: float, y: float, width: float, height: float,
              gap: float) -> list[list[tuple[float, float, float, float]]]:
    """For each player's (cash, deeds, buildings), the rects of its three segments (bottom to top)."""
    count = len(values)
    if not count:
        return []
    top = max((sum(max(0, v) for v in parts) for parts in values), default=0)
    bar = max(1.0, (width - gap * (count - 1)) / count)
    scale = height / top if top > 0 else 0.0
    out = []
    for i, parts in enumerate(values):
        bx = x + i * (bar + gap)
        by = y
        rects = []
        for value in parts:
            h = max(0, value) * scale
            rects.append((bx, by, bar, h))
            by += h
        out.append(rects)
    return out


class WealthBars(Widget):
    """Call :meth:`show` with ``[(token rgba, (cash, deeds, buildings)), ...]``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._bars: list[tuple[palette.RGBA, tuple[int, int, int]]] = []
        self.bind(pos=self._redraw, size=self._redraw)

    @property
    def top_value(self) -> int:
        """The highest total shown (money units)."""
        return max((sum(parts) for _, parts in self._bars), default=0)

    def show(self, bars: Sequence[tuple[palette.RGBA, tuple[int, int, int]]]) -> None:
        """Replace the bars (drawn again only when they change)."""
        shown = [(tuple(rgba), tuple(parts)) for rgba, parts in bars]
        if shown == self._bars:
            return
        self._bars = shown  # type: ignore[assignment]
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        pad, strip = dp(4), dp(8)
        x, y = self.x + pad, self.y + pad
        w, h = max(1.0, self.width - 2 * pad), max(1.0, self.height - 2 * pad - strip - dp(2))
        count = max(1, len(self._bars))
        gap = min(dp(10), w / count / 3)
        rects = bar_rects([parts for _, parts in self._bars], x, y + strip + dp(2), w, h, gap)
        with self.canvas:
            Color(*palette.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            for (token, _), segments in zip(self._bars, rects, strict=True):
                bx, _, bw, _ = segments[0]
                Color(*token)
                Rectangle(pos=(bx, y), size=(bw, strip))
                for colour, (sx, sy, sw, sh) in zip(SEGMENTS, segments, strict=True):
                    if sh > 0:
                        Color(*colour)
                        Rectangle(pos=(sx, sy), size=(sw, sh))
