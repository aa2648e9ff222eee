"""The geometry of the board's ring (no widgets): where each space lies, how deep the rows are, which
edge a space is on, and where the classic game's house blocks stand on a space's colour band.

Sizes are pixels (the caller passes ``dp`` values); a rect is ``(x, y, w, h)`` with the origin bottom-left.
"""

from __future__ import annotations

from kivy.metrics import dp

MAX_LEVEL = 5
MAX_HOUSES = 4
CORNER_RATIO = 1.5
"""A corner is this many ordinary spaces long along a side."""
MIN_DEPTH_X = 112.0
MIN_DEPTH_Y = 62.0
"""The smallest column width and row height of the ring, in dp."""

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
    return max(depth_x, dp(MIN_DEPTH_X)), max(depth_y, dp(MIN_DEPTH_Y))


HOUSE_GAP = 2
"""dp between two house blocks."""


def house_blocks(edge: str, band: Rect, houses: int, hotel: bool, block: float, gap: float) -> list[Rect]:
    """The blocks standing on a space's colour ``band`` (x, y, w, h): ``houses`` squares of ``block`` px in
    a row (top and bottom rows) or two by two (the side columns), or one hotel two blocks long."""
    x, y, w, h = band
    if not houses and not hotel:
        return []
    if edge in ("left", "right"):  # the band is a column: blocks two by two, centred
        if hotel:
            return [(x, y + (h - block) / 2, w, block)]
        rows = (houses + 1) // 2
        size = min(block, (h - (rows - 1) * gap) / rows) if rows > 1 else block
        top = y + (h + rows * size + (rows - 1) * gap) / 2
        rects = []
        for i in range(houses):
            row, col = divmod(i, 2)
            rects.append((x + col * (block + gap), top - (row + 1) * size - row * gap, block, size))
        return rects
    if hotel:
        length = 2 * block + gap
        return [(x + (w - length) / 2, y, length, h)]
    size = min(block, (w - (houses - 1) * gap) / houses)
    start = x + (w - houses * size - (houses - 1) * gap) / 2
    return [(start + i * (size + gap), y, size, h) for i in range(houses)]
