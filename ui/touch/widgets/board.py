"""The board drawn as the board: the spaces in a ring in board order, corners bigger, the centre free.

:func:`ring_rects` lays out any number of spaces divisible by 4 (36 for Ultimate Banking, 40 for the
classic board): space 0 (GO) is the bottom-right corner, then the bottom row runs right to left, the left
column upwards, the top row left to right and the right column downwards, as on the printed board. Each
:class:`SpaceCell` shows its colour band (on the side facing the centre), its owner's token colour and
rent level as one large disc with the level in it, and, when the view carries them, ``houses`` (0-4),
``hotel`` and ``mortgaged`` marks (the classic game). :meth:`BoardView.show` touches only the cells whose
data changed. Touching a deed space calls ``on_deed(deed_number)``; any space calls ``on_space(position)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from engine.banker.viewmodel import SpaceView
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitLabel

MAX_LEVEL = 5
MAX_HOUSES = 4
CORNER_RATIO = 1.5
"""A corner is this many ordinary spaces long along a side."""

Rect = tuple[float, float, float, float]


def shown_level(level: int | None, owned: bool) -> int:
    """The rent level shown in the owner disc (1-5): the level of an owned deed, 0 otherwise."""
    if not owned or not level:
        return 0
    return max(0, min(MAX_LEVEL, level))


def side_of(position: int, count: int) -> str:
    """Which edge ``position`` lies on: ``corner``, ``bottom``, ``left``, ``top`` or ``right``."""
    per_side = count // 4
    if position % per_side == 0:
        return "corner"
    return ("bottom", "left", "top", "right")[position // per_side]


def ring_rects(count: int, width: float, height: float, depth_x: float, depth_y: float) -> list[Rect]:
    """(x, y, w, h) of each of ``count`` spaces in a ``width`` x ``height`` box (origin bottom-left).

    ``depth_x`` is the width of the left and right columns, ``depth_y`` the height of the top and bottom
    rows; corners are ``depth_x`` x ``depth_y``. ``count`` must be a positive multiple of 4.
    """
    if count <= 0 or count % 4:
        raise ValueError(f"a ring needs a positive multiple of 4 spaces, got {count}")
    per_side = count // 4
    inner = per_side - 1
    step_x = (width - 2 * depth_x) / inner if inner else 0.0
    step_y = (height - 2 * depth_y) / inner if inner else 0.0
    rects: list[Rect] = []
    for pos in range(count):
        side, i = divmod(pos, per_side)
        if i == 0:  # corners: GO bottom-right, then bottom-left, top-left, top-right
            x = (width - depth_x, 0.0, 0.0, width - depth_x)[side]
            y = (0.0, 0.0, height - depth_y, height - depth_y)[side]
            rects.append((x, y, depth_x, depth_y))
        elif side == 0:  # bottom row, right to left
            rects.append((width - depth_x - i * step_x, 0.0, step_x, depth_y))
        elif side == 1:  # left column, upwards
            rects.append((0.0, depth_y + (i - 1) * step_y, depth_x, step_y))
        elif side == 2:  # top row, left to right
            rects.append((depth_x + (i - 1) * step_x, height - depth_y, step_x, depth_y))
        else:  # right column, downwards
            rects.append((width - depth_x, height - depth_y - i * step_y, depth_x, step_y))
    return rects


def ring_depths(count: int, width: float, height: float) -> tuple[float, float]:
    """The column width and row height for ``count`` spaces: a corner is :data:`CORNER_RATIO` spaces."""
    inner = max(1, count // 4 - 1)
    depth_x = width / (inner + 2 * CORNER_RATIO) * CORNER_RATIO
    depth_y = height / (inner + 2 * CORNER_RATIO) * CORNER_RATIO
    return max(depth_x, dp(112)), max(depth_y, dp(60))


class CellLabel(FitLabel):
    """A label inside a space: at least 14 px; a name too long for its space ends in an ellipsis."""

    cut_ok = True  # the layout check allows the ellipsis here: the centre shows the whole name

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("min_font_size", dp(14))
        super().__init__(**kwargs)


@dataclass(frozen=True, slots=True)
class CellData:
    """What one cell shows; equal data means nothing to redraw."""

    position: int
    deed: int
    name: str
    band: palette.RGBA
    owner: palette.RGBA | None
    level: int
    houses: int
    hotel: bool
    mortgaged: bool
    selected: bool


def cell_data(space: SpaceView, name: str, owner: palette.RGBA | None, selected: bool) -> CellData:
    """A cell's data from the view's space; ``houses``/``hotel``/``mortgaged`` only if the view has them."""
    band = palette.deed_rgba(space.colour) if space.kind == "deed" else \
        palette.SPACE_KINDS.get(space.kind, palette.PANEL_LIGHT)
    houses = getattr(space, "houses", 0) or 0
    return CellData(space.position, space.deed or 0, name, band, owner,
                    shown_level(space.level, space.owner is not None),
                    max(0, min(MAX_HOUSES, int(houses))), bool(getattr(space, "hotel", False)),
                    bool(getattr(space, "mortgaged", False)), selected)


class SpaceCell(ButtonBehavior, Widget):
    """One space of the ring: the canvas is in ``ui/touch/kv/board.kv``, the parts are placed here."""

    position = NumericProperty(0)
    deed = NumericProperty(0)  # 0 = not a deed space
    name = StringProperty("")
    level = NumericProperty(0)  # the rent level in the owner disc; 0 = none shown
    houses = NumericProperty(0)
    hotel = BooleanProperty(False)
    mortgaged = BooleanProperty(False)
    owned = BooleanProperty(False)
    selected = BooleanProperty(False)
    band_color = ColorProperty(palette.PANEL_LIGHT)
    owner_color = ColorProperty((0, 0, 0, 0))
    edge = OptionProperty("bottom", options=("corner", "bottom", "left", "top", "right"))
    """Where the space lies; its colour band faces the centre."""
    band_rect = ListProperty([0.0, 0.0, 0.0, 0.0])
    disc_rect = ListProperty([0.0, 0.0, 0.0, 0.0])
    house_rect = ListProperty([0.0, 0.0, 0.0, 0.0])

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.label = CellLabel(max_font_size=dp(16), wrap=True)
        self.level_label = CellLabel(max_font_size=dp(18), bold=True)
        self.house_label = CellLabel(max_font_size=dp(16), bold=True)
        self.add_widget(self.label)  # the mark labels join only while they show something (fewer draws)
        self.bind(pos=self._arrange, size=self._arrange, owned=self._arrange, houses=self._arrange,
                  hotel=self._arrange, edge=self._arrange)

    def apply(self, data: CellData) -> None:
        """Show ``data``."""
        self.position = data.position
        self.deed = data.deed
        self.name = data.name
        self.band_color = data.band
        self.owned = data.owner is not None
        self.owner_color = data.owner if data.owner is not None else (0, 0, 0, 0)
        self.level = data.level
        self.houses = data.houses
        self.hotel = data.hotel
        self.mortgaged = data.mortgaged
        self.selected = data.selected
        self.label.text = data.name
        self.label.color = palette.MUTED if data.mortgaged else palette.TEXT
        self.level_label.text = str(data.level) if data.level else ""
        self.level_label.color = palette.text_on(self.owner_color)
        self.house_label.text = self._house_text()
        for label in (self.level_label, self.house_label):
            if label.text and label.parent is None:
                self.add_widget(label)
            elif not label.text and label.parent is not None:
                self.remove_widget(label)

    def _house_text(self) -> str:
        from kivy.app import App

        app = App.get_running_app()
        if self.hotel:
            return app.t("board.hotel_mark") if app is not None else ""
        return str(int(self.houses)) if self.houses else ""

    def _arrange(self, *_: object) -> None:
        x, y, w, h = self.x, self.y, self.width, self.height
        band = dp(14)
        pad = dp(3)
        if self.edge == "bottom":  # the band on top, facing the centre
            self.band_rect = [x, y + h - band, w, band]
            ix, iy, iw, ih = x, y, w, h - band
        elif self.edge == "top":
            self.band_rect = [x, y, w, band]
            ix, iy, iw, ih = x, y + band, w, h - band
        elif self.edge == "left":
            self.band_rect = [x + w - band, y, band, h]
            ix, iy, iw, ih = x, y, w - band, h
        elif self.edge == "right":
            self.band_rect = [x, y, band, h]
            ix, iy, iw, ih = x + band, y, w - band, h
        else:
            self.band_rect = [x, y, 0.0, 0.0]
            ix, iy, iw, ih = x, y, w, h
        marks = int(self.owned) + int(bool(self.houses) or self.hotel)
        horizontal = self.edge in ("left", "right")
        disc = max(dp(22), min(dp(30), (ih - 2 * pad) if horizontal else (ih - 2 * pad) / 2))
        if horizontal:  # the marks at the outer end, the name in the rest
            mx = ix + pad if self.edge == "left" else ix + iw - pad - marks * (disc + pad)
            my = iy + (ih - disc) / 2
            lx = ix + pad + marks * (disc + pad) if self.edge == "left" else ix + pad
            self.label.pos, self.label.size = (lx, iy), (max(1.0, iw - marks * (disc + pad) - 2 * pad), ih)
        else:  # the marks in a row under (or over) the name
            mx = ix + (iw - marks * (disc + pad) + pad) / 2
            my = iy + pad if self.edge != "top" else iy + ih - pad - disc
            ly = iy if not marks else (my + disc if self.edge != "top" else iy)
            lh = ih if not marks else ih - disc - pad
            self.label.pos, self.label.size = (ix + pad, ly), (max(1.0, iw - 2 * pad), max(1.0, lh))
        slots = []
        for _i in range(marks):
            slots.append([mx, my, disc, disc])
            mx += disc + pad
        self.disc_rect = slots.pop(0) if self.owned else [x, y, 0.0, 0.0]
        self.house_rect = slots.pop(0) if slots else [x, y, 0.0, 0.0]
        for label, rect in ((self.level_label, self.disc_rect), (self.house_label, self.house_rect)):
            label.pos, label.size = (rect[0], rect[1]), (max(1.0, rect[2]), max(1.0, rect[3]))

    def marks(self) -> list[tuple[str, float, float]]:
        """The marks drawn now, as (kind, width, height) in pixels: the legibility test reads them."""
        found: list[tuple[str, float, float]] = []
        if self.band_rect[2] and self.band_rect[3]:
            found.append(("band", self.band_rect[2], self.band_rect[3]))
        if self.owned:
            found.append(("owner", self.disc_rect[2], self.disc_rect[3]))
        if self.houses or self.hotel:
            found.append(("hotel" if self.hotel else "houses", self.house_rect[2], self.house_rect[3]))
        if self.mortgaged:
            found.append(("mortgaged", self.width, self.height))
        return found


class BoardView(FloatLayout):
    """The ring of spaces; ``inner`` is the free centre (x, y, w, h) in this widget's coordinates."""

    inner = ListProperty([0.0, 0.0, 0.0, 0.0])
    selected = NumericProperty(-1)
    """The position of the space whose details the centre shows (-1: none)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.on_deed: Callable[[int], None] | None = None
        self.on_space: Callable[[int], None] | None = None
        self._cells: list[SpaceCell] = []
        self._data: list[CellData | None] = []
        self.updates = 0  # cells redrawn since the start (the benchmark and a test read it)
        self.bind(size=self._layout, pos=self._layout)

    def show(self, spaces: Sequence[SpaceView], names: Sequence[str],
             owner_colors: Sequence[palette.RGBA | None], selected: int = -1) -> None:
        """Show ``spaces`` with display ``names`` and owner colours; ``selected`` (a position) is ringed."""
        count = len(spaces) - len(spaces) % 4
        if len(self._cells) != count:
            self._build(count)
        self.selected = selected
        for i, (cell, space, name, owner) in enumerate(zip(self._cells, spaces, names, owner_colors,
                                                           strict=False)):
            data = cell_data(space, name, owner, space.position == selected)
            if data != self._data[i]:
                cell.apply(data)
                self._data[i] = data
                self.updates += 1

    def _build(self, count: int) -> None:
        self.clear_widgets()
        self._cells = []
        self._data = [None] * count
        for pos in range(count):
            cell = SpaceCell(size_hint=(None, None), edge=side_of(pos, count))
            cell.bind(on_release=self._pressed)
            self.add_widget(cell)
            self._cells.append(cell)
        self._layout()

    def _layout(self, *_: object) -> None:
        count = len(self._cells)
        if not count:
            return
        depth_x, depth_y = ring_depths(count, self.width, self.height)
        for cell, (x, y, w, h) in zip(self._cells, ring_rects(count, self.width, self.height, depth_x, depth_y),
                                      strict=True):
            cell.pos = (self.x + x, self.y + y)
            cell.size = (w, h)
        self.inner = [depth_x, depth_y, self.width - 2 * depth_x, self.height - 2 * depth_y]

    def _pressed(self, cell: SpaceCell) -> None:
        if self.on_space is not None:
            self.on_space(int(cell.position))
        if cell.deed and self.on_deed is not None:
            self.on_deed(int(cell.deed))

    @property
    def cells(self) -> list[SpaceCell]:
        return list(self._cells)

    def cell_for_deed(self, deed: int) -> SpaceCell | None:
        """The cell of a deed number (tests touch it)."""
        for cell in self._cells:
            if cell.deed == deed:
                return cell
        return None
