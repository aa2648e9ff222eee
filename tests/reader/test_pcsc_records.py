"""pcsc:// reads and writes a sticker's NDEF record (reader/pcsc_memory.py, reader/type2.py) with the
ACR122U's storage-card pseudo-APDUs, READ BINARY FF B0 and UPDATE BINARY FF D6 (PC/SC part 3), through
pcscd and vsmartcard's vpcd to a virtual NTAG213 (firmware_sim/mfrc522_cards.py's memory); a card the
registry knows is never read."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import Sink, started, wait_for  # noqa: E402
from pcscd import require_pcscd  # noqa: E402
from vcard import VPCD_READERS, VirtualCard, claim_port, wait_card_state  # noqa: E402

from firmware_sim.mfrc522_cards import NtagCard  # noqa: E402
from reader.base import ReaderError, RecordRefused  # noqa: E402
from reader.events import CardPresented  # noqa: E402
from reader.pcsc import PCSCReader  # noqa: E402

pytestmark = [pytest.mark.pcsc, pytest.mark.timeout(60)]
EVENT_S = 5.0
UID = "04A22B1C5D6E80"


@pytest.fixture(autouse=True)
def pcscd() -> None:
    require_pcscd()


@pytest.fixture
def reader() -> Iterator[tuple[PCSCReader, Sink, int]]:
    with claim_port() as port:
        wait_card_state(VPCD_READERS[port], present=False)
        with started(f"pcsc://{VPCD_READERS[port]}", PCSCReader, EVENT_S) as (rdr, sink):
            yield rdr, sink, port


def test_an_unknown_sticker_brings_its_record(reader: tuple[PCSCReader, Sink, int]) -> None:
    rdr, sink, port = reader
    rdr.set_known(lambda _uid: False)
    tag = NtagCard(bytes.fromhex(UID))
    tag.store_ndef(b"\xd1\x01\x05T\x02enhi")
    with VirtualCard(UID, port, memory=tag) as card:
        (event,) = sink.wait_count(CardPresented, 1, EVENT_S)
        assert isinstance(event, CardPresented) and event.record == b"\xd1\x01\x05T\x02enhi"
        assert bytes.fromhex("FFB0000010") in card.apdus


def test_a_known_card_is_not_read(reader: tuple[PCSCReader, Sink, int]) -> None:
    rdr, sink, port = reader
    rdr.set_known(lambda uid: uid == UID)
    tag = NtagCard(bytes.fromhex(UID))
    with VirtualCard(UID, port, memory=tag) as card:
        (event,) = sink.wait_count(CardPresented, 1, EVENT_S)
        assert isinstance(event, CardPresented) and event.record is None
        assert not [a for a in card.apdus if a[:2] == b"\xff\xb0"]


def test_write_then_lock(reader: tuple[PCSCReader, Sink, int]) -> None:
    rdr, sink, port = reader
    tag = NtagCard(bytes.fromhex(UID))
    message = b"\xd2\x1e\x131 ultimate-uk deed 3"
    with VirtualCard(UID, port, memory=tag) as card:
        sink.wait_count(CardPresented, 1, EVENT_S)
        rdr.write_record(UID, message, lock=True)
        assert any(a[:4] == b"\xff\xd6\x00\x04" for a in card.apdus)
        assert tag.locked(4) and tag.locked(16)
        rdr.write_record(UID, message)  # the very record, locked already: nothing to write, no error
        with pytest.raises(RecordRefused, match="is locked") as refused:  # read first: no write was tried
            rdr.write_record(UID, b"\xd1\x01\x01T\x00", replace=True)
        assert refused.value.locked and refused.value.current == message
    wait_for(lambda: rdr._card_uid is None, EVENT_S, "the card gone")
    with pytest.raises(ReaderError, match="not on the reader"):
        rdr.write_record(UID, message)
    from reader.type2 import read_ndef

    assert read_ndef(lambda p: b"".join(bytes(tag.pages[(p + i) % 45]) for i in range(4))) == message
