"""The screens' switch: instantly, and the new screen in its place from the first frame it is drawn in.

Kivy's :class:`~kivy.uix.screenmanager.NoTransition` moves the screen it brings in to the manager's place
only when its zero-length animation completes, at the next clock tick: the frame drawn in between showed a
screen built just then at (0, 0), under the card tray's height (58 px lower than it belongs), and a finger
aimed at a button in that frame landed 58 px off (the debt screen's deeds, found by the touch-only player).
"""

from __future__ import annotations

from typing import Any

from kivy.uix.screenmanager import NoTransition


class InPlace(NoTransition):
    """:class:`~kivy.uix.screenmanager.NoTransition` that puts the incoming screen in the manager's place at
    once."""

    def start(self, manager: Any) -> None:
        super().start(manager)
        self.screen_in.pos = manager.pos
