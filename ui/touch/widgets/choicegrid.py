"""A grid of answer buttons that fills its box, never with rows under a finger's width: with many answers
(an event card naming any deed offers 22) it scrolls instead of squeezing the buttons.

A scroll view cannot know at a finger's press whether it starts a drag: Kivy's holds the touch until it has
moved ``scroll_distance`` (a drag) or ``scroll_timeout`` has passed or the finger lifted (then it presses the
button under it). While every answer is in sight there is nothing to scroll, and :class:`ChoiceScroll` turns
its scrolling off: the button under the finger is pressed at once, as anywhere else on the screen.
"""

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
    """The box of a :class:`ChoiceGrid`: vertical scrolling only, and only while the grid is taller than the
    box (a tap on an answer in sight is never held back, see the module's note); the grid re-fitted when the
    box is resized."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("do_scroll_x", False)
        kwargs.setdefault("bar_width", dp(6))
        super().__init__(**kwargs)
        self.bind(height=self._refit)

    def add_widget(self, widget: object, *args: object, **kwargs: object) -> None:
        super().add_widget(widget, *args, **kwargs)
        if isinstance(widget, ChoiceGrid):
            widget.bind(height=self._scrolls)
            self._scrolls()

    def _scrolls(self, *_: object) -> None:
        taller = any(isinstance(c, ChoiceGrid) and c.height > self.height + 1 for c in self.children)
        if self.do_scroll_y != taller:
            self.do_scroll_y = taller
            if not taller:
                self.scroll_y = 1.0

    def _refit(self, *_: object) -> None:
        for child in self.children:
            if isinstance(child, ChoiceGrid):
                child._fit_rows()
        self._scrolls()
