"""A finger for the UI tests: touches delivered through the window's input as SDL delivers a mouse, and a
check that every touch of a drawn button acts.

:class:`Finger` calls ``Window.dispatch('on_mouse_down'/'on_mouse_move'/'on_mouse_up', x, y, 'left', [])``
(what Kivy's SDL2 window calls for each mouse event; Kivy's mouse provider makes it a touch) from the Kivy
clock at random moments, while :func:`run_frames` runs the app's real loop (``EventLoop.idle``, what the
window's main loop calls each frame). Nothing is laid out first: the finger lands wherever the button was
drawn in the frame before it. A hold is 0 s (down and up in one go), 80 ms or 300 ms, with a few pixels of
drift between down and up.

A touch *acts* when the button touched fired (``on_press`` or ``on_release``) and the app reacted (the
banker's reaction, the screen, overlay, language, focus, a card handed to the reader, or a text on the screen
changed) within :data:`ACT_FRAMES` frames of the finger's lift; a drawn, enabled button that does not act is
a dead button (:class:`DeadButton`). Only a weak reference to the button is kept, as the window keeps one: a
button dropped from the screen between down and up is as gone for the test as it is for a family.
"""

from __future__ import annotations

import random
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.scrollview import ScrollView
from kivy.uix.stencilview import StencilView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

HOLDS_S = (0.3, 0.08, 0.0)
"""How long the finger stays down (seconds); each kind of button gets them in turn, the longest first."""
ACT_FRAMES = 2
"""Frames after the finger's lift within which a touched button must have acted."""
SCROLL_HANDOVER_S = 0.25
"""Seconds a scroll view may keep a short tap before it hands it to the button inside (Kivy's scroll_timeout
of 0.2 s, then the button's own touch up): the card tray's cards act within that plus :data:`ACT_FRAMES`."""
SETTLE_FRAMES = 6
"""Frames the finger waits at most for a button to stand still before it aims (see :meth:`Finger.settle`)."""
DRIFT_PX = 3
"""Largest drift of the finger between down and up, in pixels each way."""


class DeadButton(AssertionError):
    """A drawn, enabled button was touched and did not act."""


def run_frames(frames: int = 1) -> None:
    """Run ``frames`` frames of the app's real loop (clock, input, layout, drawing)."""
    from kivy.core.window import Window

    step = getattr(Window, "_mainloop", None) or EventLoop.idle  # SDL2: idle() then the window's events
    for _ in range(frames):
        step()


def run_until(condition: Callable[[], bool], timeout: float, what: str = "") -> None:
    """Run frames until ``condition()`` holds; AssertionError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or condition}")
        run_frames(1)


def start_mouse() -> None:
    """Make sure a mouse provider listens to the window (a test app runs without ``runTouchApp``, which starts
    the providers), and the touch post-processors Kivy's loop applies are in place."""
    from kivy.input.postproc import kivy_postproc_modules
    from kivy.input.providers.mouse import MouseMotionEventProvider

    if not any(isinstance(p, MouseMotionEventProvider) for p in EventLoop.input_providers):
        provider = MouseMotionEventProvider("mouse", "")
        EventLoop.add_input_provider(provider)
        provider.start()
    for module in kivy_postproc_modules.values():
        if module not in EventLoop.postproc_modules:
            EventLoop.add_postproc_module(module)


# -- what is drawn -------------------------------------------------------------------------------------
def window_box(widget: Widget) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of ``widget`` in window coordinates."""
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _inside(box: tuple[float, float, float, float], x: float, y: float) -> bool:
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def _interactive(widget: Widget) -> bool:
    """A widget that takes a touch for itself (a disabled one swallows it too)."""
    return isinstance(widget, ButtonBehavior | TextInput) or (widget.disabled and not widget.children)


def _walk(widget: Widget) -> Iterator[Widget]:
    """The tree in touch order: a widget's children before it, the last added (drawn on top) first."""
    for child in list(widget.children):
        yield from _walk(child)
    yield widget


def targets() -> list[tuple[Widget, tuple[float, float, float, float], list[tuple[float, float, float, float]]]]:
    """The widgets that take touches, in touch order, each with its window box and the boxes of the scroll
    and stencil views that clip it."""
    from kivy.core.window import Window

    out = []
    for top in list(Window.children):
        for widget in _walk(top):
            if _interactive(widget):
                clips = [window_box(p) for p in _parents(widget) if isinstance(p, StencilView | ScrollView)]
                out.append((widget, window_box(widget), clips))
    return out


def hit(x: float, y: float, found: list[Any] | None = None) -> Widget | None:
    """The widget that takes a touch at window point (x, y): the first interactive one in touch order whose
    box (clipped by its scroll and stencil views) holds the point (``found``: :func:`targets`, if known)."""
    for widget, box, clips in targets() if found is None else found:
        if _inside(box, x, y) and all(_inside(c, x, y) for c in clips):
            return widget  # type: ignore[no-any-return]
    return None


def shown(widget: Widget) -> bool:
    """Drawn: attached to the window, opaque enough, not zero-sized, along with every parent."""
    from kivy.core.window import Window

    node: Any = widget
    while node is not None and node is not Window:
        if getattr(node, "opacity", 1) <= 0.05 or node.width < 2 or node.height < 2:
            return False
        node = node.parent
    return node is Window


def aim(widget: Widget, found: list[Any] | None = None) -> tuple[float, float] | None:
    """A window point where a touch reaches ``widget`` (its centre, else a point of a 5x5 grid on it)."""
    from kivy.core.window import Window

    found = targets() if found is None else found
    x0, y0, x1, y1 = window_box(widget)
    points = [((x0 + x1) / 2, (y0 + y1) / 2)]
    points += [(x0 + (x1 - x0) * i / 6, y0 + (y1 - y0) * j / 6) for i in range(1, 6) for j in range(1, 6)]
    for x, y in points:
        if 0 <= x < Window.width and 0 <= y < Window.height and hit(x, y, found) is widget:
            return x, y
    return None


def live_buttons() -> list[Widget]:
    """Every button drawn now, enabled, on the window and not covered: a finger can touch it."""

    found = targets()
    return [w for w, _, _ in found if isinstance(w, ButtonBehavior) and not w.disabled and shown(w)
            and aim(w, found)]


def screen_texts() -> tuple[str, ...]:
    """Every text drawn now (labels, buttons, fields), for telling whether a touch changed the screen."""
    from kivy.core.window import Window

    return tuple(str(w.text) for top in list(Window.children) for w in _walk(top)
                 if isinstance(getattr(w, "text", None), str) and shown(w))


# -- a touch -------------------------------------------------------------------------------------------
@dataclass
class Touch:
    """One touch of one button: where, how long, and what came of it."""

    kind: str
    hold: float
    fired: bool = False
    reacted: bool = False
    frames: int = -1  # frames after the lift until it acted (-1: never)


@dataclass
class Finger:
    """Touches buttons through the window's mouse events at random moments (``rng`` decides when, how long
    and how far the finger drifts); ``marker`` returns what shows the app reacted. Every touch is kept in
    :attr:`touches`; a touch that did not act raises :class:`DeadButton` (``strict``) or goes to
    :attr:`dead`."""

    rng: random.Random
    marker: Callable[[], object]
    strict: bool = True
    touches: list[Touch] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)
    hops: int = 0
    _turn: dict[str, int] = field(default_factory=dict)

    def hold_for(self, kind: str) -> float:
        """The next hold of ``kind``: each kind gets 300 ms, 80 ms and 0 ms in turn."""
        turn = self._turn.get(kind, 0)
        self._turn[kind] = turn + 1
        return HOLDS_S[turn % len(HOLDS_S)]

    def touch(self, widget: Widget, kind: str, hold: float | None = None,
              events: tuple[str, ...] = ("on_press", "on_release"), local: bool = False) -> Touch:
        """Touch ``widget`` (it must be live: drawn, enabled, not covered) and check that it acts: one of
        ``events`` (events or properties of the widget) fired and the app reacted (``local``: a choice that may
        already be in force, e.g. the trade's cash side: fired is enough)."""
        from kivy.core.window import Window

        widget = widget.__self__  # the widget itself, not a weak proxy of it (kv ids are proxies)
        self.settle(widget)
        if widget.parent is None:  # replaced while the eye found it: what a rebuild at every tick does
            self.dead.append(f"{kind}: replaced on the screen before a finger could land on it")
            if self.strict:
                raise DeadButton(f"dead button: {self.dead[-1]}")
            return Touch(kind, 0.0)
        point = aim(widget) if shown(widget) and not widget.disabled else None
        if point is None:
            box = window_box(widget)
            cover = hit((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            raise AssertionError(f"{kind}: {widget} is not a live button: shown={shown(widget)}, "
                                 f"disabled={widget.disabled}, box={box}, at its centre: {cover}")
        record = Touch(kind, self.hold_for(kind) if hold is None else hold)
        ref = weakref.ref(widget)
        fired = [0]

        def count(*_: Any) -> None:
            fired[0] += 1

        for event in events:
            widget.fbind(event, count)
        del widget  # the window holds the button by a weak reference only: so does the test
        before, texts = self.marker(), screen_texts()
        lifted = [False]
        x, y = point
        dx, dy = self.rng.randint(-DRIFT_PX, DRIFT_PX), self.rng.randint(-DRIFT_PX, DRIFT_PX)

        def sdl(event: str, px: float, py: float) -> None:  # SDL's y runs down from the top
            button = () if event == "on_mouse_move" else ("left",)
            Window.dispatch(event, px, Window.system_size[1] - py, *button, [])

        def down(_dt: float) -> None:
            sdl("on_mouse_down", x, y)
            if record.hold <= 0:
                sdl("on_mouse_up", x, y)
                lifted[0] = True
                return
            Clock.schedule_once(lambda _t: sdl("on_mouse_move", x + dx / 2, y + dy / 2), record.hold / 2)
            Clock.schedule_once(up, record.hold)

        def up(_dt: float) -> None:
            sdl("on_mouse_up", x + dx, y + dy)
            lifted[0] = True

        Clock.schedule_once(down, self.rng.uniform(0.0, 1.5 / 60))  # anywhere in the next frame or two
        run_until(lambda: lifted[0], 10.0 + record.hold, f"the finger on {kind}")
        in_scroll = any(isinstance(p, ScrollView) for p in _parents(ref()))
        deadline = time.monotonic() + (SCROLL_HANDOVER_S if in_scroll else 0.0)
        frames = 0
        while True:
            run_frames(1)
            frames += 1
            record.fired = fired[0] > 0
            record.reacted = local or self.marker() != before or screen_texts() != texts
            if record.fired and record.reacted:
                record.frames = frames
                break
            if frames >= ACT_FRAMES and time.monotonic() >= deadline:
                break
        alive = ref()
        for event in events if alive is not None else ():
            alive.funbind(event, count)
        self.touches.append(record)
        if record.frames < 0:
            what = (f"{kind}: touched for {record.hold * 1000:.0f} ms, fired={record.fired}, "
                    f"app reacted={record.reacted}, button {'gone' if alive is None else 'still there'}")
            self.dead.append(what)
            if self.strict:
                raise DeadButton(f"dead button: {what}")
        return record

    def settle(self, widget: Widget) -> None:
        """Let the eye find the button: wait until it was drawn at the same place in two frames running (at
        most :data:`SETTLE_FRAMES`). A screen's first frame may draw it where its layout has not put it yet
        (the mortgage screen's Cancel 58 px low for one frame): no finger is that quick; such hops are counted
        in :attr:`hops`."""
        boxes = [window_box(widget)]
        for _ in range(SETTLE_FRAMES):
            run_frames(1)
            if widget.parent is None:
                return
            boxes.append(window_box(widget))
            if boxes[-1] == boxes[-2]:
                break
        if len(set(boxes)) > 1:
            self.hops += 1


def _parents(widget: Widget | None) -> Iterator[Widget]:
    node = widget.parent if widget is not None else None
    while isinstance(node, Widget):
        yield node
        node = node.parent
