"""The board drawn as the board: the spaces in a ring in board order, corners bigger, the centre free.

:func:`ring_rects` lays out any number of spaces divisible by 4 (36 for Ultimate Banking, 40 for the
classic board): space 0 (GO) is the bottom-right corner, then the bottom row runs right to left, the left
column upwards, the top row left to right and the right column downwards, as on the printed board. Each
:class:`SpaceCell` shows its colour band (on the side facing the centre), its owner's token colour and
rent level as one large disc with the level in it, and, when the view carries them (the classic game),
its houses as one to four small green blocks standing on the colour band, a hotel as one red block, and a
mortgaged deed greyed and struck through (a drawn stroke, no letter: none of the four languages' letters
or digits can be misread in it); an owner without a rent level to show (the classic game) is a thin stripe
of the token's colour instead of a disc, so the square's name keeps two lines.
:meth:`BoardView.show` touches only the cells whose data changed. Touching a deed space calls
``on_deed(deed_number)``; any space calls ``on_space(position)``. When the view gives the players'
positions (:meth:`BoardView.show_tokens`), the tokens stand on their squares as discs with an initial.
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
from ui.setmarks import SetMark, mark_of
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitLabel
from ui.touch.widgets.ring import (  # noqa: F401 (the ring's geometry, re-exported for the screens and tests)
    CORNER_RATIO,
    HOUSE_GAP,
    MAX_HOUSES,
    MAX_LEVEL,
    Rect,
    house_blocks,
    ring_depths,
    ring_rects,
    shown_level,
    side_of,
)
from ui.touch.widgets.setmark import LETTER_PX, draw_mark, letters_size


class CellLabel(FitLabel):
    """A label inside a space: at least 14 px, on up to two lines a little closer than usual (the board's
    short names, engine/editions/*.toml ``[short_names]``, are written to fit)."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("min_font_size", dp(14))
        kwargs.setdefault("line_height", 0.9)
        super().__init__(**kwargs)


STRIPE = 14
"""dp across the owner's stripe, the owner mark of a space with no rent level to show (the classic game)."""


@dataclass(frozen=True, slots=True)
class CellData:
    """What one cell shows; equal data means nothing to redraw. ``mark`` is the text of the owner disc (the
    rent level, or nothing)."""

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
    mark: str = ""
    colour: str = ""
    """The colour set's name (``Deed.colour``) of a deed space, so the band shows the set's mark too."""


def cell_data(space: SpaceView, name: str, owner: palette.RGBA | None, selected: bool,
              levels: bool = True) -> CellData:
    """A cell's data from the view's space; ``houses``/``hotel``/``mortgaged`` only if the view has them.

    ``levels`` puts the rent level in the owner disc (Ultimate Banking; the classic game shows its houses
    as blocks instead); a mortgaged deed shows no text in its mark, the stroke across it says it."""
    band = palette.deed_rgba(space.colour) if space.kind == "deed" else \
        palette.SPACE_KINDS.get(space.kind, palette.PANEL_LIGHT)
    houses = max(0, min(MAX_HOUSES, int(getattr(space, "houses", 0) or 0)))
    hotel = bool(getattr(space, "hotel", False))
    mortgaged = bool(getattr(space, "mortgaged", False))
    level = shown_level(space.level, space.owner is not None) if levels else 0
    mark = "" if mortgaged else (str(level) if level else "")
    colour = (space.colour or "") if space.kind == "deed" else ""
    return CellData(space.position, space.deed or 0, name, band, owner, level, houses, hotel, mortgaged,
                    selected, mark, colour)


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
    set_colour = StringProperty("")
    """The colour set's name of a deed space (its band shows the set's pattern and letters), or ""."""
    owner_color = ColorProperty((0, 0, 0, 0))
    edge = OptionProperty("bottom", options=("corner", "bottom", "left", "top", "right"))
    """Where the space lies; its colour band faces the centre."""
    band_rect = ListProperty([0.0, 0.0, 0.0, 0.0])
    disc_rect = ListProperty([0.0, 0.0, 0.0, 0.0])
    house_rects = ListProperty([])
    letters_rect = ListProperty([0.0, 0.0, 0.0, 0.0])
    """Where the set's letters stand on the band ([x, y, w, h]; no size: none)."""
    """The house (or hotel) blocks on the band, as [x, y, w, h] lists."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        from kivy.graphics import InstructionGroup

        self.label = CellLabel(max_font_size=dp(16), wrap=True)
        self.level_label = CellLabel(max_font_size=dp(18), bold=True)
        self.add_widget(self.label)  # the disc's label joins only while it shows something (fewer draws)
        self._blocks = InstructionGroup()
        self.drawn_mark: SetMark | None = None  # the set's mark drawn on the band now (the colour-vision test)
        self.canvas.add(self._blocks)
        self.bind(pos=self._arrange, size=self._arrange, owned=self._arrange, houses=self._arrange,
                  hotel=self._arrange, edge=self._arrange)

    def apply(self, data: CellData) -> None:
        """Show ``data``."""
        self.position = data.position
        self.deed = data.deed
        self.name = data.name
        self.band_color = data.band
        self.set_colour = data.colour
        self.owned = data.owner is not None
        self.owner_color = data.owner if data.owner is not None else (0, 0, 0, 0)
        self.level = data.level
        self.houses = data.houses
        self.hotel = data.hotel
        self.mortgaged = data.mortgaged
        self.selected = data.selected
        self.label.text = data.name
        self.label.color = palette.MUTED if data.mortgaged else palette.TEXT
        self.level_label.text = data.mark
        self.level_label.color = palette.text_on(self.owner_color)
        label = self.level_label
        if label.text and label.parent is None:
            self.add_widget(label)
        elif not label.text and label.parent is not None:
            self.remove_widget(label)
        self._arrange()

    def _arrange(self, *_: object) -> None:
        x, y, w, h = self.x, self.y, self.width, self.height
        block = dp(14)
        built = bool(self.houses) or self.hotel
        band = 2 * block + dp(HOUSE_GAP) if built and self.edge in ("left", "right") else dp(14)
        mark = mark_of(self.set_colour)
        letters_w = max(letters_size(mark.letters, dp(LETTER_PX))[0] + dp(4), dp(LETTER_PX) + dp(2)) \
            if mark is not None else 0.0
        if self.edge in ("left", "right"):  # a column: as wide as the set's letters
            band = max(band, letters_w)
        pad = dp(2)
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
        marks = int(self.owned)
        horizontal = self.edge in ("left", "right")
        disc = max(dp(22), min(dp(30), (ih - 2 * pad) if horizontal else (ih - 2 * pad) / 2))
        stripe = self.owned and not self.level_label.text  # no level to show (classic): a thin owner stripe
        if horizontal:  # the mark at the outer end, the name in the rest
            mw, mh = (dp(STRIPE), ih - 2 * pad) if stripe else (disc, disc)
            mx = ix + pad if self.edge == "left" else ix + iw - pad - marks * (mw + pad)
            my = iy + (ih - mh) / 2
            lx = ix + pad + marks * (mw + pad) if self.edge == "left" else ix + pad
            self.label.pos, self.label.size = (lx, iy), (max(1.0, iw - marks * (mw + pad) - 2 * pad), ih)
        else:  # the mark under (or over) the name
            mw, mh = (iw - 2 * pad, dp(STRIPE)) if stripe else (disc, disc)
            mx = ix + (iw - marks * (mw + pad) + pad) / 2
            my = iy + pad if self.edge != "top" else iy + ih - pad - mh
            ly = iy if not marks else (my + mh if self.edge != "top" else iy)
            lh = ih if not marks else ih - mh - pad
            self.label.pos, self.label.size = (ix + pad, ly), (max(1.0, iw - 2 * pad), max(1.0, lh))
        self.disc_rect = [mx, my, mw, mh] if self.owned else [x, y, 0.0, 0.0]
        rect = self.disc_rect
        self.level_label.pos, self.level_label.size = (rect[0], rect[1]), (max(1.0, rect[2]), max(1.0, rect[3]))
        bx, by, bw, bh = self.band_rect
        self.house_rects = [list(r) for r in house_blocks(self.edge, (bx, by, bw, bh), int(self.houses),
                                                          bool(self.hotel), block, dp(HOUSE_GAP))] \
            if self.edge != "corner" else []
        if mark is None or self.edge == "corner":
            self.letters_rect = [bx, by, 0.0, 0.0]
        elif self.edge in ("left", "right"):  # the letters at the column's top end
            self.letters_rect = [bx, by + bh - min(bh, dp(LETTER_PX) + dp(4)), bw, min(bh, dp(LETTER_PX) + dp(4))]
        else:  # the letters at the row's left end
            self.letters_rect = [bx, by, min(bw, letters_w), bh]
        self._draw_blocks()

    def _draw_blocks(self) -> None:
        """The set's pattern and letters on the band, then the house or hotel blocks, outlined so that they
        stand out from any band colour."""
        from kivy.graphics import Color, Line, Rectangle

        group = self._blocks
        group.clear()
        bx, by, bw, bh = self.band_rect
        lx, ly, lw, lh = self.letters_rect
        self.drawn_mark = mark_of(self.set_colour) if bw and bh and draw_mark(
            group, self.set_colour, (bx, by, bw, bh), (lx, ly, lw, lh) if lw and lh else None,
            tuple(self.band_color)) else None  # type: ignore[arg-type]
        if not self.house_rects:
            return
        fill = palette.HOTEL if self.hotel else palette.HOUSE
        for x, y, w, h in self.house_rects:
            group.add(Color(*fill))
            group.add(Rectangle(pos=(x, y), size=(w, h)))
            group.add(Color(*palette.BACKGROUND))
            group.add(Line(rectangle=(x, y, w, h), width=1))

    def marks(self) -> list[tuple[str, float, float]]:
        """The marks drawn now, as (kind, width, height) in pixels: the legibility test reads them."""
        found: list[tuple[str, float, float]] = []
        if self.band_rect[2] and self.band_rect[3]:
            found.append(("band", self.band_rect[2], self.band_rect[3]))
        if self.owned:
            found.append(("owner", self.disc_rect[2], self.disc_rect[3]))
        if self.letters_rect[2] and self.letters_rect[3]:
            found.append(("letters", self.letters_rect[2], self.letters_rect[3]))
        for _x, _y, w, h in self.house_rects:
            found.append(("hotel" if self.hotel else "houses", w, h))
        if self.mortgaged:
            found.append(("mortgaged", self.width, self.height))
        return found


class TokenDot(FitLabel):
    """A player's token on the board: a disc of the token's colour with the player's initial."""

    disc_color = ColorProperty((0, 0, 0, 0))

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("max_font_size", dp(14))
        kwargs.setdefault("min_font_size", dp(14))
        kwargs.setdefault("bold", True)
        super().__init__(**kwargs)


TOKEN_SIZE = 22
"""dp across a token's disc."""


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
        self._tokens: list[TokenDot] = []
        self._token_data: tuple[tuple[int, palette.RGBA, str], ...] = ()
        self.updates = 0  # cells redrawn since the start (the benchmark and a test read it)
        self.bind(size=self._layout, pos=self._layout)

    def show(self, spaces: Sequence[SpaceView], names: Sequence[str],
             owner_colors: Sequence[palette.RGBA | None], selected: int = -1, levels: bool = True,
) -> None:
        """Show ``spaces`` with display ``names`` and owner colours; ``selected`` (a position) is ringed.
        ``levels``: the owner disc shows the rent level."""
        count = len(spaces) - len(spaces) % 4
        if len(self._cells) != count:
            self._build(count)
        self.selected = selected
        for i, (cell, space, name, owner) in enumerate(zip(self._cells, spaces, names, owner_colors,
                                                           strict=False)):
            data = cell_data(space, name, owner, space.position == selected, levels)
            if data != self._data[i]:
                cell.apply(data)
                self._data[i] = data
                self.updates += 1

    def show_tokens(self, tokens: Sequence[tuple[int, palette.RGBA, str]]) -> None:
        """Stand each token on its square: ``(position, colour, initial)``; an empty list shows none."""
        data = tuple(tokens)
        if data == self._token_data:
            return
        self._token_data = data
        while len(self._tokens) < len(data):
            self._tokens.append(TokenDot())
        for dot in self._tokens[len(data):]:
            if dot.parent is not None:
                self.remove_widget(dot)
        for dot, (_position, rgba, initial) in zip(self._tokens, data, strict=False):
            dot.disc_color, dot.text, dot.color = rgba, initial, palette.text_on(rgba)
            if dot.parent is None:
                self.add_widget(dot)
        self._place_tokens()

    def _place_tokens(self) -> None:
        """Tokens sharing a square stand side by side along its inner edge."""
        size = dp(TOKEN_SIZE)
        shown: dict[int, int] = {}
        for dot, (position, _rgba, _initial) in zip(self._tokens, self._token_data, strict=False):
            if not 0 <= position < len(self._cells):
                dot.size_hint, dot.size, dot.pos = (None, None), (size, size), (self.x, self.y)
                continue
            cell = self._cells[position]
            n = shown.get(position, 0)
            shown[position] = n + 1
            per_row = max(1, int(cell.width // (size * 0.75)))
            row, col = divmod(n, per_row)
            x = cell.x + min(cell.width - size, col * size * 0.75)
            y = cell.top - size - min(cell.height - size, row * size * 0.6)
            dot.size_hint, dot.size, dot.pos = (None, None), (size, size), (x, y)

    def _build(self, count: int) -> None:
        self.clear_widgets()
        self._tokens = []
        self._token_data = ()
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
        if self._token_data:
            self._place_tokens()

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
