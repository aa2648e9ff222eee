"""The statistics of ``boardbank sim --compare``: t quantiles, means, Wilson's interval, paired differences."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.sim.stats import Z95, Interval, mean_interval, paired_difference, t95, wilson


@pytest.mark.parametrize(("df", "expected"), [(1, 12.706), (10, 2.228), (30, 2.042), (35, 2.030),
                                              (50, 2.009), (200, 1.972), (10**6, 1.960)])
def test_t_quantiles_match_the_tables_to_three_decimals(df: int, expected: float) -> None:
    assert t95(df) == pytest.approx(expected, abs=1.5e-3)


def test_no_degree_of_freedom_is_refused() -> None:
    with pytest.raises(ValueError, match="degree"):
        t95(0)


def test_a_mean_has_the_student_interval_of_known_data() -> None:
    got = mean_interval([2, 4, 4, 4, 5, 5, 7, 9])  # mean 5, s = sqrt(32 / 7)
    half = 2.365 * math.sqrt(32 / 7) / math.sqrt(8)
    assert got.value == 5
    assert got.half == pytest.approx(half, rel=1e-9)
    assert (got.low, got.high) == pytest.approx((5 - half, 5 + half))


def test_one_value_or_none_has_no_width() -> None:
    assert mean_interval([3]) == Interval(3, 3, 3)
    assert mean_interval([]) == Interval(0, 0, 0)


@pytest.mark.parametrize(("k", "n", "low", "high"), [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634),
                                                     (10, 10, 0.7225, 1.0), (30, 100, 0.2189, 0.3958)])
def test_wilson_intervals_of_known_counts(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got.value == k / n
    assert (got.low, got.high) == pytest.approx((low, high), abs=5e-4)


def test_wilson_refuses_more_successes_than_trials() -> None:
    with pytest.raises(ValueError, match="successes"):
        wilson(3, 2)


@given(st.integers(0, 500), st.integers(1, 500))
def test_a_wilson_interval_holds_its_share_within_0_and_1(k: int, n: int) -> None:
    k = min(k, n)
    got = wilson(k, n)
    assert 0.0 <= got.low <= got.value <= got.high <= 1.0


def test_the_paired_difference_of_known_pairs() -> None:
    got = paired_difference([1, 2, 3], [2, 4, 6])  # differences 1, 2, 3: mean 2, s 1
    assert got.value == 2
    assert got.half == pytest.approx(4.303 / math.sqrt(3))


@given(st.lists(st.integers(0, 1000), min_size=2, max_size=50), st.integers(-100, 100))
def test_pairing_cancels_what_both_runs_share(base: list[int], shift: int) -> None:
    """A variant that moves every game by the same amount differs by exactly that, with no width, however
    spread the games are: the games' common luck cancels."""
    got = paired_difference(base, [b + shift for b in base])
    assert got.value == pytest.approx(shift)
    assert got.half == pytest.approx(0, abs=1e-9)


def test_paired_runs_must_have_the_same_length() -> None:
    with pytest.raises(ValueError, match="equal length"):
        paired_difference([1, 2], [1])


def test_a_difference_is_clear_only_when_its_interval_excludes_zero() -> None:
    assert Interval(1, 0.5, 1.5).excludes_zero() and Interval(-1, -2, -0.1).excludes_zero()
    assert not Interval(0.2, -0.1, 0.5).excludes_zero()
    assert pytest.approx(1.96, abs=1e-3) == Z95
