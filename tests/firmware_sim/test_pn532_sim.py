"""The PN532 chip simulator (firmware_sim/pn532.py) against UM0701-02, driven byte by byte over its pty.

The host side here is written from the manual, not from the driver: raw frames through pyserial.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from firmware_sim.pn532 import PN532Device
from reader import pn532_frames as pf
from reader.pn532_frames import Ack, ErrorFrame, FrameDecoder, InfoFrame

pytestmark = pytest.mark.timeout(30)


class Host:
    """A minimal host: writes bytes, collects decoded frames with deadlines."""

    def __init__(self, path: str) -> None:
        self.port = serial.Serial(path, 115200, timeout=0.01)
        self.decoder = FrameDecoder()
        self.frames: list[pf.Frame] = []

    def send(self, data: bytes) -> None:
        self.port.write(data)

    def collect(self, n: int, timeout: float = 1.0) -> list[pf.Frame]:
        """Wait for at least ``n`` frames in total; return all received so far."""
        deadline = time.monotonic() + timeout
        while len(self.frames) < n and time.monotonic() < deadline:
            self.frames += self.decoder.feed(self.port.read(256))
        return list(self.frames)

    def quiet(self, seconds: float) -> list[pf.Frame]:
        """Read for ``seconds`` and return what came (expected: nothing)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.frames += self.decoder.feed(self.port.read(256))
        return list(self.frames)

    def exchange(self, frame: bytes) -> pf.Frame:
        """Send a command, expect ACK then one response; return the response."""
        self.frames.clear()
        self.send(frame)
        got = self.collect(2)
        assert len(got) >= 2, f"expected ACK and a response, got {got}"
        assert got[0] == Ack(), f"the ACK must come first, got {got}"
        return got[1]


@pytest.fixture
def chip() -> Iterator[PN532Device]:
    device = PN532Device(seed=7)
    device.start()
    yield device
    device.stop()


@pytest.fixture
def host(chip: PN532Device) -> Iterator[Host]:
    h = Host(chip.path)
    yield h
    h.port.close()


def awake(host: Host) -> Host:
    host.send(pf.HSU_WAKEUP)
    response = host.exchange(pf.sam_configuration())
    assert response == InfoFrame(pf.TFI_CHIP, b"\x15")
    return host


FIRMWARE = pf.encode_command(pf.CMD_GET_FIRMWARE_VERSION)


def test_asleep_any_byte_wakes_it_and_is_lost(chip: PN532Device, host: Host) -> None:
    host.send(FIRMWARE[1:])  # a frame without its preamble: the 00 of its start code wakes the chip, lost
    assert host.quiet(0.2) == []
    assert chip.counters["ignored_asleep"] == 1 and chip.awake
    host.send(FIRMWARE)
    response = host.collect(2)[1]
    assert isinstance(response, InfoFrame)
    assert str(pf.parse_firmware_version(response)) == "PN532 firmware 1.6 (support 0x07)"


def test_a_long_preamble_of_zeros_wakes_it_as_nfcpy_does(chip: PN532Device, host: Host) -> None:
    host.send(bytes(10) + FIRMWARE)  # no 0x55: nfcpy's wake-up
    got = host.collect(2)
    assert got[0] == Ack() and isinstance(got[1], InfoFrame) and got[1].command == 0x03


def test_lowvbat_until_sam_configuration(chip: PN532Device, host: Host) -> None:
    host.send(pf.HSU_WAKEUP)
    assert host.exchange(pf.in_list_passive_target()) == ErrorFrame()
    assert host.exchange(pf.sam_configuration()) == InfoFrame(pf.TFI_CHIP, b"\x15")
    assert chip.sam_configured


def test_unknown_command_and_bad_parameters_get_the_syntax_error_frame(chip: PN532Device, host: Host) -> None:
    awake(host)
    assert host.exchange(pf.encode_command(0x60)) == ErrorFrame()  # InAutoPoll without its parameters
    assert host.exchange(pf.encode_command(0x5A)) == ErrorFrame()  # a command the simulator does not know
    assert host.exchange(pf.encode_command(pf.CMD_IN_LIST_PASSIVE_TARGET, b"\x05\x00")) == ErrorFrame()
    assert host.exchange(pf.encode_command(pf.CMD_RF_CONFIGURATION, b"\x05\xff")) == ErrorFrame()
    assert chip.counters["syntax_errors"] == 4


@pytest.mark.parametrize("uid", ["DEADBEEF", "04A22B1C5D6E80", "0102030405060708090A"])
def test_in_list_passive_target_reports_the_card(chip: PN532Device, host: Host, uid: str) -> None:
    awake(host)
    assert host.exchange(pf.rf_max_retries(passive_activation=1)) == InfoFrame(pf.TFI_CHIP, b"\x33")
    response = host.exchange(pf.in_list_passive_target())
    assert response == InfoFrame(pf.TFI_CHIP, b"\x4b\x00")  # nothing in the field
    chip.tap(uid)
    response = host.exchange(pf.in_list_passive_target())
    assert isinstance(response, InfoFrame)
    (target,) = pf.parse_in_list_passive_target(response)
    assert target.tg == 1 and target.uid_hex == uid
    expected_sens = {4: b"\x00\x04", 7: b"\x00\x44", 10: b"\x00\x84"}[len(uid) // 2]
    assert target.sens_res == expected_sens
    assert response.data[:2] == b"\x4b\x01" and response.data[6] == len(uid) // 2  # NbTg, NFCIDLength
    assert chip.activated
    assert host.exchange(pf.in_release(0)) == InfoFrame(pf.TFI_CHIP, b"\x53\x00")
    assert not chip.activated
    assert host.exchange(pf.in_release(1)) == InfoFrame(pf.TFI_CHIP, b"\x53\x27")  # nothing to release


@pytest.mark.parametrize(
    ("brty", "initiator_data"),
    [(0x01, b"\x00\xff\xff\x01\x00"), (0x02, b"\x00\xff\xff\x01\x00"), (0x03, b"\x00"), (0x04, b"")],
    ids=["felica-212", "felica-424", "type-b", "jewel"],
)
def test_other_baud_rates_find_nothing(chip: PN532Device, host: Host, brty: int, initiator_data: bytes) -> None:
    awake(host)
    host.exchange(pf.rf_max_retries(passive_activation=1))
    chip.tap("DEADBEEF")
    command = pf.encode_command(pf.CMD_IN_LIST_PASSIVE_TARGET, bytes([1, brty]) + initiator_data)
    assert host.exchange(command) == InfoFrame(pf.TFI_CHIP, b"\x4b\x00")
    if brty != 0x04:  # FeliCa needs its polling payload, type B its AFI (UM0701-02 §7.3.5)
        assert host.exchange(pf.encode_command(pf.CMD_IN_LIST_PASSIVE_TARGET, bytes([1, brty]))) == ErrorFrame()


def test_default_max_retries_waits_for_a_card_and_an_ack_aborts(chip: PN532Device, host: Host) -> None:
    awake(host)
    host.frames.clear()
    host.send(pf.in_list_passive_target())
    assert host.quiet(0.2) == [Ack()]  # acknowledged, then waiting for a card: no response yet
    chip.tap("DEADBEEF")
    frames = host.collect(2)
    assert isinstance(frames[1], InfoFrame) and frames[1].data[:2] == b"\x4b\x01"
    chip.remove()
    host.frames.clear()
    host.send(pf.in_list_passive_target())
    assert host.quiet(0.1) == [Ack()]
    host.send(pf.ACK)  # the host aborts the command
    deadline = time.monotonic() + 1.0
    while chip.counters["aborted"] < 1 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert chip.counters["aborted"] == 1
    chip.tap("DEADBEEF")
    assert host.quiet(0.2) == [Ack()]  # the aborted command does not answer the late card


def test_nack_repeats_the_last_response(chip: PN532Device, host: Host) -> None:
    awake(host)
    first = host.exchange(FIRMWARE)
    host.frames.clear()
    host.send(pf.NACK)
    assert host.collect(1) == [first]


def test_bad_host_checksum_is_not_acknowledged(chip: PN532Device, host: Host) -> None:
    awake(host)
    broken = bytearray(FIRMWARE)
    broken[-2] ^= 0x01
    host.frames.clear()
    host.send(bytes(broken))
    assert host.quiet(0.2) == []
    assert chip.counters["bad_frames_in"] == 1


def test_extended_frames_are_understood(chip: PN532Device, host: Host) -> None:
    awake(host)
    # an extended frame carrying GetFirmwareVersion (the manual allows it for any length)
    body = bytes([pf.TFI_HOST, pf.CMD_GET_FIRMWARE_VERSION])
    lenm, lenl = 0, len(body)
    frame = b"\x00\x00\xff\xff\xff" + bytes([lenm, lenl, (-(lenm + lenl)) & 0xFF]) + body
    frame += bytes([(-sum(body)) & 0xFF, 0])
    response = host.exchange(frame)
    assert isinstance(response, InfoFrame) and response.command == 0x03


def test_badsum_and_dup_faults(chip: PN532Device, host: Host) -> None:
    awake(host)
    chip.badsum()
    host.frames.clear()
    host.send(FIRMWARE)
    assert host.quiet(0.2) == [Ack()]
    assert host.decoder.counters["bad_checksum"] == 1
    host.send(pf.NACK)  # the manual's remedy: ask again
    assert isinstance(host.collect(2)[1], InfoFrame)
    chip.dup()
    assert host.collect(3)[2] == host.frames[1]


def test_power_down_keeps_the_configuration_and_replug_resets_it(chip: PN532Device, host: Host) -> None:
    awake(host)
    assert host.exchange(pf.rf_max_retries(passive_activation=1)) == InfoFrame(pf.TFI_CHIP, b"\x33")
    write = pf.encode_command(0x08, b"\x63\x05\x40")  # WriteRegister CIU_TxAuto = 0x40
    assert host.exchange(write) == InfoFrame(pf.TFI_CHIP, b"\x09")
    assert host.exchange(pf.encode_command(pf.CMD_POWER_DOWN, b"\x10")) == InfoFrame(pf.TFI_CHIP, b"\x17\x00")
    assert not chip.awake
    host.frames.clear()
    host.send(b"\x55")  # wakes it; the byte is lost
    assert host.quiet(0.1) == []
    # still out of LowVbat, MaxRetries and registers kept: a poll answers at once, no SAMConfiguration
    assert host.exchange(pf.in_list_passive_target()) == InfoFrame(pf.TFI_CHIP, b"\x4b\x00")
    read = pf.encode_command(0x06, b"\x63\x05")
    assert host.exchange(read) == InfoFrame(pf.TFI_CHIP, b"\x07\x40")
    chip.replug()  # a new pty: a power cycle
    host.port.close()
    fresh = Host(chip.path)
    try:
        fresh.send(FIRMWARE[1:])
        assert fresh.quiet(0.15) == []
        assert chip.awake and not chip.sam_configured and chip.max_retries_passive == 0xFF
        assert fresh.exchange(read) == InfoFrame(pf.TFI_CHIP, b"\x07\x00")  # the reset value again
    finally:
        fresh.port.close()


def test_tap_refuses_a_bad_uid(chip: PN532Device) -> None:
    with pytest.raises(ValueError, match="UID"):
        chip.tap("12345")
    assert chip.card is None


def test_the_command_line_simulator_serves_the_driver(tmp_path: Path) -> None:
    """``python -m firmware_sim pn532 --link PATH``: prints the path, takes ``tap``/``remove`` on stdin."""
    import subprocess
    import sys

    from reader.events import CardPresented, CardRemoved, ReaderConnected
    from reader.pn532 import PN532Reader

    link = f"{tmp_path}/ttyPN532"
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_sim", "pn532", "--link", link],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    events: list[object] = []
    reader = PN532Reader(f"pn532://{link}")
    try:
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().strip() == link
        reader.start(events.append)

        def wait(kind: type, n: int = 1) -> None:
            deadline = time.monotonic() + 5.0
            while sum(isinstance(e, kind) for e in events) < n:
                assert time.monotonic() < deadline, f"no {kind.__name__} in {events}"
                time.sleep(0.01)

        wait(ReaderConnected)
        proc.stdin.write("tap 04:a2:2b:1c\n")
        proc.stdin.flush()
        wait(CardPresented)
        proc.stdin.write("remove\n")
        proc.stdin.flush()
        wait(CardRemoved)
        assert [e.uid for e in events if isinstance(e, CardPresented)] == ["04A22B1C"]
    finally:
        reader.stop()
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=5)
    assert proc.returncode == 0
