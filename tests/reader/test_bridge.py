"""serial:// driver against the simulated bridge: each fault gives its documented behaviour."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Sink, wait_for

from firmware_sim.bridge import BridgeDevice
from reader import open_reader
from reader.base import ReaderError
from reader.bridge import RESYNC_S, SILENCE_S, BridgeReader, parse_serial_url
from reader.events import CardPresented, CardRemoved, ReaderConnected, ReaderLost
from reader.protocol import encode

pytestmark = pytest.mark.timeout(30)

A, B = "04A22B1C", "DEADBEEF"


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[BridgeDevice, BridgeReader, Sink]]:
    device = BridgeDevice(link=str(tmp_path / "ttyBRIDGE"), seed=7)
    device.start()
    reader = open_reader(f"serial://{device.path}?baud=115200")
    assert isinstance(reader, BridgeReader)
    sink = Sink()
    reader.start(sink)
    try:
        sink.wait_count(ReaderConnected, 1)
        yield device, reader, sink
    finally:
        reader.stop()
        device.stop()


def test_url_parsing() -> None:
    assert parse_serial_url("serial:///dev/ttyACM0?baud=9600") == ("/dev/ttyACM0", 9600)
    assert parse_serial_url("serial:///dev/ttyACM0") == ("/dev/ttyACM0", 115200)
    for bad, shown in [("serial://", "serial://"), ("serial:///dev/x?baud=fast", "fast"),
                       ("serial:///dev/x?parity=E", "parity")]:
        with pytest.raises(ReaderError, match=shown):
            parse_serial_url(bad)


def test_connected_event_carries_the_firmware_version(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    _device, reader, sink = rig
    connected = sink.of(ReaderConnected)[0]
    assert isinstance(connected, ReaderConnected)
    assert connected.info == "bridge fw 2.0.0+sim protocol 2" == reader.device_info
    assert reader.connected


def test_heartbeats_are_answered(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, reader, _sink = rig
    wait_for(lambda: device.counters["fw_frames_in"] >= 4, 3.0, "four frames (PINGs) at the device")
    assert reader.stats["pings"] >= 3
    assert reader.stats.get("checksum", 0) == 0


def test_garbage_is_counted_and_dropped(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    device.garbage(300)
    device.tap(A)
    sink.wait_count(CardPresented, 1)
    dropped = sum(reader.stats.get(k, 0) for k in ("junk_bytes", "overlong", "syntax", "checksum", "args"))
    assert dropped > 0
    assert sink.taps() == [A]
    assert sink.of(ReaderLost) == []


def test_a_damaged_tap_is_dropped_then_repeated_until_acknowledged(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    device.badsum()
    device.tap(A)  # this TAP goes out damaged: dropped, never a tap; the device sends it again
    wait_for(lambda: reader.stats.get("checksum", 0) == 1, 3.0, "the bad CRC to be counted")
    sink.wait_count(CardPresented, 1, timeout=1.0)
    wait_for(lambda: device.app.unacked is None, 1.0, "the host's ACK of the repeated TAP")
    assert device.app.counters["repeats"] >= 1 and device.app.counters["acks"] == 1
    sink.quiet(0.4)  # acknowledged: no more repeats, and the repeat was not a second tap
    assert sink.taps() == [A]
    assert reader.stats["acks"] >= 1


def test_an_unacknowledged_tap_repeats_but_is_one_tap(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, _reader, sink = rig
    device.stall(300)  # the host's ACKs are lost while the device is deaf; its repeats are held
    device.tap(A)
    sink.wait_count(CardPresented, 1, timeout=2.0)
    wait_for(lambda: device.app.unacked is None, 2.0, "an ACK after the stall")
    sink.quiet(0.3)
    assert sink.taps() == [A]


def test_dup_is_one_tap(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    device.tap(A)
    device.dup()
    device.dup()
    wait_for(lambda: reader.stats["duplicates"] == 2, 3.0, "two duplicates suppressed")
    assert sink.taps() == [A]
    device.remove()
    device.dup()  # a duplicate GONE
    sink.wait_count(CardRemoved, 1)
    wait_for(lambda: reader.stats.get("stale_gone", 0) == 1, 3.0, "the duplicate GONE ignored")
    assert len(sink.of(CardRemoved)) == 1


def test_a_short_stall_is_not_a_loss(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, _reader, sink = rig
    device.stall(300)
    device.tap(A)  # held by the stalled device, delivered afterwards
    sink.wait_count(CardPresented, 1)
    sink.quiet(0.3)
    assert sink.of(ReaderLost) == []


def test_a_long_stall_is_lost_within_a_second_and_then_resumes(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    stalled_at = time.monotonic()
    device.stall(1500)
    sink.wait_count(ReaderLost, 1, timeout=2.0)
    assert sink.arrivals[-1] - stalled_at <= 1.0
    lost = sink.of(ReaderLost)[0]
    assert isinstance(lost, ReaderLost) and "silent" in lost.reason
    sink.wait_count(ReaderConnected, 2, timeout=4.0)
    device.tap(B)
    sink.wait_count(CardPresented, 1)
    assert sink.taps() == [B]
    assert reader.stats["reconnects"] >= 1
    assert SILENCE_S < 1.0


def test_unplug_with_a_card_on_and_replug(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    """Documented: a card lying on the reader across a replug is the same presentation, not a new tap."""
    device, reader, sink = rig
    device.tap(A)
    sink.wait_count(CardPresented, 1)
    t0 = time.monotonic()
    device.unplug()
    sink.wait_count(ReaderLost, 1, timeout=1.5)
    assert sink.arrivals[-1] - t0 <= 1.0
    device.replug()
    sink.wait_count(ReaderConnected, 2)
    wait_for(lambda: reader.stats.get("carried_over", 0) >= 1, 3.0, "the state report after HELLO")
    assert sink.taps() == [A]
    device.remove()
    sink.wait_count(CardRemoved, 1)
    device.tap(A)
    sink.wait_count(CardPresented, 2)


def test_a_card_swapped_during_an_outage(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, _reader, sink = rig
    device.tap(A)
    sink.wait_count(CardPresented, 1)
    device.unplug()
    sink.wait_count(ReaderLost, 1, timeout=1.5)
    device.remove()
    device.tap(B)
    device.replug()
    sink.wait_count(CardPresented, 2)
    removed = sink.of(CardRemoved)
    assert [e.uid for e in removed if isinstance(e, CardRemoved)] == [A]
    assert sink.taps() == [A, B]


def test_a_card_lifted_during_an_outage_counts_again(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, _reader, sink = rig
    device.tap(A)
    sink.wait_count(CardPresented, 1)
    device.unplug()
    sink.wait_count(ReaderLost, 1, timeout=1.5)
    device.remove()
    device.replug()
    sink.wait_count(ReaderConnected, 2)
    sink.wait_count(CardRemoved, 1)  # known once the device's first frame after HELLO is not the card
    device.tap(A)
    sink.wait_count(CardPresented, 2)
    assert sink.taps() == [A, A]


def test_a_card_put_back_at_once_after_the_hello_counts_again(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    """A card lifted while the bridge was unplugged and put back within one heartbeat (HEARTBEAT_S) of
    ReaderConnected is a new presentation: the device's EMPTY after HELLO said the reader was bare
    (hardware/protocol.md, card state after HELLO). Before EMPTY, its TAP passed for the state report."""
    device, _reader, sink = rig
    device.tap(A)
    sink.wait_count(CardPresented, 1)
    device.unplug()
    sink.wait_count(ReaderLost, 1, timeout=1.5)
    device.remove()
    device.replug()
    sink.wait_count(ReaderConnected, 2)
    device.tap(A)  # at once: well within the first heartbeat after the HELLO
    sink.wait_count(CardPresented, 2)
    assert sink.taps() == [A, A]
    assert [e.uid for e in sink.of(CardRemoved) if isinstance(e, CardRemoved)] == [A]


def test_the_state_report_decides_before_any_later_tap() -> None:
    """Frame by frame: HELLO + EMPTY, then the card's TAP a moment later: removed, then presented again;
    HELLO + TAP of the same card: the same presentation."""
    now = [0.0]
    reader = BridgeReader("serial:///dev/null", clock=lambda: now[0])
    sink = Sink()
    reader._sink = sink
    hello = encode("HELLO", "bridge", 2, "2.0.0")
    reader.on_data(hello + encode("EMPTY"))
    reader.on_data(encode("TAP", A))
    reader.on_close("unplugged")
    now[0] = 5.0
    reader.on_data(hello + encode("EMPTY"))
    now[0] = 5.05  # put back within the heartbeat
    reader.on_data(encode("TAP", A))
    assert sink.taps() == [A, A]
    reader.on_close("unplugged")
    now[0] = 9.0
    reader.on_data(hello + encode("TAP", A))
    assert sink.taps() == [A, A] and reader.stats["carried_over"] == 1


def test_a_device_that_appears_later_is_connected(tmp_path: Path) -> None:
    link = str(tmp_path / "later")
    reader = open_reader(f"serial://{link}")
    sink = Sink()
    reader.start(sink)
    try:
        lost = sink.wait_count(ReaderLost, 1, timeout=0.5)  # at once: the port cannot be opened
        assert isinstance(lost[0], ReaderLost) and "cannot open" in lost[0].reason and link in lost[0].reason
        sink.quiet(0.3)  # one ReaderLost per outage, not one per attempt to open
        assert not os.path.exists(link)
        with BridgeDevice(link=link) as device:
            sink.wait_count(ReaderConnected, 1, timeout=3.0)
            device.tap(A)
            sink.wait_count(CardPresented, 1)
    finally:
        reader.stop()


def test_cues_beep_and_light(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, reader, _sink = rig
    reader.cue("ok")
    reader.cue("err")
    reader.cue("no-such-cue")
    wait_for(lambda: device.beeps == ["ok", "err"], 3.0, "two beeps")
    wait_for(lambda: device.leds[-2:] == ["green", "red"], 3.0, "green then red")


def test_device_errors_and_newer_verbs_are_counted_not_fatal(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    link = reader._link
    assert link is not None
    link.write(encode("FROB", 1))  # the firmware answers ERR 2 unknown verb FROB
    device.write(encode("BATT", 87))  # a verb from a newer firmware
    wait_for(lambda: reader.stats.get("device_errors", 0) == 1, 3.0, "the device's ERR")
    wait_for(lambda: reader.stats.get("ignored", 0) == 1, 3.0, "the unknown verb ignored")
    device.tap(A)
    sink.wait_count(CardPresented, 1)
    assert sink.of(ReaderLost) == []


def test_stop_closes_the_port(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    reader.stop()
    frames_in = device.counters["fw_frames_in"]
    sink.quiet(0.4)
    assert device.counters["fw_frames_in"] == frames_in  # no more heartbeats
    assert sink.of(ReaderLost) == []  # a deliberate stop is not a loss


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=120), max_size=8))
def test_random_bytes_through_the_driver_never_raise_and_never_tap(chunks: list[bytes]) -> None:
    """The driver's receive path, fed noise in random pieces: no exception, no CardPresented."""
    reader = BridgeReader("serial:///dev/null")
    sink = Sink()
    reader._sink = sink  # deliver without opening a port
    for chunk in chunks:
        reader.on_data(chunk)
    data = b"".join(chunks)
    for event in sink.of(CardPresented):
        assert isinstance(event, CardPresented)
        assert encode("TAP", event.uid)[:-1] in data  # only a whole valid TAP frame can make a tap


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["tap-a", "tap-b", "gone-a", "gone-b", "dup", "noise"]), max_size=30))
def test_any_report_sequence_alternates_presented_and_removed(script: list[str]) -> None:
    """Whatever the device reports (duplicates, stale GONEs, swaps), the events form clean presentations."""
    reader = BridgeReader("serial:///dev/null")
    sink = Sink()
    reader._sink = sink
    frames = {"tap-a": encode("TAP", A), "tap-b": encode("TAP", B), "gone-a": encode("GONE", A),
              "gone-b": encode("GONE", B), "noise": b"\x00$TAP 04*\n"}
    last = b""
    for step in script:
        frame = last if step == "dup" else frames[step]
        reader.on_data(frame)
        last = frame if step != "dup" else last
    on: str | None = None
    for event in sink.snapshot():
        if isinstance(event, CardPresented):
            assert on is None, f"{event.uid} presented while {on} is still on the reader"
            on = event.uid
        elif isinstance(event, CardRemoved):
            assert event.uid == on
            on = None


def test_a_lost_gone_is_repaired_by_the_periodic_resync(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    """A damaged GONE would make the next tap of that card look like a duplicate; VER? every 2 s repairs it."""
    device, reader, sink = rig
    device.tap(A)
    sink.wait_count(CardPresented, 1)
    device.badsum()
    device.remove()  # this GONE goes out damaged and is dropped
    wait_for(lambda: reader.stats.get("checksum", 0) == 1, 3.0, "the damaged GONE")
    sink.wait_count(CardRemoved, 1, timeout=RESYNC_S + 1.5)  # the next HELLO carries no TAP
    device.tap(A)
    sink.wait_count(CardPresented, 2)
    assert sink.taps() == [A, A]


def test_the_resync_does_not_double_a_card_left_on_the_reader(rig: tuple[BridgeDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    device.tap(A)
    sink.wait_count(CardPresented, 1)
    wait_for(lambda: reader.stats.get("resyncs", 0) >= 1 and reader.stats.get("carried_over", 0) >= 1,
             RESYNC_S + 1.5, "a resync with the card still on")
    assert sink.taps() == [A]
    assert sink.of(CardRemoved) == []
    assert len(sink.of(ReaderConnected)) == 1


def test_a_v1_bridge_is_refused_with_the_reason_and_never_taps() -> None:
    from v1device import V1BridgeDevice

    from reader.bridge_handshake import LEGACY_REASON

    with V1BridgeDevice() as device:
        reader = open_reader(f"serial://{device.path}")
        sink = Sink()
        reader.start(sink)
        try:
            lost = sink.wait_count(ReaderLost, 1, timeout=2.0)
            assert isinstance(lost[0], ReaderLost) and lost[0].reason == LEGACY_REASON
            device.tap(A)
            device.tap(B)
            sink.quiet(0.6)  # v1 frames decode as syntax errors: no tap, no connection, no second ReaderLost
            assert [type(e) for e in sink.snapshot()] == [ReaderLost]
            assert isinstance(reader, BridgeReader) and reader.stats["syntax"] >= 2
        finally:
            reader.stop()
