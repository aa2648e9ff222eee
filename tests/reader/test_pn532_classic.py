"""pn532:// reads and writes a MIFARE Classic 1K's NDEF record in the NFC Forum layout (NXP AN1304: the MAD in
sector 0 with the NDEF AID 03E1, the message TLV from sector 1, the public keys A0A1A2A3A4A5 / D3F7D3F7D3F7)
with the PN532's MIFARE commands in InDataExchange (UM0701-02 7.3.8: authentication 60h, READ 30h, WRITE
A0h), against the PN532 simulator's Classic card (access bits enforced, firmware_sim/classic_blocks.py);
and the simulator's NTAG213 refuses a WRITE to a page its lock bits lock (NTAG213 data sheet 8.5.2)."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Sink, started

from firmware_sim.pn532 import PN532Device
from firmware_sim.pn532_card import ACK_4BIT, NAK_4BIT, SimCard
from reader import classic
from reader.events import CardPresented, CardRemoved
from reader.pn532 import PN532Reader

pytestmark = pytest.mark.timeout(30)
UID = "A1B2C3D4"
MESSAGE = b"\xd2\x1e\x11application/vnd.boardbank.card1 - player 2"


@pytest.fixture
def running() -> Iterator[tuple[PN532Device, PN532Reader, Sink]]:
    with tempfile.TemporaryDirectory(prefix="bb-pn532c-") as tmp:
        device = PN532Device(link=os.path.join(tmp, "ttyPN532"), seed=12)
        device.start()
        try:
            with started(f"pn532://{device.path}", PN532Reader, 3.0) as (reader, sink):
                yield device, reader, sink
        finally:
            device.stop()


def write_in_thread(reader: PN532Reader, lock: bool) -> list[Exception]:
    errors: list[Exception] = []
    done = threading.Event()

    def write() -> None:
        try:
            reader.write_record(UID, MESSAGE, lock=lock)
        except Exception as exc:
            errors.append(exc)
        done.set()

    threading.Thread(target=write).start()
    assert done.wait(6.0)
    return errors


def test_classic_written_in_the_forum_layout_then_read_on_a_new_tap(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, reader, sink = running
    reader.set_known(lambda _uid: False)
    device.tap(UID)
    (first,) = sink.wait_count(CardPresented, 1, 3.0)
    assert isinstance(first, CardPresented) and first.record is None  # a new card: no MAD
    assert write_in_thread(reader, lock=False) == []
    card = device.chip.card
    assert card is not None and card.blocks is not None
    blocks = card.blocks.blocks
    assert bytes(blocks[1][:4]) == bytes([classic.mad_crc(bytes(blocks[1][1:]) + bytes(blocks[2])), 0x01, 0x03, 0xE1])
    assert bytes(blocks[3][:6]) == classic.MAD_KEY_A and bytes(blocks[3][6:10]) == bytes.fromhex("787788C1")
    assert bytes(blocks[7][:10]) == bytes.fromhex("D3F7D3F7D3F77F078840")
    assert bytes(blocks[4][:3]) == bytes([0x03, len(MESSAGE), 0xD2])
    device.remove()
    sink.wait_count(CardRemoved, 1, 3.0)
    device.tap(UID)
    again = sink.wait_count(CardPresented, 2, 3.0)[-1]
    assert isinstance(again, CardPresented) and again.record == MESSAGE
    assert write_in_thread(reader, lock=True) == []  # a formatted card: written with the NDEF key, then locked
    assert bytes(blocks[7][6:10]) == bytes.fromhex("078F0F43")
    assert not card.blocks.write(4, bytes(16), key_b=False)  # read-only now


def test_a_known_classic_card_is_not_read(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, reader, sink = running
    reader.set_known(lambda uid: uid == UID)
    device.tap(UID)
    (event,) = sink.wait_count(CardPresented, 1, 3.0)
    assert isinstance(event, CardPresented) and event.record is None
    card = device.chip.card
    assert card is not None and card.auth is None  # no authentication was even tried


def test_ntag_lock_bits_refuse_a_write() -> None:
    """NTAG213 data sheet 8.5.2 (static lock bits: bit n of page 2 bytes 2-3 locks page n) and 8.5.3 (the
    dynamic lock bits of page 40 lock pages 16-39, two pages a bit): a locked page NAKs WRITE."""
    card = SimCard(bytes.fromhex("04A22B1C5D6E80"))
    assert card.answer(bytes([0xA2, 5, 1, 2, 3, 4])) == bytes([ACK_4BIT])
    assert card.answer(bytes([0xA2, 2, 0, 0, 0x20, 0x00])) == bytes([ACK_4BIT])  # lock page 5
    assert card.answer(bytes([0xA2, 5, 9, 9, 9, 9])) == bytes([NAK_4BIT])
    assert card.memory[20:24] == b"\x01\x02\x03\x04"
    assert card.answer(bytes([0xA2, 6, 9, 9, 9, 9])) == bytes([ACK_4BIT])  # page 6 is not locked
    assert card.answer(bytes([0xA2, 18, 1, 1, 1, 1])) == bytes([ACK_4BIT])
    assert card.answer(bytes([0xA2, 40, 0x02, 0, 0, 0])) == bytes([ACK_4BIT])  # bit 1: pages 18-19
    assert card.answer(bytes([0xA2, 18, 2, 2, 2, 2])) == bytes([NAK_4BIT])
    assert card.answer(bytes([0xA2, 19, 2, 2, 2, 2])) == bytes([NAK_4BIT])
    assert card.answer(bytes([0xA2, 17, 2, 2, 2, 2])) == bytes([ACK_4BIT])
    assert card.answer(bytes([0xA2, 40, 0x00, 0, 0, 0])) == bytes([ACK_4BIT])  # bits are never cleared
    assert card.answer(bytes([0xA2, 18, 2, 2, 2, 2])) == bytes([NAK_4BIT])
