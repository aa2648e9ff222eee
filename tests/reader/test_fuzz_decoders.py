"""10,000 random and damaged frames to each decoder (the full 100,000 run is bench/bench_fuzz_decoders.py)."""

from __future__ import annotations

import pytest

from firmware_sim.fuzz import DAMAGE, damage, fuzz_bridge, fuzz_pn532

pytestmark = pytest.mark.timeout(60)
N = 10_000


def test_bridge_decoder_survives_10000_fuzzed_frames_and_invents_no_tap() -> None:
    report = fuzz_bridge(N, seed=11)
    assert report.escaped == 0, report.examples[:3]
    assert report.taps_invented == 0, report.examples[:3]
    assert report.counters["checksum"] > 1000 and report.counters["syntax"] > 1000  # damage was caught
    assert report.counters["frames"] > 0  # some inputs stayed valid (damage outside the frame)


def test_pn532_decoder_survives_10000_fuzzed_frames_and_garbage_or_one_flip_invents_no_tap() -> None:
    report = fuzz_pn532(N, seed=11)
    assert report.escaped == 0, report.examples[:3]
    assert report.invented_by_damage["random"] == 0
    assert report.invented_by_damage["flip"] == 0  # an 8-bit sum catches every single-byte change
    assert report.counters["bad_checksum"] > 1000


def test_the_fuzzer_does_count_invented_taps() -> None:
    """The count can fail: two compensating byte changes pass the PN532's 8-bit sums as another card."""
    report = fuzz_pn532(4000, seed=5, kinds=("burst",))
    assert report.invented_by_damage["burst"] > 0
    assert report.taps_invented == report.invented_by_damage["burst"]


def test_damage_changes_the_frame() -> None:
    import random

    rng = random.Random(3)
    good = b"$TAP 04A22B1C*FBD4\n"
    for kind in DAMAGE:
        if kind == "splice":  # joining at the same suffix may give the frame back: harmless, not damage
            continue
        for _ in range(50):
            assert damage(rng, good, kind, b"$GONE 04A22B1C*334B\n") != good


def test_the_same_damage_fools_protocol_v1_but_not_v2() -> None:
    from firmware_sim.fuzz import fuzz_bridge_v1

    assert fuzz_bridge_v1(N, seed=11).taps_invented > 0  # the XOR-8 failure mode of the issue
    assert fuzz_bridge(N, seed=11, kinds=("bits",)).taps_invented == 0
