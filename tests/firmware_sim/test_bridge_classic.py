"""Our bridge reads and writes a MIFARE Classic 1K's NDEF record in the NFC Forum layout (NXP AN1304; the MAD
in sector 0 with AID 03E1, the TLV from sector 1) with protocol v2's Classic verbs MREAD / MWRITE
(hardware/protocol.md): hardware/firmware/main.py unmodified on the simulated MFRC522 with a Classic 1K
(firmware_sim/mfrc522_cards.py, Crypto1 and the access bits), its driver authenticating with MFAuthent
(datasheet 10.3.1.9) before each block; the host side is reader/bridge_memory.py. A known UID is presented
at once, without a read."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from firmware_sim.firmware import FirmwareDevice
from firmware_sim.mfrc522_cards import ClassicCard
from reader import classic, open_reader
from reader.base import RecordRefused
from reader.bridge import BridgeReader
from reader.events import CardPresented, CardRemoved, ReaderConnected

pytestmark = pytest.mark.timeout(90)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reader"))
from harness import Sink  # noqa: E402

UID = "A1B2C3D4"


def rig(tmp_path: Path) -> tuple[FirmwareDevice, BridgeReader, Sink]:
    device = FirmwareDevice(link=str(tmp_path / "ttyFW"))
    device.start()
    reader = open_reader(f"serial://{device.path}")
    assert isinstance(reader, BridgeReader)
    sink = Sink()
    reader.start(sink)
    sink.wait_count(ReaderConnected, 1)
    return device, reader, sink


def test_classic_written_then_read_on_its_next_tap(tmp_path: Path) -> None:
    message = b"\xd2\x1e\x0a" + b"application/vnd.boardbank.card" + b"1 - player"  # 43 bytes: two sectors
    device, reader, sink = rig(tmp_path)
    try:
        reader.set_known(lambda _uid: False)
        card = ClassicCard(bytes.fromhex(UID), seed=5)
        device.chip.insert(card)
        (first,) = sink.wait_count(CardPresented, 1, 5.0)
        assert isinstance(first, CardPresented) and first.record is None  # a new card: no MAD
        reader.write_record(UID, message)
        assert bytes(card.blocks[1][1:4]) == b"\x01\x03\xe1" and bytes(card.blocks[3][:6]) == classic.MAD_KEY_A
        assert bytes(card.blocks[7][:10]) == bytes.fromhex("D3F7D3F7D3F77F078840")
        device.chip.remove()
        sink.wait_count(CardRemoved, 1, 5.0)
        device.chip.insert(card)
        again = sink.wait_count(CardPresented, 2, 8.0)[-1]
        assert isinstance(again, CardPresented) and again.record == message
        reader.write_record(UID, message, lock=True)  # formatted: the NDEF key; key B locks the sectors
        assert bytes(card.blocks[7][6:10]) == bytes.fromhex("078F0F43")
        reader.write_record(UID, message)  # the very record, locked already: nothing to write, no error
        with pytest.raises(RecordRefused, match="is locked") as refused:  # the trailer read first: no write
            reader.write_record(UID, message[:-1] + b"3", replace=True)
        assert refused.value.locked and refused.value.current == message
        assert sink.taps() == [UID, UID]  # the reads and writes made no extra tap
    finally:
        reader.stop()
        device.stop()
    assert device.crash is None, repr(device.crash)


def test_a_known_classic_card_is_presented_without_a_read(tmp_path: Path) -> None:
    device, reader, sink = rig(tmp_path)
    try:
        reader.set_known(lambda uid: uid == UID)
        device.chip.insert(ClassicCard(bytes.fromhex(UID)))
        (event,) = sink.wait_count(CardPresented, 1, 5.0)
        assert isinstance(event, CardPresented) and event.record is None
        assert device.chip.counters["authentications"] == 0
    finally:
        reader.stop()
        device.stop()
