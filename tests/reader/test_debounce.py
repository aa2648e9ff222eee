"""reader/debounce.py: one tap per presentation, in both modes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.debounce import DEFAULT_WINDOW_S, Debouncer

A, B = "04A22B1C", "DEADBEEF"


def test_removal_mode_counts_a_presentation_once_until_gone() -> None:
    d = Debouncer(senses_removal=True)
    assert d.seen(A, 0.0) is True
    assert d.seen(A, 0.1) is False  # a duplicate report
    assert d.seen(A, 50.0) is False  # still lying there, however long
    assert d.suppressed == 2
    assert d.gone(A, 51.0) == A
    assert d.present is None
    assert d.seen(A, 51.01) is True  # lifted and presented again, however fast


def test_removal_mode_swapped_card_and_stale_gone() -> None:
    d = Debouncer(senses_removal=True)
    d.seen(A, 0.0)
    assert d.seen(B, 0.1) is True
    assert d.gone(A, 0.2) is None  # a stale removal of the card that was swapped out
    assert d.present == B
    assert d.gone(None, 0.3) == B
    assert d.gone(None, 0.4) is None


def test_window_mode_suppresses_the_same_card_within_the_window() -> None:
    d = Debouncer(senses_removal=False, window_s=1.0)
    assert d.seen(A, 0.0) is True
    assert d.seen(A, 0.5) is False
    assert d.seen(A, 1.4) is False  # each sighting restarts the window: a card left there never repeats
    assert d.seen(A, 2.5) is True  # lifted for longer than the window: a new tap
    assert d.seen(B, 2.6) is True  # a different card always counts
    assert d.seen(A, 2.7) is True


def test_reset_forgets_the_card() -> None:
    d = Debouncer(senses_removal=True)
    d.seen(A, 0.0)
    d.reset()
    assert d.present is None
    assert d.seen(A, 0.1) is True


def test_negative_window_is_refused_with_the_value_shown() -> None:
    with pytest.raises(ValueError, match=r"-1"):
        Debouncer(senses_removal=False, window_s=-1)
    assert DEFAULT_WINDOW_S > 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([A, B]), st.floats(0, 0.9)), min_size=1, max_size=40))
def test_polling_a_card_left_on_the_reader_gives_exactly_one_tap(gaps: list[tuple[str, float]]) -> None:
    """Window mode: however a card is polled (gaps below the window), one uid run is one tap."""
    d = Debouncer(senses_removal=False, window_s=1.0)
    t, taps, runs, last = 0.0, 0, 0, None
    for uid, gap in gaps:
        t += gap
        taps += d.seen(uid, t)
        runs += uid != last
        last = uid
    assert taps == runs
