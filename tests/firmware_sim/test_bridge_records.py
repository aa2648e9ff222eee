"""Our bridge reads and writes a sticker's NDEF record (protocol v2's card-memory verbs READ / DATA, WRITE /
DONE, hardware/protocol.md): hardware/firmware/main.py unmodified on the simulated MFRC522 with an NTAG213
(firmware_sim/mfrc522_cards.py), its MFRC522 driver doing the NTAG's READ and WRITE; the host side is
reader/bridge_memory.py. A known UID is presented at once, without a read."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import ndef
import pytest

from firmware_sim.firmware import FirmwareDevice
from firmware_sim.mfrc522_cards import NtagCard
from reader import open_reader
from reader.bridge import BridgeReader
from reader.events import CardPresented, CardRemoved, ReaderConnected
from reader.type2 import read_ndef

pytestmark = pytest.mark.timeout(60)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reader"))
from harness import Sink  # noqa: E402

UID = "04A22B1C5D6E80"


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


def test_an_unknown_sticker_is_presented_with_its_record(rig: tuple[FirmwareDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    reader.set_known(lambda _uid: False)
    tag = NtagCard(bytes.fromhex(UID))
    message = b"".join(ndef.message_encoder([ndef.Record("application/vnd.boardbank.card", "", b"1 classic-uk deed 3")]))
    tag.store_ndef(message)
    device.chip.insert(tag)
    (event,) = sink.wait_count(CardPresented, 1, 5.0)
    assert isinstance(event, CardPresented) and event.uid == UID and event.record == message
    assert reader.stats["record_reads"] == 1


def test_a_known_card_is_presented_without_a_read(rig: tuple[FirmwareDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    reader.set_known(lambda uid: uid == UID)
    device.chip.insert(NtagCard(bytes.fromhex(UID)))
    (event,) = sink.wait_count(CardPresented, 1, 5.0)
    assert isinstance(event, CardPresented) and event.record is None
    assert reader.stats.get("record_reads", 0) == 0


def test_write_through_the_bridge_then_lock(rig: tuple[FirmwareDevice, BridgeReader, Sink]) -> None:
    device, reader, sink = rig
    tag = NtagCard(bytes.fromhex(UID))
    device.chip.insert(tag)
    sink.wait_count(CardPresented, 1, 5.0)
    message = b"\xd2\x1e\x131 ultimate-uk deed 3"
    reader.write_record(UID, message, lock=True)
    assert read_ndef(lambda p: b"".join(bytes(tag.pages[(p + i) % 45]) for i in range(4))) == message
    assert tag.locked(4) and tag.locked(16)
    device.chip.remove()
    sink.wait_count(CardRemoved, 1, 5.0)
    assert sink.taps() == [UID]  # the reads and writes made no second tap
