"""The colour sets' marks as the phone page draws them (ui/setmarks.py): each set's letters, pattern name and
the pattern's shapes, ready for an inline SVG in the deed's swatch, so that the page tells the sets apart
without their colours, as the board, the tray and the printed deeds do.

The shapes come from :func:`ui.setmarks.pattern_shapes` over a :data:`BOX` of CSS pixels with one repeat
every :data:`STEP` pixels, turned to SVG's top-left origin. The page scales nothing: the swatch is
:data:`BOX`'s width wide and shows the middle of its height (``preserveAspectRatio="xMidYMid slice"``).
Nothing here is executed by the browser: it is a JSON data block like the page's words."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ui.setmarks import MARKS, pattern_shapes

BOX = (30.0, 60.0)
"""The pattern's box in CSS pixels (width: the swatch's; height: more than a board row is tall)."""
STEP = 8.0
"""CSS pixels between two repeats of a pattern."""
LINE = 1.5
"""The pattern's line width in CSS pixels."""


def svg_shapes(pattern: str) -> list[list[Any]]:
    """``pattern``'s shapes in :data:`BOX` with SVG's origin top-left: ``["line", x1, y1, x2, y2]``,
    ``["disc", cx, cy, r]``, ``["ring", cx, cy, r]`` or ``["rect", x, y, w, h]`` (CSS pixels, 2 decimals)."""
    w, h = BOX
    out: list[list[Any]] = []
    for kind, v in pattern_shapes(pattern, (0.0, 0.0, w, h), STEP):
        if kind == "line":
            x1, y1, x2, y2 = v
            coords = (x1, h - y1, x2, h - y2)
        elif kind in ("disc", "ring"):
            cx, cy, r = v
            coords = (cx, h - cy, r)
        else:  # rect
            x, y, rw, rh = v
            coords = (x, h - y - rh, rw, rh)
        out.append([kind, *(round(c, 2) for c in coords)])
    return out


def marks_data() -> dict[str, Any]:
    """What the page needs to draw every mark: ``{"box": [w, h], "line": px, "sets": {"red": {"letters":
    "R", "pattern": "diagonal", "shapes": [...]}, ...}}``."""
    return {"box": list(BOX), "line": LINE,
            "sets": {name: {"letters": m.letters, "pattern": m.pattern, "shapes": svg_shapes(m.pattern)}
                     for name, m in MARKS.items()}}


@lru_cache(maxsize=1)
def marks_json() -> str:
    """:func:`marks_data` as JSON safe inside the page's ``<script type="application/json">`` block."""
    return json.dumps(marks_data(), separators=(",", ":")).replace("<", "\\u003c")
