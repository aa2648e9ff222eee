"""The mock reader's sticker memory (reader/mock.py): a presented card brings its NDEF message unless it is
known (a known card's tap never reads), write_record stores one on the card on the reader, a locked card
refuses a rewrite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reader import mock
from reader.base import ReaderError
from reader.events import CardPresented, ReaderEvent


@pytest.fixture
def rig() -> Iterator[tuple[mock.MockReader, list[ReaderEvent]]]:
    mock.forget_records()
    reader = mock.MockReader("mock://records")
    events: list[ReaderEvent] = []
    reader.start(events.append)
    yield reader, events
    reader.stop()
    mock.forget_records()


def taps(events: list[ReaderEvent]) -> list[CardPresented]:
    return [e for e in events if isinstance(e, CardPresented)]


def test_write_then_read_back(rig: tuple[mock.MockReader, list[ReaderEvent]]) -> None:
    reader, events = rig
    reader.set_known(lambda _uid: False)
    reader.present("04A10000000001")
    assert taps(events)[-1].record is None  # a blank sticker
    reader.write_record("04A10000000001", b"\xd1\x01\x01T\x00")
    reader.remove()
    reader.present("04A10000000001")
    assert taps(events)[-1].record == b"\xd1\x01\x01T\x00"
    with pytest.raises(ReaderError, match="not on"):
        reader.write_record("04A10000000002", b"x")


def test_known_cards_are_not_read(rig: tuple[mock.MockReader, list[ReaderEvent]]) -> None:
    reader, events = rig
    mock.store_record("00000103", b"data")
    reader.set_known(lambda uid: uid == "00000103")
    reads = reader.reads
    reader.tap("00000103")
    assert taps(events)[-1].record is None and reader.reads == reads
    reader.tap("00000116")
    assert reader.reads == reads + 1


def test_a_locked_record_cannot_be_rewritten(rig: tuple[mock.MockReader, list[ReaderEvent]]) -> None:
    reader, _events = rig
    reader.present("00000103")
    reader.write_record("00000103", b"one", lock=True)
    with pytest.raises(ReaderError, match="locked"):
        reader.write_record("00000103", b"two")
    assert mock.stored_record("00000103") == (b"one", True)


def test_readers_that_cannot_write_say_so() -> None:
    from reader.stdin import StdinReader

    with pytest.raises(ReaderError, match="cannot write"):
        StdinReader("stdin://").write_record("00000103", b"x")
