"""danjperron/micropython-mfrc522 (a MicroPython MFRC522 driver for the Pico; MIT, vendored unmodified in
vendor/ with its licence, since it is on no package index) run on the simulated MFRC522 through the Pico
shims of firmware_sim/micropython.py: every UID size, a MIFARE Classic 1K authenticated with key A and a
block read and written, an NTAG213's GET_VERSION, its pages and the NDEF record on them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ndef
import pytest

from firmware_sim.mfrc522 import MFRC522Chip
from firmware_sim.mfrc522_cards import ClassicCard, NtagCard
from firmware_sim.micropython import Board, exec_micropython

pytestmark = pytest.mark.timeout(60)
DRIVER = Path(__file__).resolve().parent / "vendor" / "danjperron_mfrc522.py"


def driver_on(chip: MFRC522Chip) -> Any:
    board = Board(chip, lambda _data: None)
    modules = {"machine": board.modules()["machine"], "os": board.os("rp2")}
    cls = exec_micropython(DRIVER, modules, name="mfrc522")["MFRC522"]
    return cls(sck=18, mosi=19, miso=16, rst=20, cs=17)


@pytest.mark.parametrize("uid", ["DEADBEEF", "04A22B1C5D6E80", "0102030405060708090A"])
def test_every_uid_size(uid: str) -> None:
    chip = MFRC522Chip()
    chip.insert(bytes.fromhex(uid))
    rdr = driver_on(chip)
    assert rdr.request(rdr.REQIDL) == (rdr.OK, 16)
    status, got = rdr.SelectTagSN()
    assert status == rdr.OK and bytes(got).hex().upper() == uid


def test_classic_authenticate_read_and_write() -> None:
    chip = MFRC522Chip()
    card = ClassicCard(bytes.fromhex("DEADBEEF"), seed=9)
    card.blocks[13][:] = b"boardbank deed 1"
    chip.insert(card)
    rdr = driver_on(chip)
    assert rdr.request(rdr.REQIDL)[0] == rdr.OK
    status, uid = rdr.SelectTagSN()
    assert status == rdr.OK
    assert rdr.readSectorBlock(uid, 3, 1, keyA=[0xFF] * 6) == (rdr.OK, list(b"boardbank deed 1"))
    assert rdr.writeSectorBlock(uid, 3, 2, list(b"danjperron wrote"), keyA=[0xFF] * 6) == rdr.OK
    assert bytes(card.blocks[14]) == b"danjperron wrote"
    rdr.stop_crypto1()
    assert rdr.request(rdr.REQIDL)[0] != rdr.OK  # the ACTIVE card went back to IDLE
    assert rdr.request(rdr.REQIDL)[0] == rdr.OK
    status, uid = rdr.SelectTagSN()
    assert rdr.readSectorBlock(uid, 3, 1, keyA=[0x00] * 6)[0] != rdr.OK  # a wrong key


def test_ntag_version_pages_and_ndef_record() -> None:
    chip = MFRC522Chip()
    card = NtagCard(bytes.fromhex("04A22B1C5D6E80"), "NTAG213")
    message = b"".join(ndef.message_encoder([ndef.TextRecord("event 12")]))
    card.store_ndef(message)
    chip.insert(card)
    rdr = driver_on(chip)
    assert rdr.request(rdr.REQIDL)[0] == rdr.OK
    assert rdr.SelectTagSN()[0] == rdr.OK
    assert rdr.IsNTAG() and rdr.NTAG == rdr.NTAG_213 and rdr.NTAG_MaxPage == 44
    data = b""
    for page in (4, 8, 12):
        status, block = rdr.read(page)
        assert status == rdr.OK and len(block) == 16
        data += bytes(block)
    assert data[0] == 0x03 and data[1] == len(message)
    assert list(ndef.message_decoder(data[2:2 + data[1]])) == [ndef.TextRecord("event 12")]
    assert rdr.writeNTAGPage(20, [1, 2, 3, 4]) == rdr.OK  # COMPATIBILITY_WRITE
    assert bytes(card.pages[20]) == b"\x01\x02\x03\x04"
