"""pn532:// reads and writes a sticker's NDEF record (reader/pn532_memory.py, reader/type2.py) with
InDataExchange (UM0701-02 7.3.8) carrying the NTAG's READ and WRITE, against the PN532 simulator's NTAG213
(firmware_sim/pn532_card.py); a card the registry knows is never read."""

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
from reader.base import ReaderError
from reader.events import CardPresented, CardRemoved
from reader.pn532 import PN532Reader
from reader.type2 import read_ndef

pytestmark = pytest.mark.timeout(30)
UID = "04A22B1C5D6E80"
MESSAGE = b"\xd2\x1e\x131 ultimate-uk deed 3"


@pytest.fixture
def running() -> Iterator[tuple[PN532Device, PN532Reader, Sink]]:
    with tempfile.TemporaryDirectory(prefix="bb-pn532-") as tmp:
        device = PN532Device(link=os.path.join(tmp, "ttyPN532"), seed=11)
        device.start()
        try:
            with started(f"pn532://{device.path}", PN532Reader, 3.0) as (reader, sink):
                yield device, reader, sink
        finally:
            device.stop()


def memory_of(device: PN532Device) -> bytes:
    card = device.chip.card
    assert card is not None
    return bytes(card.memory)


def test_write_then_read_back_on_a_new_presentation(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, reader, sink = running
    reader.set_known(lambda _uid: False)
    device.tap(UID)
    (first,) = sink.wait_count(CardPresented, 1, 3.0)
    assert isinstance(first, CardPresented) and first.record == b""  # a blank NTAG213: an empty message
    done = threading.Event()
    errors: list[Exception] = []

    def write() -> None:
        try:
            reader.write_record(UID, MESSAGE, lock=True)
        except Exception as exc:
            errors.append(exc)
        done.set()

    threading.Thread(target=write).start()
    assert done.wait(6.0) and not errors, errors
    memory = memory_of(device)
    assert read_ndef(lambda p: (memory + memory)[p * 4:p * 4 + 16]) == MESSAGE
    assert memory[10:12] == b"\xff\xff"  # the static lock bytes were set
    device.remove()
    sink.wait_count(CardRemoved, 1, 3.0)
    device.tap(UID)
    event = sink.wait_count(CardPresented, 2, 3.0)[-1]
    assert isinstance(event, CardPresented) and event.record == MESSAGE


def test_a_known_card_is_not_read(running: tuple[PN532Device, PN532Reader, Sink]) -> None:
    device, reader, sink = running
    reader.set_known(lambda uid: uid == UID)
    device.tap(UID)
    (event,) = sink.wait_count(CardPresented, 1, 3.0)
    assert isinstance(event, CardPresented) and event.record is None
    assert reader.counters.get("record_errors", 0) == 0


def test_a_write_without_the_card_fails_in_time(running: tuple[PN532Device, PN532Reader, Sink], monkeypatch: pytest.MonkeyPatch) -> None:
    from reader import pn532_memory

    monkeypatch.setattr(pn532_memory, "WRITE_WAIT_S", 0.3)
    _device, reader, _sink = running
    with pytest.raises(ReaderError, match="not on the reader"):
        reader.write_record(UID, MESSAGE)
