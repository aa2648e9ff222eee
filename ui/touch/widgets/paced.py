"""Animations paced at the screen's frame rate, so the main loop sleeps between their frames.

Kivy's animations step every frame by default (``step=0``), and the app's clock (``KIVY_CLOCK=interrupt``,
chosen so that a reader thread's event wakes the loop at once) runs an every-frame event without waiting for
the frame: while a balance flash, the transaction line's slide or a scroll bar's fade runs, the loop ticks and
draws as fast as the CPU allows (hundreds of frames per second on a software renderer, every core busy), and a
reader thread waits for the interpreter's lock, so the taps made then reach the banker 10-50 ms late
(``bench/bench_ui.py``). An animation made here steps every :data:`FRAME_S` instead: the clock sleeps between
its frames and a reader's event still wakes it at once.

Kivy's :class:`~kivy.uix.scrollview.ScrollView` fades its bar with an animation of its own, 0.5 s after each
change of its content (the card tray's at every reaction): :class:`PacedBars` makes that fade paced too.
"""

from __future__ import annotations

from typing import Any

from kivy.animation import Animation
from kivy.metrics import dp
from kivy.uix.recycleview import RecycleView
from kivy.uix.scrollview import ScrollView

FRAME_S = 1 / 60
"""Seconds between two steps of an animation: the display's refresh (the Raspberry Pi panel's 60 Hz);
:func:`use_software_rate` halves it where the CPU draws every frame."""
SOFTWARE_FRAME_S = 1 / 30
"""The step on a software renderer (Mesa's llvmpipe): each frame costs 6-13 ms of CPU at 800x480 here, and a
fade at 30 frames a second looks the same from across a table while leaving the CPU to the taps."""


def use_software_rate(software: bool) -> float:
    """Step animations at :data:`SOFTWARE_FRAME_S` when ``software`` (the renderer draws on the CPU), else
    at the display's 60 Hz; returns the step in seconds."""
    global FRAME_S
    FRAME_S = SOFTWARE_FRAME_S if software else 1 / 60
    return FRAME_S
BAR_FADE_S = 0.5
"""Seconds a scroll bar takes to fade to its inactive colour (Kivy's own figure)."""


def animation(**properties: Any) -> Animation:
    """An :class:`~kivy.animation.Animation` of ``properties`` (and ``duration``, ``t``) stepping every
    :data:`FRAME_S` seconds unless ``step`` is given."""
    properties.setdefault("step", FRAME_S)  # read at each call: use_software_rate may have changed it
    return Animation(**properties)


SCROLL_DISTANCE = 20
"""How far (dp) a finger moves in a scroll view before it is a drag: a finger rolling a few pixels as it
presses is still a tap. Kivy's default, fixed here so that a kiosk's Kivy configuration cannot change it."""
SCROLL_TIMEOUT_MS = 250
"""How long (ms) a scroll view holds a still finger before it presses the button under it (a finger lifted
earlier presses and releases it at once). Kivy's default, fixed here likewise."""


class PacedBars:
    """Mixin for a :class:`~kivy.uix.scrollview.ScrollView` (put it first): the bar's fade steps every
    :data:`FRAME_S`. Replaces ScrollView's ``_bind_inactive_bar_color`` with the same steps and a paced
    animation (``tests/ui/test_pacing.py`` checks that Kivy still calls it). A tap and a drag are told apart
    by :data:`SCROLL_DISTANCE` and :data:`SCROLL_TIMEOUT_MS`."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("scroll_distance", dp(SCROLL_DISTANCE))
        kwargs.setdefault("scroll_timeout", SCROLL_TIMEOUT_MS)
        super().__init__(**kwargs)

    def _bind_inactive_bar_color(self, *_: Any) -> None:
        self.funbind("bar_color", self._change_bar_color)  # type: ignore[attr-defined]
        self.fbind("bar_inactive_color", self._change_bar_color)  # type: ignore[attr-defined]
        animation(_bar_color=self.bar_inactive_color, d=BAR_FADE_S, t="out_quart").start(self)  # type: ignore[attr-defined]


class PacedScrollView(PacedBars, ScrollView):
    """A :class:`~kivy.uix.scrollview.ScrollView` whose bar fades at the frame rate."""


class PacedRecycleView(PacedBars, RecycleView):
    """A :class:`~kivy.uix.recycleview.RecycleView` whose bar fades at the frame rate."""
