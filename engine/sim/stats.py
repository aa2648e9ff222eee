"""Confidence intervals for the simulator's comparisons (``boardbank sim --compare``, engine/sim/compare.py).

Pure arithmetic on plain numbers: a mean with Student's t interval (mean ± t·s/√n), a proportion with Wilson's
score interval, and the paired difference of two runs played on the same seeds (the mean of the per-game
differences ± t·s_d/√n: the games' shared luck cancels, so the interval is much tighter than two independent
intervals would be). Every interval here is two-sided at 95 %. Values are in the caller's unit (turns, money
units); a proportion is a share in 0..1.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

Z95: Final = 1.959963984540054  # the normal distribution's 97.5th percentile
_T95: Final[tuple[float, ...]] = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # Student's t, 97.5th percentile, for 1..30 degrees of freedom
_T95_WIDE: Final[tuple[tuple[int, float], ...]] = ((40, 2.021), (60, 2.000), (120, 1.980))


def t95(df: int) -> float:
    """Student's t 97.5th percentile for ``df`` degrees of freedom (tables to 30, then 40/60/120, linear in
    1/df between them, the normal's beyond 120: three correct decimals)."""
    if df < 1:
        raise ValueError(f"expected at least 1 degree of freedom, got {df}")
    if df <= 30:
        return _T95[df - 1]
    points = ((30, _T95[-1]), *_T95_WIDE, (0, Z95))  # (0, z) stands for infinitely many
    for (d0, t0), (d1, t1) in itertools.pairwise(points):
        if d1 == 0 or df <= d1:
            inv1 = 0.0 if d1 == 0 else 1 / d1
            share = (1 / df - 1 / d0) / (inv1 - 1 / d0)
            return t0 + share * (t1 - t0)
    return Z95  # pragma: no cover - the loop always returns


@dataclass(frozen=True, slots=True)
class Interval:
    """A value with its 95 % interval ``low``..``high`` (the caller's unit)."""

    value: float
    low: float
    high: float

    @property
    def half(self) -> float:
        """Half the interval's width (the ``±`` of a symmetric interval)."""
        return (self.high - self.low) / 2

    def excludes_zero(self) -> bool:
        """Whether 0 lies outside the interval (the difference is clear at 95 %)."""
        return self.low > 0 or self.high < 0

    def as_dict(self) -> dict[str, float]:
        """``value``, ``low``, ``high``, rounded to 4 decimals (JSON)."""
        return {"value": round(self.value, 4), "low": round(self.low, 4), "high": round(self.high, 4)}

    @classmethod
    def from_dict(cls, data: dict[str, float]) -> Interval:
        """The inverse of :meth:`as_dict`."""
        return cls(float(data["value"]), float(data["low"]), float(data["high"]))


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` ± t·s/√n (s the sample standard deviation); one value or none: no width."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def wilson(successes: int, n: int) -> Interval:
    """The share ``successes / n`` (0..1) with Wilson's 95 % score interval (sound near 0 and 1, where the
    normal approximation is not); no trial: 0 in 0..1."""
    if not 0 <= successes <= n:
        raise ValueError(f"expected 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes == 0 else min(p, centre - half)  # exact at the ends (no rounding error)
    high = 1.0 if successes == n else max(p, centre + half)
    return Interval(p, low, high)


def paired_difference(base: Sequence[float], variant: Sequence[float]) -> Interval:
    """The mean of ``variant[i] - base[i]`` ± t·s_d/√n: game ``i`` of both was played on the same seed. For
    0/1 outcomes (a win) this is the paired difference of two proportions (in 0..1)."""
    if len(base) != len(variant):
        raise ValueError(f"expected paired runs of equal length, got {len(base)} and {len(variant)}")
    return mean_interval([v - b for b, v in zip(base, variant, strict=True)])
