"""PCSCReader's event logic with fake pyscard cards (no pcscd): swaps, re-reports, failed reads, loss.

pyscard reports a card lifted and another of the same ATR put down between two of its polls as no
change at all, and a card it reports twice is possible after its monitor restarts; vpcd cannot stage
these, so fakes do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reader.events import CardPresented, CardRemoved, ReaderConnected, ReaderEvent, ReaderLost
from reader.pcsc import PCSCReader

NAME = "ACS ACR122U PICC Interface 00 00"


@dataclass
class FakeConnection:
    uid: bytes
    sw: tuple[int, int] = (0x90, 0x00)
    sent: list[list[int]] = field(default_factory=list)
    fail: bool = False

    def connect(self) -> None:
        if self.fail:
            raise OSError("card left during connect")

    def transmit(self, apdu: list[int]) -> tuple[list[int], int, int]:
        self.sent.append(apdu)
        if apdu[:2] == [0xFF, 0xCA]:
            return list(self.uid), *self.sw
        return [], 0x90, 0x00

    def disconnect(self) -> None:
        pass


@dataclass
class FakeCard:
    reader: str
    connection: FakeConnection

    def createConnection(self) -> FakeConnection:  # pyscard spells it so
        return self.connection


def make_reader(events: list[ReaderEvent]) -> PCSCReader:
    rdr = PCSCReader("pcsc://ACR122")
    rdr._sink = events.append
    direct: list[str] = []
    rdr._beep_off_direct = lambda: direct.append("tried")  # type: ignore[method-assign]  # no real ACR122U
    rdr._bind([NAME, "Other Reader 00 00"])
    assert direct == ["tried"]  # an ACR122U: beep off attempted without a card first
    return rdr


def card(uid: str, **kw: object) -> FakeCard:
    return FakeCard(NAME, FakeConnection(bytes.fromhex(uid), **kw))  # type: ignore[arg-type]


def kinds(events: list[ReaderEvent]) -> list[tuple[str, str]]:
    return [(type(e).__name__, getattr(e, "uid", getattr(e, "info", ""))) for e in events]


def test_swap_without_a_removal_ends_the_first_presentation() -> None:
    events: list[ReaderEvent] = []
    rdr = make_reader(events)
    first = card("DEADBEEF")
    rdr._on_cards_changed([first], [])
    rdr._on_cards_changed([card("04A22B1C")], [])
    rdr._on_cards_changed([card("04A22B1C")], [])  # reported again: same presentation
    assert kinds(events) == [
        ("ReaderConnected", NAME),
        ("CardPresented", "DEADBEEF"),
        ("CardRemoved", "DEADBEEF"),
        ("CardPresented", "04A22B1C"),
    ]
    assert first.connection.sent[1] == [0xFF, 0x00, 0x52, 0x00, 0x00]  # an ACR122U: beep off once


def test_a_card_on_another_reader_is_ignored() -> None:
    events: list[ReaderEvent] = []
    rdr = make_reader(events)
    rdr._on_cards_changed([FakeCard("Other Reader 00 00", FakeConnection(b"\x01\x02\x03\x04"))], [])
    assert [e for e in events if isinstance(e, CardPresented)] == []


def test_unreadable_cards_are_no_taps_but_end_the_previous_one() -> None:
    events: list[ReaderEvent] = []
    rdr = make_reader(events)
    rdr._on_cards_changed([card("DEADBEEF")], [])
    rdr._on_cards_changed([card("01020304", fail=True)], [])
    rdr._on_cards_changed([card("01020304", sw=(0x6A, 0x81))], [])
    rdr._on_cards_changed([FakeCard(NAME, FakeConnection(b"\x01\x02\x03"))], [])  # 3 bytes: not a UID
    assert [type(e) for e in events[1:]] == [CardPresented, CardRemoved]
    assert rdr.counters["uid_errors"] == 3


def test_reader_removal_ends_the_card_and_return_reconnects() -> None:
    events: list[ReaderEvent] = []
    rdr = make_reader(events)
    rdr._on_cards_changed([card("DEADBEEF")], [])
    rdr._on_readers_changed([], [NAME])
    rdr.cue("ok")  # no card connection any more: nothing to send, nothing raised
    rdr._on_readers_changed([NAME], [])
    assert [type(e) for e in events] == [ReaderConnected, CardPresented, CardRemoved, ReaderLost, ReaderConnected]
    lost = events[3]
    assert isinstance(lost, ReaderLost) and NAME in lost.reason


def test_cues_on_an_acr122u_go_through_the_card_connection() -> None:
    events: list[ReaderEvent] = []
    rdr = make_reader(events)
    on_reader = card("DEADBEEF")
    rdr._on_cards_changed([on_reader], [])
    rdr.cue("err")
    assert on_reader.connection.sent[-1] == [0xFF, 0x00, 0x40, 0b0101_0100, 0x04, 2, 2, 3, 0x01]


def test_stopped_readers_stay_silent() -> None:
    events: list[ReaderEvent] = []
    rdr = make_reader(events)
    rdr.stop()
    rdr._on_cards_changed([card("DEADBEEF")], [])
    rdr._on_readers_changed([], [NAME])
    assert [type(e) for e in events] == [ReaderConnected]
