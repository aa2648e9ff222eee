"""Colour-vision simulation for the tests: what a player with one of the three common deficiencies sees of
the colour sets' swatches (PyPI ``colorspacious``), and which sets they could mistake for each other.

Two sets are *confusable* when, after the simulation at severity 100, their swatch colours are less than
:data:`CONFUSABLE_DE` apart in CAM02-UCS (ΔE); such a pair must differ by its mark (letters and pattern).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from typing import Any

DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")
CONFUSABLE_DE = 15.0
"""CAM02-UCS ΔE under which two simulated swatch colours count as the same set at a glance (side by side a
person tells about 2 apart; a deed seen alone on the board is named, not compared, so the bar is higher)."""
INK_SHARE = 0.04
"""The least share of a swatch's pixels that differ from its colour for the swatch to show a drawn mark."""


def simulate(rgb: tuple[float, float, float], deficiency: str) -> Any:
    """``rgb`` (sRGB, 0-1) as seen with ``deficiency`` at severity 100 (sRGB, 0-1)."""
    import numpy as np
    from colorspacious import cspace_convert

    space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
    return np.clip(cspace_convert(rgb, space, "sRGB1"), 0, 1)


def delta_e(a: Any, b: Any) -> float:
    """CAM02-UCS ΔE between two sRGB (0-1) colours."""
    from colorspacious import deltaE

    return float(deltaE(a, b, input_space="sRGB1", uniform_space="CAM02-UCS"))


def swatch(pixels: Any) -> tuple[tuple[float, float, float], float]:
    """The swatch's colour (its most frequent pixel, sRGB 0-1) and the share of its pixels that differ from
    it (the drawn pattern and letters). ``pixels`` is an (n, 3) uint8 array."""
    counts = Counter(map(tuple, pixels.tolist()))
    (r, g, b), _n = counts.most_common(1)[0]
    near = sum(c for p, c in counts.items() if max(abs(p[0] - r), abs(p[1] - g), abs(p[2] - b)) <= 12)
    return (r / 255, g / 255, b / 255), 1.0 - near / max(1, len(pixels))


def confusions(colours: Mapping[str, tuple[float, float, float]], marks: Mapping[str, object]) -> list[str]:
    """Every pair of sets a player with one of :data:`DEFICIENCIES` could mistake: simulated ΔE below
    :data:`CONFUSABLE_DE` and the same mark (None: no mark drawn)."""
    found = []
    for deficiency in DEFICIENCIES:
        seen = {name: simulate(rgb, deficiency) for name, rgb in colours.items()}
        for a, b in itertools.combinations(sorted(seen), 2):
            de = delta_e(seen[a], seen[b])
            if de < CONFUSABLE_DE and (marks.get(a) is None or marks.get(a) == marks.get(b)):
                found.append(f"{deficiency}: {a} and {b} (ΔE {de:.1f}, marks {marks.get(a)} / {marks.get(b)})")
    return found


def close_pairs(colours: Mapping[str, tuple[float, float, float]]) -> list[tuple[str, str, str, float]]:
    """(deficiency, a, b, ΔE) of every pair closer than :data:`CONFUSABLE_DE`, marks aside."""
    out = []
    for deficiency in DEFICIENCIES:
        seen = {name: simulate(rgb, deficiency) for name, rgb in colours.items()}
        for a, b in itertools.combinations(sorted(seen), 2):
            de = delta_e(seen[a], seen[b])
            if de < CONFUSABLE_DE:
                out.append((deficiency, a, b, de))
    return out
