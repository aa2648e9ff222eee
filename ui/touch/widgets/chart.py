"""A line chart of each player's wealth over the game (``ViewModel.wealth_history``).

Wealth is in the edition's money unit; the y axis runs from 0 to the highest value, each x step is one
command. Lines take the player's token colour; the legend and axis labels are made by the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.widget import Widget

from ui.touch.widgets import palette


def chart_points(series: Sequence[int], x: float, y: float, width: float, height: float,
                 top: int, steps: int) -> list[float]:
    """Flattened (x, y) points of ``series`` scaled into the box; ``top`` is the y maximum (money units)."""
    points: list[float] = []
    span = max(1, steps - 1)
    scale = height / top if top > 0 else 0.0
    for i, value in enumerate(series):
        points += [x + width * i / span, y + max(0, value) * scale]
    return points


class WealthChart(Widget):
    """Draws lines; call :meth:`show` with ``[(rgba, values), ...]``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._series: list[tuple[palette.RGBA, tuple[int, ...]]] = []
        self.bind(pos=self._redraw, size=self._redraw)

    @property
    def top_value(self) -> int:
        """The highest wealth shown (money units)."""
        return max((max(values) for _, values in self._series if values), default=0)

    def show(self, series: Sequence[tuple[palette.RGBA, Sequence[int]]]) -> None:
        """Replace the lines: one (colour, wealth after each command) per player (drawn again only when they
        change: a screen rendered again at a clock tick redraws nothing)."""
        shown = [(tuple(rgba), tuple(values)) for rgba, values in series]
        if shown == self._series:
            return
        self._series = shown  # type: ignore[assignment]
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        pad = dp(4)
        x, y = self.x + pad, self.y + pad
        w, h = max(1.0, self.width - 2 * pad), max(1.0, self.height - 2 * pad)
        top = self.top_value
        steps = max((len(v) for _, v in self._series), default=0)
        with self.canvas:
            Color(*palette.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            Color(*palette.MUTED[:3], 0.35)
            for i in range(5):
                gy = y + h * i / 4
                Line(points=[x, gy, x + w, gy], width=1)
            for rgba, values in self._series:
                if len(values) < 2:
                    continue
                Color(*rgba)
                Line(points=chart_points(values, x, y, w, h, top, steps), width=dp(1.6))
