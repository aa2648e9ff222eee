"""The mark of each colour set, so that no set is told apart by its colour alone (about one man in twelve
cannot tell the red set from the green one).

Every colour set has a short letter mark and a pattern. The marks are the same in every language and every
edition (both rulesets name their sets with the same eight colour names, ``engine/editions/board-*.toml``),
so a printed card, the touch screen and the phone page agree: ``Br``, ``LB``, ``P``, ``O``, ``R``, ``Y``,
``G``, ``DB``. They are Latin capitals on purpose: short, readable on the 7-inch screen and on paper, none
of them a prefix-look-alike of another, and the same letters the set's English name starts with.

The patterns are drawn by each surface with its own means (Kivy canvas instructions on the screen,
ReportLab on paper); their names are:

* ``checks``: a checkerboard;
* ``rings``: small open circles;
* ``horizontal``: horizontal stripes;
* ``vertical``: vertical stripes;
* ``diagonal``: stripes rising to the right (``/``);
* ``crosshatch``: both diagonals (``X``);
* ``dots``: filled dots;
* ``backdiagonal``: stripes falling to the right (``\\``).

This module needs nothing but the standard library: the phone page can send :func:`as_data` to a browser.
"""

from __future__ import annotations

from dataclasses import dataclass

PATTERNS = ("checks", "rings", "horizontal", "vertical", "diagonal", "crosshatch", "dots", "backdiagonal")
"""Every pattern name a mark may use."""


@dataclass(frozen=True, slots=True)
class SetMark:
    """A colour set's ``letters`` (one or two Latin capitals/lower-case) and ``pattern`` (one of
    :data:`PATTERNS`)."""

    letters: str
    pattern: str


MARKS: dict[str, SetMark] = {
    "brown": SetMark("Br", "checks"),
    "light_blue": SetMark("LB", "rings"),
    "pink": SetMark("P", "horizontal"),
    "orange": SetMark("O", "vertical"),
    "red": SetMark("R", "diagonal"),
    "yellow": SetMark("Y", "crosshatch"),
    "green": SetMark("G", "dots"),
    "dark_blue": SetMark("DB", "backdiagonal"),
}
"""The mark of each colour set, by the edition's colour name (``Deed.colour``)."""


def norm(name: str | None) -> str:
    """``"Light blue"`` / ``"light-blue"`` -> ``"light_blue"``."""
    return (name or "").strip().lower().replace(" ", "_").replace("-", "_")


def mark_of(colour: str | None) -> SetMark | None:
    """The mark of a colour set name, or None for a space that is no colour set (a railroad, a utility, a
    corner)."""
    return MARKS.get(norm(colour))


def as_data() -> dict[str, dict[str, str]]:
    """Every mark as plain data (for the phone page's JSON): ``{"red": {"letters": "R", "pattern":
    "diagonal"}, ...}``."""
    return {name: {"letters": m.letters, "pattern": m.pattern} for name, m in MARKS.items()}


Shape = tuple[str, tuple[float, ...]]
"""One part of a drawn pattern: ``("line", (x1, y1, x2, y2))``, ``("disc", (cx, cy, r))``, ``("ring", (cx,
cy, r))`` or ``("rect", (x, y, w, h))``, in the caller's units, origin bottom-left."""


def pattern_shapes(pattern: str, rect: tuple[float, float, float, float], step: float) -> list[Shape]:
    """The shapes drawing ``pattern`` inside ``rect`` (x, y, w, h) with one repeat every ``step`` units
    (lines and shapes are clipped to ``rect``; the caller chooses the ink and the line width). An unknown
    pattern draws nothing."""
    x0, y0, w, h = rect
    if w <= 0 or h <= 0 or step <= 0:
        return []
    shapes: list[Shape] = []
    if pattern == "horizontal":
        y = y0 + step / 2
        while y < y0 + h:
            shapes.append(("line", (x0, y, x0 + w, y)))
            y += step
    elif pattern == "vertical":
        x = x0 + step / 2
        while x < x0 + w:
            shapes.append(("line", (x, y0, x, y0 + h)))
            x += step
    elif pattern in ("diagonal", "backdiagonal", "crosshatch"):
        for rising in ((True,) if pattern == "diagonal" else (False,) if pattern == "backdiagonal"
                       else (True, False)):
            c = -h + step / 2
            while c < w:  # the line x = x0 + c + s, y = y0 + s for s in [0, h], clipped to [x0, x0 + w]
                lo, hi = max(0.0, -c), min(h, w - c)
                if hi > lo:
                    xa, xb = c + lo, c + hi
                    if not rising:
                        xa, xb = w - xa, w - xb
                    shapes.append(("line", (x0 + xa, y0 + lo, x0 + xb, y0 + hi)))
                c += step
    elif pattern in ("dots", "rings"):
        kind = "disc" if pattern == "dots" else "ring"
        r = step * (0.22 if pattern == "dots" else 0.26)
        cols, rows = max(1, int(w // step)), max(1, int(h // step))
        sx, sy = w / cols, h / rows
        for i in range(cols):
            for j in range(rows):
                shapes.append((kind, (x0 + (i + 0.5) * sx, y0 + (j + 0.5) * sy, min(r, sx / 2.5, sy / 2.5))))
    elif pattern == "checks":
        half = step / 2
        i = 0
        while i * half < w:
            j = 0
            while j * half < h:
                if (i + j) % 2 == 0:
                    shapes.append(("rect", (x0 + i * half, y0 + j * half, min(half, w - i * half),
                                            min(half, h - j * half))))
                j += 1
            i += 1
    return shapes
