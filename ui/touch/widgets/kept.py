"""Widgets kept across renders: a screen updates its buttons in place instead of building them again.

Every reaction re-renders the screen shown, and in a gesture with a countdown (the gesture timeout, the
auction, the classic game's clock) that is ten times a second, and once more when a finger touches the screen
(the touch restarts the timeout). A screen that cleared its box and made new buttons at each render had its
buttons replaced between a finger's press and its release, and for a frame the new ones stood where nothing
had laid them out yet (0, 0, 100 x 100): a quick tap inside a scroll view, which hands the press on only at
the release, found no button under it, and rebuilding a box ten times a second cost a Raspberry Pi's CPU for
nothing.

:class:`Kept` holds one widget per key (a choice's value, a deed's number, a line's index). Its :meth:`~Kept.show`
makes the missing ones, drops the others and lays the box out again only when the keys change; the screen then
sets the widgets' text, colour and state. While a finger is down on the box (a button pressed, or a scroll
view holding the touch before it knows whether it is a tap), the keys are not changed under it: the change
waits for the finger to lift (looked at every :data:`WAIT_S`, only while a change waits), then the ``redo``
callback renders again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from kivy.clock import Clock
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

W = TypeVar("W", bound=Widget)
WAIT_S = 0.05
"""Seconds between two looks at a box whose change waits for a finger to lift (only while one waits)."""


def finger_on(box: Widget) -> bool:
    """Whether a finger is down on ``box`` now: one of its children is pressed (``state == "down"``), or a
    scroll view around it holds a touch it has not handed on yet."""
    if any(getattr(child, "state", "normal") == "down" for child in box.children):
        return True
    parent: Any = box.parent
    while parent is not None and isinstance(parent, Widget):
        if isinstance(parent, ScrollView) and parent._touch:
            return True
        parent = parent.parent
    return False


class Kept(Generic[W]):
    """The widgets of ``box``, one per key, made by ``make(key)`` once and kept while their key is shown.

    ``redo`` is called (on the main thread, after the finger lifted) when :meth:`show` had to wait."""

    def __init__(self, box: Widget, make: Callable[[Hashable], W], redo: Callable[[], None] | None = None) -> None:
        self.box = box
        self.make = make
        self.redo = redo
        self.widgets: dict[Hashable, W] = {}
        self.keys: tuple[Hashable, ...] = ()
        self.waiting = False
        self.rebuilds = 0  # times the box's children were changed (tests count them)

    def show(self, keys: Sequence[Hashable]) -> list[W] | None:
        """The widgets of ``keys`` in order, the box holding exactly them; None when the keys changed while a
        finger is down on the box (nothing is changed then; ``redo`` comes when it lifts)."""
        keys = tuple(keys)
        if keys == self.keys and len(self.box.children) == len(keys):
            return [self.widgets[key] for key in keys]
        if finger_on(self.box):
            self._wait()
            return None
        for key in [k for k in self.widgets if k not in keys]:
            del self.widgets[key]
        shown = []
        for key in keys:
            widget = self.widgets.get(key)
            if widget is None:
                widget = self.widgets[key] = self.make(key)
            shown.append(widget)
        self.box.clear_widgets()
        for widget in shown:
            self.box.add_widget(widget)
        self.keys = keys
        self.rebuilds += 1
        return shown

    def _wait(self) -> None:
        if self.waiting:
            return
        self.waiting = True
        Clock.schedule_once(self._again, WAIT_S)

    def _again(self, *_: Any) -> None:
        if finger_on(self.box):  # still down (or its button's release shown for Kivy's min_state_time)
            Clock.schedule_once(self._again, WAIT_S)
            return
        self.waiting = False
        if self.redo is not None:
            self.redo()
