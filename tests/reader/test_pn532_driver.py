"""The pn532:// driver (reader/pn532.py) against the chip simulator: faults, loss, reconnect, URLs.

The behaviour every backend shares (one tap per presentation, removal, two readers...) is in
test_suite.py; this file covers what is PN532-specific. Every wait has a deadline.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Sink, started, wait_for

from firmware_sim.pn532 import PN532Device
from reader.base import ReaderError
from reader.events import CardPresented, CardRemoved, ReaderConnected, ReaderLost
from reader.pn532 import POLL_PERIOD_S, PN532Reader

pytestmark = pytest.mark.timeout(60)

UID = "04A22B1C5D6E80"


@pytest.fixture
def device() -> Iterator[PN532Device]:
    with tempfile.TemporaryDirectory(prefix="bb-pn532-") as tmp:
        dev = PN532Device(link=os.path.join(tmp, "ttyPN532"), seed=11)
        dev.start()
        yield dev
        dev.stop()


@pytest.fixture
def running(device: PN532Device) -> Iterator[tuple[PN532Device, PN532Reader, Sink]]:
    with started(f"pn532://{device.path}", PN532Reader, 3.0) as (reader, sink):
        yield device, reader, sink


def test_connect_reports_the_firmware_and_configures_the_chip(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, reader, sink = running
    (connected,) = sink.of(ReaderConnected)
    assert isinstance(connected, ReaderConnected)
    assert connected.info.startswith("PN532 firmware 1.6")
    assert device.sam_configured and device.max_retries_passive == 0x01
    assert device.counters["wakeups"] == 1
    polls = reader.counters["polls"]
    time.sleep(0.5)
    per_second = (reader.counters["polls"] - polls) / 0.5
    assert 0.6 / POLL_PERIOD_S <= per_second <= 1.2 / POLL_PERIOD_S, f"{per_second} polls/s"


def test_garbage_never_raises_nor_taps(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, reader, sink = running
    for _ in range(10):
        device.garbage(300)
        time.sleep(0.03)
    sink.quiet(0.3)
    assert sink.taps() == [] and sink.of(ReaderLost) == []
    assert reader.link is not None
    assert reader.link.decoder.counters["garbage"] > 0
    device.tap(UID)
    sink.wait_count(CardPresented, 1, 2.0)
    assert sink.taps() == [UID]


def test_a_damaged_response_is_asked_for_again_with_a_nack(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, reader, sink = running
    assert reader.link is not None
    link = reader.link
    for n in (1, 2, 3):
        device.badsum()
        wait_for(lambda n=n: link.counters["nacks_sent"] >= n, 2.0, f"NACK number {n}")  # type: ignore[misc]
    wait_for(lambda: device.counters["nacks_in"] == 3, 1.0, "the chip to receive the third NACK")  # crosses the pty
    assert device.counters["badsums"] == 3
    assert link.decoder.counters["bad_checksum"] == 3
    device.tap(UID)
    sink.wait_count(CardPresented, 1, 2.0)
    assert sink.taps() == [UID] and sink.of(ReaderLost) == []


def test_noise_while_a_card_lies_on_the_reader_is_still_one_tap(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, _reader, sink = running
    device.tap(UID)
    sink.wait_count(CardPresented, 1, 2.0)
    for _ in range(8):
        device.garbage(64)
        device.dup()
        device.badsum()
        time.sleep(0.04)
    sink.quiet(0.3)
    assert sink.taps() == [UID] and sink.of(CardRemoved) == []


def test_a_short_stall_is_not_a_loss(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, _reader, sink = running
    device.stall(250)
    sink.quiet(0.6)
    device.tap(UID)
    sink.wait_count(CardPresented, 1, 2.0)
    assert sink.of(ReaderLost) == []


def test_a_long_stall_is_lost_within_a_second_then_reconnects(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, _reader, sink = running
    device.tap(UID)
    sink.wait_count(CardPresented, 1, 2.0)
    stalled_at = time.monotonic()
    device.stall(1500)
    (lost,) = sink.wait_count(ReaderLost, 1, 1.5)
    assert isinstance(lost, ReaderLost) and "silent" in lost.reason
    assert lost.t - stalled_at <= 1.0
    # the card was on the reader: its presentation ended with the reader
    assert [e.uid for e in sink.of(CardRemoved) if isinstance(e, CardRemoved)] == [UID]
    sink.wait_count(ReaderConnected, 2, 4.0)
    sink.wait_count(CardPresented, 2, 2.0)  # the card still lying there counts again after a loss


def test_unplugged_for_good_is_one_reader_lost(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, _reader, sink = running
    unplugged_at = time.monotonic()
    device.unplug()
    (lost,) = sink.wait_count(ReaderLost, 1, 1.5)
    assert lost.t - unplugged_at <= 1.0
    sink.quiet(0.8)  # retries with back-off, without repeating ReaderLost
    assert len(sink.of(ReaderLost)) == 1


def test_a_device_that_appears_later_connects(device: PN532Device) -> None:
    device.unplug()
    sink = Sink()
    reader = PN532Reader(f"pn532://{device.path}")
    reader.start(sink)
    try:
        (lost,) = sink.wait_count(ReaderLost, 1, 2.0)
        assert isinstance(lost, ReaderLost) and device.path in lost.reason
        device.replug()
        sink.wait_count(ReaderConnected, 1, 3.0)
    finally:
        reader.stop()


def test_a_chip_that_is_not_a_pn532_is_refused(device: PN532Device, monkeypatch: pytest.MonkeyPatch) -> None:
    import firmware_sim.pn532_chip as sim

    monkeypatch.setattr(sim, "FIRMWARE", bytes([0x31, 0x01, 0x06, 0x07]))
    sink = Sink()
    reader = PN532Reader(f"pn532://{device.path}")
    reader.start(sink)
    try:
        (lost,) = sink.wait_count(ReaderLost, 1, 2.0)
        assert isinstance(lost, ReaderLost) and "expected a PN532" in lost.reason
        assert sink.of(ReaderConnected) == []
    finally:
        reader.stop()


def test_stop_returns_promptly_and_cue_is_silent(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, reader, _sink = running
    reader.cue("ok")  # no beeper: nothing is sent
    commands = device.counters["commands"]
    started = time.monotonic()
    reader.stop()
    assert time.monotonic() - started < 1.0
    time.sleep(3 * POLL_PERIOD_S)
    assert device.counters["commands"] - commands <= 1


@pytest.mark.parametrize(
    ("url", "path", "baud", "period"),
    [
        ("pn532:///dev/serial0", "/dev/serial0", 115200, 0.05),
        ("pn532:///dev/ttyUSB0?baud=57600&poll_ms=100", "/dev/ttyUSB0", 57600, 0.1),
    ],
)
def test_url_parsing(url: str, path: str, baud: int, period: float) -> None:
    reader = PN532Reader(url)
    assert (reader.path, reader.baud, reader.poll_period_s) == (path, baud, period)


@pytest.mark.parametrize(("url", "message"), [("pn532://", "needs a device path"), ("pn532:///dev/x?baud=fast", "integers")])
def test_bad_urls_are_clear_errors(url: str, message: str) -> None:
    with pytest.raises(ReaderError, match=message):
        PN532Reader(url)


def test_list_devices_are_pn532_urls() -> None:
    assert all(u.startswith("pn532://") for u in PN532Reader.list_devices())



def test_a_damaged_uid_that_passes_the_checksums_is_never_a_tap(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, reader, sink = running
    device.mangle()  # the next answer naming the card carries 04A22B1D5D6D80-like damage, sums intact
    device.tap("04A22B1C5D6E80")
    sink.wait_count(CardPresented, 1)
    sink.quiet(0.3)
    assert sink.taps() == ["04A22B1C5D6E80"]
    assert device.counters["mangled"] == 1 and reader.counters["unconfirmed"] == 1
