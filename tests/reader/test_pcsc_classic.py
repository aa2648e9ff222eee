"""pcsc:// reads and writes a MIFARE Classic 1K's NDEF record in the NFC Forum layout (NXP AN1304; the MAD in
sector 0 with AID 03E1, the TLV from sector 1) with the ACR122U's pseudo-APDUs (LOAD AUTHENTICATION KEYS
FF 82, GENERAL AUTHENTICATE FF 86, READ BINARY FF B0 and UPDATE BINARY FF D6 of 16-byte blocks; ACR122U API
5.x), through pcscd and vpcd to a virtual Classic card (tests/reader/vcard.py, its access bits enforced by
firmware_sim/classic_blocks.py); a card the registry knows is never read."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import Sink, started  # noqa: E402
from pcscd import require_pcscd  # noqa: E402
from vcard import VPCD_READERS, VirtualCard, claim_port, wait_card_state  # noqa: E402

from firmware_sim.classic_blocks import ClassicMemory  # noqa: E402
from reader import classic  # noqa: E402
from reader.base import RecordRefused  # noqa: E402
from reader.events import CardPresented, CardRemoved  # noqa: E402
from reader.pcsc import PCSCReader  # noqa: E402

pytestmark = [pytest.mark.pcsc, pytest.mark.timeout(60)]
EVENT_S = 5.0
UID = "A1B2C3D4"
MESSAGE = b"\xd2\x1e\x13application/vnd.boardbank.card1 classic-uk deed 3"


@pytest.fixture(autouse=True)
def pcscd() -> None:
    require_pcscd()


@pytest.fixture
def reader() -> Iterator[tuple[PCSCReader, Sink, int]]:
    with claim_port() as port:
        wait_card_state(VPCD_READERS[port], present=False)
        with started(f"pcsc://{VPCD_READERS[port]}", PCSCReader, EVENT_S) as (rdr, sink):
            yield rdr, sink, port


def test_write_on_a_new_classic_card_then_read_it_on_the_next_tap(reader: tuple[PCSCReader, Sink, int]) -> None:
    rdr, sink, port = reader
    rdr.set_known(lambda _uid: False)
    memory = ClassicMemory(bytes.fromhex(UID))
    with VirtualCard(UID, port, memory=memory) as card:
        (first,) = sink.wait_count(CardPresented, 1, EVENT_S)
        assert isinstance(first, CardPresented) and first.record is None  # a new card: no MAD yet
        rdr.write_record(UID, MESSAGE)
        assert bytes.fromhex("FF820000" "06A0A1A2A3A4A5") in card.apdus
        assert any(a[:5] == bytes.fromhex("FFD6000110") for a in card.apdus)  # MAD block 1
    assert bytes(memory.blocks[1][1:4]) == b"\x01\x03\xe1" and bytes(memory.blocks[3][:6]) == classic.MAD_KEY_A
    assert bytes(memory.blocks[7][:10]) == bytes.fromhex("D3F7D3F7D3F77F078840")
    sink.wait_count(CardRemoved, 1, EVENT_S)
    with VirtualCard(UID, port, memory=memory) as card:
        again = sink.wait_count(CardPresented, 2, EVENT_S)[-1]
        assert isinstance(again, CardPresented) and again.record == MESSAGE
        rdr.write_record(UID, MESSAGE, lock=True)  # formatted: the NDEF key; then key B locks the sector
        assert bytes(memory.blocks[7][6:10]) == bytes.fromhex("078F0F43")
        rdr.write_record(UID, MESSAGE)  # the very record, locked already: nothing to write, no error
        with pytest.raises(RecordRefused, match="is locked") as refused:  # the trailer read first: no write
            rdr.write_record(UID, MESSAGE[:-1] + b"4", replace=True)
        assert refused.value.locked and refused.value.current == MESSAGE
    sink.wait_count(CardRemoved, 2, EVENT_S)
    with VirtualCard(UID, port, memory=memory):
        last = sink.wait_count(CardPresented, 3, EVENT_S)[-1]
        assert isinstance(last, CardPresented) and last.record == MESSAGE


def test_a_known_classic_card_is_not_read(reader: tuple[PCSCReader, Sink, int]) -> None:
    rdr, sink, port = reader
    rdr.set_known(lambda uid: uid == UID)
    with VirtualCard(UID, port, memory=ClassicMemory(bytes.fromhex(UID))) as card:
        (event,) = sink.wait_count(CardPresented, 1, EVENT_S)
        assert isinstance(event, CardPresented) and event.record is None
        assert not [a for a in card.apdus if a[:2] in (b"\xff\x82", b"\xff\x86", b"\xff\xb0")]
