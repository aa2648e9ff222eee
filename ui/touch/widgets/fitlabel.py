"""Labels that always fit their box: the font shrinks (down to ``min_font_size``), then the text is cut
with an ellipsis. This is what keeps long Russian and Romanian words inside 800x480 tiles."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label

from ui.touch.fonts import CJK_FONT, UI_FONT, font_for_text
from ui.touch.widgets import cjktext, palette


class FitMixin:
    """Shrink-to-fit for a Label subclass: set ``max_font_size``; ``wrap`` allows several lines."""

    def _init_fit(self) -> None:
        self._fit_ev = Clock.create_trigger(self._fit, -1)
        for prop in ("size", "text", "max_font_size", "font_name", "wrap", "padding", "halign", "bold"):
            self.fbind(prop, self._fit_ev)  # type: ignore[attr-defined]
        self._fit_ev()

    def texture_update(self, *args: Any) -> None:
        """Draw Japanese with our line breaks, and its Latin and Cyrillic runs in Roboto (see :mod:`cjktext`)."""
        label: Any = self
        shown = _shown(label)
        if getattr(label, "_display", None) is None or label._display_for != label.text or label.markup:
            super().texture_update(*args)  # type: ignore[misc]
            return
        label._label.text = shown
        if not _mixed(label, shown):
            super().texture_update(*args)  # type: ignore[misc]
            return
        core = _mixed_core(label, shown)
        core.refresh()
        label.texture = core.texture
        label.texture_size = list(core.texture.size) if core.texture is not None else [0, 0]

    def refit(self) -> None:
        """Fit again now and redraw (after the font file behind the font name changed)."""
        self._fit()
        self.texture_update()  # type: ignore[attr-defined]

    def _fit(self, *_: Any) -> None:
        label: Any = self
        width = max(1.0, float(label.width))  # text_size includes the padding (Kivy 2.x)
        height = max(1.0, float(label.height))
        label.font_name = font_for_text(label.text)
        key = _fit_key(label, width, height)
        fitted = _FITS.pop(key, None)
        if fitted is None:
            fitted = _fit_now(label, width, height)
            if len(_FITS) >= FIT_CACHE_SIZE:
                del _FITS[next(iter(_FITS))]  # the fit used least recently goes
        _FITS[key] = fitted  # the most recently used last
        size, text_size, shorten, display = fitted
        label.font_size, label.text_size, label.shorten = size, text_size, shorten
        if shorten:
            label.shorten_from = "right"
        label._display = display
        if display is not None:
            label._display_for = label.text
            # Kivy drew the new text before this fit, its own way (Latin widths of the CJK font, its own breaks:
            # a line more than the box holds); a fit that changes no property would leave that texture shown
            label._trigger_texture()


FIT_CACHE_SIZE = 512
"""Fits remembered (:func:`_fit_now`'s answers by :func:`_fit_key`), the least recently used forgotten first: a
screen shown again, its labels laid out again, or a label given a text it had, is fitted without measuring text
(0.5-1 ms a label, ~45 ms for the classic table's 68 on this machine's CPU). An entry is about 0.5 KiB: a few
screens' labels are kept, not every balance a game showed (the memory budget, bench/bench_memory.py)."""
_FITS: dict[tuple[object, ...], tuple[float, tuple[Any, Any], bool, str | None]] = {}


def _fit_key(label: Any, width: float, height: float) -> tuple[object, ...]:
    """Everything a fit depends on: the text and its font, the box, the sizes allowed and the layout options."""
    padding = label.padding
    return (label.text, label.font_name, width, height, float(label.max_font_size), float(label.min_font_size),
            bool(label.wrap), label.halign, tuple(padding) if isinstance(padding, list | tuple) else padding,
            bool(label.bold), bool(label.italic), bool(label.markup), label.line_height, label.max_lines,
            label.strip, label.outline_width)


def _fit_now(label: Any, width: float, height: float) -> tuple[float, tuple[Any, Any], bool, str | None]:
    """Fit ``label`` in ``width`` x ``height`` by measuring its text: (font size, text_size, shortened with an
    ellipsis, Japanese laid out by us or None); the label is left in that state."""
    pad_x = _horizontal_padding(label.padding)
    size = ladder_size(float(label.max_font_size), float(label.min_font_size))
    label.shorten = False
    free = label.wrap or label.halign != "center"
    own = label.font_name == CJK_FONT and cjktext.needs_own_layout(label.text)  # Japanese: our line breaks
    label._display = None
    while True:
        label.font_size = size
        label.text_size = (width, None) if free else (None, None)
        if own:
            label._label.resolve_font_name()  # the CJK font's widths, not the previous font's, for the breaks
            display = label.text
            if label.wrap and len(label.text) > CJK_BREAKABLE:  # a short word (クリア) shrinks, unbroken
                display = cjktext.wrap(label.text, width - pad_x, lambda t: label._label.get_extents(t)[0])
            label._display, label._display_for = display, label.text
        tw, th = _measure(label)
        whole = _words_fit(label, width - pad_x)
        fits = tw <= label.width and th <= label.height and whole
        if fits or size <= label.min_font_size:
            break
        size = ladder_size(size * 0.9, float(label.min_font_size))  # a size of the ladder: fewer fonts open
    shorten = tw > label.width or th > label.height or not whole  # cut with an ellipsis, never mid-word
    text_size = (width, height) if shorten else ((width, None) if free else (None, None))
    return size, text_size, shorten, label._display


FONT_LADDER_DP: tuple[int, ...] = (14, 16, 18, 20, 24, 28, 34, 40, 48, 56, 64)
"""The font sizes (dp) a fitted label is drawn at: the largest not over its ``max_font_size``, then smaller
ones while the text does not fit. Every (font file, size) Kivy draws with is a font opened and kept by
SDL_ttf, about 180 KiB each for Roboto and 430 KiB for the Japanese font (bench/bench_memory.py): a short
ladder shared by every label keeps that to a few fonts instead of one per size a label shrank to."""


def ladder_size(at_most: float, at_least: float) -> float:
    """The largest size of :data:`FONT_LADDER_DP` (in pixels) not over ``at_most``, and not under
    ``at_least`` (``at_least`` itself when no size of the ladder lies between the two)."""
    fitting = [dp(step) for step in FONT_LADDER_DP if at_least <= dp(step) <= at_most]
    return float(max(fitting)) if fitting else float(max(at_least, min(at_most, at_least)))


def _measure(label: Any) -> tuple[float, float]:
    """The size the label's texture will have (padding included), by laying the text out without
    drawing it: the texture itself is made once, by Kivy, when the fit is done."""
    shown = _shown(label)
    if _mixed(label, shown):
        width, height = _mixed_core(label, shown).render()
        return float(width), float(height)
    core = label._label
    core.text = shown
    core.resolve_font_name()
    width, height = core.render()
    return float(width), float(height)

CJK_BREAKABLE = 6
"""CJK runs longer than this may break between any two characters; shorter ones are kept whole."""


def _mixed_core(label: Any, shown: str) -> Any:
    """A markup core label drawing ``shown`` with its Latin and Cyrillic runs in Roboto."""
    from kivy.core.text.markup import MarkupLabel
    from kivy.utils import get_hex_from_color

    options = dict(label._label.options)
    options.pop("text", None)
    core = MarkupLabel(text="", **options)
    core.usersize = label._label.usersize
    color = get_hex_from_color(label.disabled_color if label.disabled else label.color)
    core.text = cjktext.coloured_markup(shown, UI_FONT, color)
    return core


def _mixed(label: Any, shown: str) -> bool:
    """Whether ``shown`` (Japanese laid out by us) mixes in non-CJK letters: drawn by :func:`_mixed_core`."""
    return getattr(label, "_display", None) is not None and any(
        ch.isalpha() and not cjktext.is_cjk(ch) for ch in shown)


def _shown(label: Any) -> str:
    """The text as laid out: with our line breaks for Japanese (see :mod:`cjktext`), else the label's text."""
    display = getattr(label, "_display", None)
    return display if display is not None and getattr(label, "_display_for", None) == label.text else label.text


def _words_fit(label: Any, width: float) -> bool:
    """Whether no word had to be broken across lines (Japanese breaks between any two CJK characters)."""
    if not (label.wrap or label.halign != "center"):
        return True
    if getattr(label, "_display", None) is not None and label.wrap and label._display != label.text:
        return all(label._label.get_extents(line)[0] <= width + 1 for line in _shown(label).split("\n"))
    words = [w for w in label.text.split()
             if len(w) <= CJK_BREAKABLE or not any(ord(ch) >= 0x2E80 for ch in w)]
    if not words:
        return True
    return max(label._label.get_extents(w)[0] for w in set(words)) <= width


def _horizontal_padding(padding: Any) -> float:
    """Left + right padding of a Label's ``padding`` (1, 2 or 4 values)."""
    values = [float(v) for v in (padding if isinstance(padding, list | tuple) else [padding])]
    if len(values) == 4:
        return values[0] + values[2]
    return 2 * values[0]


class FitLabel(FitMixin, Label):
    """A label whose font shrinks until the text fits its size."""

    max_font_size = NumericProperty(dp(18))
    min_font_size = NumericProperty(dp(16))
    wrap = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._init_fit()


class FitButton(FitMixin, ButtonBehavior, Label):
    """A flat, rounded button whose label shrinks to fit; ``bg`` is its colour.

    It is a Label with button behaviour, not a Kivy Button: no border image is drawn under it, one draw
    call less per button (software GL pays per call)."""

    max_font_size = NumericProperty(dp(17))
    min_font_size = NumericProperty(dp(16))
    wrap = BooleanProperty(True)
    bg = ColorProperty(palette.PANEL_LIGHT)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._init_fit()
