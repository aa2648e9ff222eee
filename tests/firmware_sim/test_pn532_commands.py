"""The PN532 command set of the simulator (firmware_sim/pn532_chip.py) against UM0701-02, command by command.

Most checks run the pure :class:`PN532Chip`; the frame-level ones (extended frames, waiting searches,
PowerDown) go through the pty as a host would.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_pn532_sim import FIRMWARE, Host, awake

from firmware_sim.pn532 import PN532Device
from firmware_sim.pn532_card import SimCard, cascaded, crc_a
from firmware_sim.pn532_chip import SYNTAX_ERROR, Pending, PN532Chip
from firmware_sim.pn532_ciu import CIU_RESET
from reader import pn532_frames as pf
from reader.pn532_frames import Ack, InfoFrame

pytestmark = pytest.mark.timeout(30)
NTAG = "04A22B1C5D6E80"


def ready(uid: str | None = None, retries: int = 1) -> PN532Chip:
    chip = PN532Chip()
    assert chip.execute(0x14, b"\x01", 0.0) == b""
    assert chip.execute(0x32, bytes([0x05, 0xFF, 0x01, retries]), 0.0) == b""
    if uid is not None:
        chip.card = SimCard(bytes.fromhex(uid))
    return chip


def test_diagnose_line_test_echoes_and_the_other_tests_report_ok() -> None:
    chip = PN532Chip()
    assert chip.execute(0x00, bytes.fromhex("00 6C 69 62 6E 66 63"), 0.0) == bytes.fromhex("00 6C 69 62 6E 66 63")
    assert chip.execute(0x00, b"\x01", 0.0) == b"\x00"  # ROM
    assert chip.execute(0x00, b"\x02", 0.0) == b"\x00"  # RAM
    assert chip.execute(0x00, b"\x06", 0.0) == b"\x01"  # attention request: no target
    assert chip.execute(0x00, b"\x09", 0.0) is SYNTAX_ERROR
    assert chip.execute(0x00, b"", 0.0) is SYNTAX_ERROR


def test_diagnose_in_an_extended_frame_is_answered_in_an_extended_frame() -> None:
    with PN532Device(seed=3) as device:
        host = Host(device.path)
        try:
            awake(host)
            data = b"\x00" + bytes(range(256)) + bytes(range(6))  # 263 bytes: nfcpy's line test
            request = pf.encode_command(0x00, data)
            assert request[3:5] == b"\xff\xff"  # extended
            host.frames.clear()
            host.send(request)
            got = host.collect(2)
            assert got[0] == Ack() and got[1] == InfoFrame(pf.TFI_CHIP, b"\x01" + data)
        finally:
            host.port.close()


def test_registers_start_at_their_reset_values_and_keep_what_is_written() -> None:
    chip = PN532Chip()
    addresses = [0x6302, 0x6303, 0x6305, 0x630D, 0x6338, 0x633C, 0x633D]  # what libnfc reads at start
    request = b"".join(a.to_bytes(2, "big") for a in addresses)
    assert chip.execute(0x06, request, 0.0) == bytes(CIU_RESET[a] for a in addresses)
    assert chip.execute(0x08, bytes.fromhex("6302 80 6303 80 FFB0 0A"), 0.0) == b""
    assert chip.execute(0x06, bytes.fromhex("6302 6303 FFB0 1234"), 0.0) == b"\x80\x80\x0a\x00"
    assert chip.execute(0x06, b"\x63", 0.0) is SYNTAX_ERROR
    assert chip.execute(0x08, b"\x63\x02", 0.0) is SYNTAX_ERROR


def test_the_fifo_register_is_a_fifo() -> None:
    chip = PN532Chip()
    chip.execute(0x08, bytes.fromhex("6339 11 6339 22"), 0.0)
    assert chip.execute(0x06, bytes.fromhex("633A 6339 6339 6339"), 0.0) == b"\x02\x11\x22\x00"
    chip.execute(0x08, bytes.fromhex("6339 33 633A 80"), 0.0)  # FlushBuffer
    assert chip.execute(0x06, bytes.fromhex("633A"), 0.0) == b"\x00"


def test_set_parameters_and_serial_baud_rate_are_kept() -> None:
    chip = PN532Chip()
    assert chip.execute(0x12, b"\x14", 0.0) == b"" and chip.parameters == 0x14
    assert chip.execute(0x10, b"\x07", 0.0) == b"" and chip.baud == 921600
    assert chip.execute(0x10, b"\x09", 0.0) is SYNTAX_ERROR
    assert chip.execute(0x12, b"", 0.0) is SYNTAX_ERROR


@pytest.mark.parametrize("uid", ["DEADBEEF", NTAG, "0102030405060708090A"])
def test_initiator_data_selects_only_the_card_with_that_uid(uid: str) -> None:
    chip = ready(uid)
    card = bytes.fromhex(uid)
    found = chip.execute(0x4A, b"\x01\x00" + cascaded(card), 0.0)
    assert found == b"\x01" + pf.target_a_payload(1, card)
    chip.activated = False
    other = bytes([card[0] ^ 1]) + card[1:]
    assert chip.execute(0x4A, b"\x01\x00" + cascaded(other), 0.0) == b"\x00"
    assert chip.registers.read(0x6339) == 0x26  # the REQA is still in the FIFO: nobody answered it


def test_with_max_retries_ff_a_search_waits_for_the_right_card() -> None:
    chip = ready(None, retries=0xFF)
    pending = chip.execute(0x4A, b"\x01\x00" + bytes.fromhex("DEADBEEF"), 0.0)
    assert isinstance(pending, Pending)
    chip.card = SimCard(bytes.fromhex("CAFEBABE"))
    assert chip.complete(pending, 0.0) is None  # not the card asked for: still searching
    chip.card = SimCard(bytes.fromhex("DEADBEEF"))
    assert chip.complete(pending, 0.0) == b"\x01" + pf.target_a_payload(1, bytes.fromhex("DEADBEEF"))


def test_in_auto_poll_answers_a_card_at_once_and_gives_up_after_its_polls() -> None:
    chip = ready(NTAG)
    answer = chip.execute(0x60, bytes([0x14, 0x02, 0x10, 0x11, 0x12, 0x20, 0x23, 0x04]), 0.0)
    target = pf.target_a_payload(1, bytes.fromhex(NTAG))
    assert answer == bytes([0x01, 0x10, len(target)]) + target
    chip.card = None
    pending = chip.execute(0x60, bytes([0x02, 0x01, 0x10, 0x20]), 100.0)
    assert isinstance(pending, Pending) and pending.deadline == pytest.approx(100.0 + 2 * 2 * 1 * 0.150)
    assert chip.complete(pending, 100.5) is None
    assert chip.complete(pending, 100.7) == b"\x00"
    endless = chip.execute(0x60, bytes([0xFF, 0x01, 0x10]), 0.0)
    assert isinstance(endless, Pending) and endless.deadline is None
    assert chip.execute(0x60, bytes([0x00, 0x01, 0x10]), 0.0) is SYNTAX_ERROR


def test_in_auto_poll_on_the_pty_answers_nothing_after_its_polls() -> None:
    with PN532Device(seed=4) as device:
        host = Host(device.path)
        try:
            awake(host)
            host.frames.clear()
            host.send(pf.encode_command(0x60, bytes([0x01, 0x01, 0x10])))  # one poll of 150 ms
            assert host.quiet(0.08) == [Ack()]
            assert host.collect(2, timeout=1.0)[1] == InfoFrame(pf.TFI_CHIP, b"\x61\x00")
            host.frames.clear()
            host.send(pf.encode_command(0x60, bytes([0xFF, 0x01, 0x10])))
            assert host.quiet(0.2) == [Ack()]
            device.tap(NTAG)
            answer = host.collect(2)[1]
            assert isinstance(answer, InfoFrame) and answer.data[:3] == b"\x61\x01\x10"
        finally:
            host.port.close()


def test_in_data_exchange_reads_a_type_2_tag() -> None:
    chip = ready(NTAG)
    assert chip.execute(0x40, b"\x01\x30\x00", 0.0) == b"\x27"  # no target activated yet
    chip.execute(0x4A, b"\x01\x00", 0.0)
    answer = chip.execute(0x40, b"\x01\x30\x00", 0.0)
    assert isinstance(answer, bytes) and answer[0] == 0x00 and len(answer) == 17
    assert answer[1:4] == bytes.fromhex("04A22B") and answer[4] == 0x88 ^ 0x04 ^ 0xA2 ^ 0x2B
    assert answer[13:17] == bytes.fromhex("E1101200")  # page 3: the capability container
    chip.card = None  # lifted: the target no longer answers
    assert chip.execute(0x40, b"\x01\x30\x00", 0.0) == b"\x01"


def test_in_communicate_thru_times_out_without_a_card_and_follows_the_crc_bits() -> None:
    chip = ready()
    assert chip.execute(0x42, b"\x30\x04", 0.0) == b"\x01"
    chip.card = SimCard(bytes.fromhex(NTAG))
    chip.execute(0x4A, b"\x01\x00", 0.0)  # activation sets TxCRCEn and RxCRCEn
    answer = chip.execute(0x42, b"\x30\x04", 0.0)
    assert isinstance(answer, bytes) and answer[:5] == b"\x00\x03\x00\xfe\x00" and len(answer) == 17
    chip.execute(0x08, bytes.fromhex("6303 00"), 0.0)  # RxCRCEn off (as nfcpy does for Type 2 tags)
    answer = chip.execute(0x42, b"\x30\x04", 0.0)
    assert isinstance(answer, bytes) and len(answer) == 19 and crc_a(answer[1:17]) == answer[17:]
    assert chip.execute(0x42, bytes.fromhex("A2 05 01020304"), 0.0) == b"\x00\x0a"  # WRITE: the 4-bit ACK
    chip.execute(0x08, bytes.fromhex("6302 00"), 0.0)  # TxCRCEn off: the host sends the CRC_A
    command = b"\x30\x05"
    assert chip.execute(0x42, command + crc_a(command), 0.0)[1:5] == bytes.fromhex("01020304")  # type: ignore[index]
    assert chip.execute(0x42, command + b"\x00\x00", 0.0) == b"\x01"  # a wrong CRC: the card stays silent


def test_in_deselect_and_in_release_end_the_target() -> None:
    chip = ready(NTAG)
    assert chip.execute(0x44, b"\x01", 0.0) == b"\x27"
    chip.execute(0x4A, b"\x01\x00", 0.0)
    assert chip.execute(0x44, b"\x01", 0.0) == b"\x00" and not chip.activated
    chip.execute(0x4A, b"\x01\x00", 0.0)
    assert chip.execute(0x52, b"\x00", 0.0) == b"\x00" and not chip.activated


def test_general_status_reports_the_field_and_the_target() -> None:
    chip = ready(NTAG)
    assert chip.execute(0x04, b"", 0.0) == b"\x00\x00\x00\x00"
    chip.execute(0x4A, b"\x01\x00", 0.0)
    assert chip.execute(0x04, b"", 0.0) == b"\x00\x01\x01\x01\x00\x00\x00\x00"


def test_power_down_keeps_settings_a_power_cycle_does_not() -> None:
    chip = ready(NTAG)
    chip.execute(0x12, b"\x24", 0.0)
    chip.execute(0x4A, b"\x01\x00", 0.0)
    assert chip.execute(0x16, b"\xf0", 0.0) == b"\x00"
    chip.power_down()
    assert (chip.sam_configured, chip.max_retries_passive, chip.parameters, chip.activated) == (True, 1, 0x24, False)
    chip.power_on()
    assert (chip.sam_configured, chip.max_retries_passive, chip.parameters) == (False, 0xFF, 0x00)


def test_a_power_down_answer_goes_out_before_the_chip_sleeps() -> None:
    with PN532Device(seed=5) as device:
        host = Host(device.path)
        try:
            awake(host)
            assert host.exchange(pf.encode_command(0x16, b"\xf0")) == InfoFrame(pf.TFI_CHIP, b"\x17\x00")
            deadline = time.monotonic() + 1.0
            while device.awake and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not device.awake
            host.frames.clear()
            host.send(bytes(10) + FIRMWARE)
            assert host.collect(2)[1] == InfoFrame(pf.TFI_CHIP, b"\x03" + bytes([0x32, 0x01, 0x06, 0x07]))
        finally:
            host.port.close()
