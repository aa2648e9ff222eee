"""A grid of answer buttons that fills its box, never with rows under a finger's width: with many answers
(an event card naming any deed offers 22) it scrolls instead of squeezing the buttons."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from ui.touch.widgets.paced import PacedBars

MIN_ROW = 52
"""The smallest row of answers, in dp (a touch target is at least 48 px high at 800x480)."""


class ChoiceGrid(GridLayout):
    """Put it in a :class:`ChoiceScroll`; its rows share the scroll's height, each at least :data:`MIN_ROW`."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("row_force_default", True)
        super().__init__(**kwargs)
        self.bind(children=self._fit_rows, cols=self._fit_rows, parent=self._fit_rows)

    def _fit_rows(self, *_: object) -> None:
        rows = max(1, -(-len(self.children) // max(1, self.cols or 1)))
        room = self.parent.height if self.parent is not None else 0.0
        gap = self.spacing[1] * (rows - 1)
        self.row_default_height = max(dp(MIN_ROW), (room - gap) / rows)
        self.height = self.row_default_height * rows + gap


class ChoiceScroll(PacedBars, ScrollView):
    """The box of a :class:`ChoiceGrid`: vertical scrolling only, the grid re-fitted when it is resized."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("do_scroll_x", False)
        kwargs.setdefault("bar_width", dp(6))
        super().__init__(**kwargs)
        self.bind(height=self._refit)

    def _refit(self, *_: object) -> None:
        for child in self.children:
            if isinstance(child, ChoiceGrid):
                child._fit_rows()
