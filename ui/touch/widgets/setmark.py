"""A colour set's mark on the touch screen (ui/setmarks.py): its pattern drawn with canvas instructions over
the set's colour, and its letters, so that a player who cannot tell red from green still tells the sets apart.

:func:`draw_mark` adds the instructions to any ``InstructionGroup`` (the board's squares, the tray's deed
cards); :class:`SetMarkBadge` is a small widget showing one set's mark (a screen can put it beside a deed's
name: ``SetMarkBadge(colour=space.colour, size_hint_x=None, width=dp(40))``). Sizes are pixels; the caller
passes ``dp`` values.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.widget import Widget

from ui.setmarks import SetMark, mark_of, pattern_shapes
from ui.touch.widgets import palette

LETTER_PX = 14.0
"""The font size of a mark's letters in dp (the board's smallest text; a capital is about 10 px tall)."""
PATTERN_STEP = 7.0
"""dp between two repeats of a pattern."""
PATTERN_ALPHA = 0.6
"""How strongly the pattern's ink covers the set's colour (the colour stays the larger part)."""


def ink_on(rgba: palette.RGBA) -> palette.RGBA:
    """The ink of a pattern and the letters on ``rgba``: black on a light colour, white on a dark one."""
    return palette.text_on(rgba)


@lru_cache(maxsize=64)
def letter_texture(letters: str, font_px: float) -> Any:
    """The texture of ``letters`` in bold at ``font_px`` (cached: eight sets, a few sizes)."""
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=letters, font_size=font_px, bold=True)
    label.refresh()
    return label.texture


def letters_size(letters: str, font_px: float) -> tuple[float, float]:
    """The width and height in pixels the ``letters`` take at ``font_px``."""
    tex = letter_texture(letters, font_px)
    return float(tex.width), float(tex.height)


def draw_pattern(group: InstructionGroup, mark: SetMark, rect: tuple[float, float, float, float],
                 ink: palette.RGBA, step: float | None = None) -> None:
    """Add ``mark``'s pattern inside ``rect`` (x, y, w, h pixels) in ``ink`` to ``group``."""
    step = step if step is not None else dp(PATTERN_STEP)
    group.add(Color(ink[0], ink[1], ink[2], PATTERN_ALPHA))
    width = max(1.0, dp(1))
    for kind, v in pattern_shapes(mark.pattern, rect, step):
        if kind == "line":
            group.add(Line(points=list(v), width=width))
        elif kind == "disc":
            cx, cy, r = v
            group.add(Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r), segments=10))
        elif kind == "ring":
            cx, cy, r = v
            group.add(Line(circle=(cx, cy, r), width=width))
        elif kind == "rect":
            group.add(Rectangle(pos=v[:2], size=v[2:]))


def draw_letters(group: InstructionGroup, mark: SetMark, rect: tuple[float, float, float, float],
                 ink: palette.RGBA, back: palette.RGBA, font_px: float | None = None) -> None:
    """Add ``mark``'s letters centred in ``rect`` on a small plate of ``back`` (so the pattern never crosses
    them)."""
    font_px = font_px if font_px is not None else dp(LETTER_PX)
    tex = letter_texture(mark.letters, font_px)
    x, y, w, h = rect
    tw, th = float(tex.width), float(tex.height)
    lx, ly = x + (w - tw) / 2, y + (h - th) / 2
    plate_h = min(h, font_px * 0.85)
    group.add(Color(*back))
    group.add(Rectangle(pos=(lx - dp(1), y + (h - plate_h) / 2), size=(tw + dp(2), plate_h)))
    group.add(Color(*ink))
    group.add(Rectangle(texture=tex, pos=(lx, ly), size=(tw, th)))


def draw_mark(group: InstructionGroup, colour: str | None, pattern_rect: tuple[float, float, float, float],
              letter_rect: tuple[float, float, float, float] | None, band: palette.RGBA) -> bool:
    """Add the mark of colour set ``colour`` to ``group``: its pattern over ``pattern_rect`` (filled with
    ``band`` by the caller) and its letters centred in ``letter_rect`` (None: no letters). False (nothing
    added) when ``colour`` is no colour set."""
    mark = mark_of(colour)
    if mark is None:
        return False
    ink = ink_on(band)
    draw_pattern(group, mark, pattern_rect, ink)
    if letter_rect is not None:
        draw_letters(group, mark, letter_rect, ink, band)
    return True


class SetMarkBadge(Widget):
    """One colour set's mark: its colour, pattern and letters filling the widget (``colour`` is the
    edition's colour name, ``Deed.colour``; a name that is no colour set draws nothing)."""

    colour = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._group = InstructionGroup()
        self.canvas.add(self._group)
        self.bind(pos=self._redraw, size=self._redraw, colour=self._redraw)
        self._redraw()

    def _redraw(self, *_: object) -> None:
        group = self._group
        group.clear()
        if mark_of(self.colour) is None:
            return
        band = palette.deed_rgba(self.colour)
        rect = (float(self.x), float(self.y), float(self.width), float(self.height))
        group.add(Color(*band))
        group.add(Rectangle(pos=self.pos, size=self.size))
        draw_mark(group, self.colour, rect, rect, band)


def attach_mark(widget: Widget, colour: str | None) -> None:
    """Show colour set ``colour``'s mark in a strip at ``widget``'s left edge (its colour and letters,
    drawn after the widget's own canvas, following its position and size; no pattern: docs/accessibility.md); a label's left padding makes
    room for it. Calling it again replaces the mark; a colour that is no colour set removes it. One line for
    a screen: ``attach_mark(button, space.colour)``."""
    group: InstructionGroup | None = getattr(widget, "_set_mark_group", None)
    if group is not None and getattr(widget, "_set_mark_colour", None) == (colour or ""):
        return  # the same mark: a screen's redraw on a tick draws nothing again
    if group is None:
        group = InstructionGroup()
        widget.canvas.after.add(group)
        widget._set_mark_group = group  # type: ignore[attr-defined]
        widget.bind(pos=_moved, size=_moved)  # a plain function: no closure holding the widget (a cycle kept
        # a dropped screen alive through the collector's kept heap: +15 MiB over a classic game)
    widget._set_mark_colour = colour or ""  # type: ignore[attr-defined]
    _draw_attached(widget)


def _moved(widget: Widget, _value: object) -> None:
    """The widget moved or was resized: its mark is drawn again once, before the next frame (a layout pass
    moves a tile many times; each drawing makes new canvas instructions, and a Build screen's tiles drawn at
    every step of its layout cost 14 MiB of peak memory over a classic game)."""
    trigger = getattr(widget, "_set_mark_trigger", None)
    if trigger is None:
        ref = weakref.ref(widget)
        trigger = Clock.create_trigger(lambda _dt: _redraw_ref(ref), 0)
        widget._set_mark_trigger = trigger  # type: ignore[attr-defined]
    trigger()


def _redraw_ref(ref: weakref.ref[Widget]) -> None:
    widget = ref()
    if widget is not None:
        _draw_attached(widget)


def _draw_attached(widget: Widget) -> None:
    group: InstructionGroup = widget._set_mark_group  # type: ignore[attr-defined]
    colour: str = widget._set_mark_colour  # type: ignore[attr-defined]
    group.clear()
    mark = mark_of(colour)
    if mark is None:
        return
    strip = letters_size(mark.letters, dp(LETTER_PX))[0] + dp(6)
    padding = getattr(widget, "padding", None)
    if isinstance(padding, list) and len(padding) == 4 and padding[0] < strip + dp(4):
        widget.padding = [strip + dp(4), padding[1], padding[2], padding[3]]  # type: ignore[attr-defined]
    band = palette.deed_rgba(colour)
    x, y, h = float(widget.x), float(widget.y), float(widget.height)
    group.add(Color(*band))
    group.add(Rectangle(pos=(x, y), size=(strip, h)))
    letters_h = min(h, dp(LETTER_PX) + dp(6))
    # the letters alone on a screen's tile or band: its pattern cost 11-14 MiB of peak memory over a classic
    # game on the Build screen's tiles (bench/bench_memory.py); the board, the tray and the paper draw both
    draw_letters(group, mark, (x, y + h - letters_h, strip, letters_h), ink_on(band), band)
