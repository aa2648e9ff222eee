"""The whole bridge firmware (hardware/firmware/main.py, unmodified) on the simulated MFRC522, through serial://."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_sim.firmware import FirmwareDevice
from reader import open_reader
from reader.bridge import BridgeReader
from reader.events import CardPresented, CardRemoved, ReaderConnected

pytestmark = pytest.mark.timeout(30)
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "reader"))
from harness import Sink, wait_for  # noqa: E402


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[FirmwareDevice, BridgeReader, Sink]]:
    device = FirmwareDevice(link=str(tmp_path / "ttyFW"))
    device.start()
    reader = open_reader(f"serial://{device.path}")
    assert isinstance(reader, BridgeReader)
    sink = Sink()
    reader.start(sink)
    try:
        sink.wait_count(ReaderConnected, 1)
        yield device, reader, sink
    finally:
        reader.stop()
        device.stop()
        assert device.crash is None, repr(device.crash)


def test_the_real_main_py_boots_and_says_hello(rig: tuple[FirmwareDevice, BridgeReader, Sink]) -> None:
    device, reader, _sink = rig
    assert reader.device_info == "bridge fw 2.0.0 protocol 2"  # no "+sim": main.py's own BridgeApp
    assert device.board.kbd_intr == -1 and device.board.wdt_timeout_ms == 4000
    assert device.board.pins[20] == 1  # the MFRC522's reset line held high
    for name in ("machine", "micropython", "bridge_app"):
        assert name not in sys.modules  # the shims are main.py's alone


@pytest.mark.parametrize("uid", ["04A22B1C", "04A22B1C5D6E80", "0102030405060708090A"])
def test_uids_of_4_7_and_10_bytes_come_through_the_firmware(rig: tuple[FirmwareDevice, BridgeReader, Sink], uid: str) -> None:
    device, _reader, sink = rig
    device.tap(uid)
    sink.wait_count(CardPresented, 1)
    device.remove()
    sink.wait_count(CardRemoved, 1)
    assert sink.taps() == [uid]
    assert device.chip.counters["transceives"] > 0


def test_a_4_byte_and_a_7_byte_card_together_give_a_tap(rig: tuple[FirmwareDevice, BridgeReader, Sink]) -> None:
    """Two cards of different UID sizes on the reader: their ATQAs (04 00 and 44 00) collide, and ISO/IEC
    14443-3 (6.4.2: "a collision in the ATQA is to be expected") has the reader go on to the anticollision
    loop, which picks one (the 1 at the first differing bit, bit 2 of the first byte: 04h of the 4-byte card
    against the 7-byte card's cascade tag 88h). The firmware refused the whole poll on the ATQA's
    collision: no tap at all."""
    device, _reader, sink = rig
    device.chip.insert(bytes.fromhex("04A22B1C"))
    device.chip.insert(bytes.fromhex("04A22B1C5D6E80"))
    sink.wait_count(CardPresented, 1, timeout=5.0)
    assert sink.taps() == ["04A22B1C"]
    device.chip.remove(bytes.fromhex("04A22B1C"))
    sink.wait_count(CardPresented, 2, timeout=5.0)  # the other card, alone now
    assert sink.taps() == ["04A22B1C", "04A22B1C5D6E80"]


def test_a_damaged_tap_is_repeated_by_the_firmware(rig: tuple[FirmwareDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    device.badsum()
    device.tap("DEADBEEF")
    sink.wait_count(CardPresented, 1, timeout=2.0)
    sink.quiet(0.4)
    assert sink.taps() == ["DEADBEEF"] and reader.stats["checksum"] == 1


def test_dup_and_a_card_left_lying_are_one_tap(rig: tuple[FirmwareDevice, BridgeReader, Sink]) -> None:
    device, _reader, sink = rig
    device.tap("DEADBEEF")
    sink.wait_count(CardPresented, 1)
    device.dup()
    sink.quiet(0.5)
    assert sink.taps() == ["DEADBEEF"]


def test_cues_play_on_the_boards_buzzer_and_led(rig: tuple[FirmwareDevice, BridgeReader, Sink]) -> None:
    device, reader, _sink = rig
    reader.cue("ok")
    wait_for(lambda: device.board.tones == [2000], 2.0, "the ok beep")
    wait_for(lambda: (device.board.pins[10], device.board.pins[11], device.board.pins[12]) == (0, 1, 0), 2.0, "green")


def test_the_command_line_runs_the_firmware(tmp_path: Path) -> None:
    link = str(tmp_path / "ttyCLI")
    proc = subprocess.Popen([sys.executable, "-m", "firmware_sim", "firmware", "--link", link],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    sink = Sink()
    reader = open_reader(f"serial://{link}")
    try:
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().strip() == link
        reader.start(sink)
        sink.wait_count(ReaderConnected, 1)
        proc.stdin.write("tap 04a22b1c5d6e80\n")
        proc.stdin.flush()
        sink.wait_count(CardPresented, 1)
        assert sink.taps() == ["04A22B1C5D6E80"]
    finally:
        reader.stop()
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=5)
    assert proc.returncode == 0


def test_unplugging_powers_the_board_off() -> None:
    with FirmwareDevice() as device:
        wait_for(lambda: device.board.feeds > 5, 2.0, "the firmware's loop")
        device.unplug()
        feeds = device.board.feeds
        time.sleep(0.1)
        assert device.board.feeds == feeds  # the loop has ended
        device.replug()
        wait_for(lambda: device.counters["boots"] == 2 and device.board.feeds > 5, 2.0, "a second boot")
