"""The simulators' ``tap UID KIND [CONTENT] [locked]`` (firmware_sim/sim_cards.py, hardware/protocol.md
"Simulated cards with memory"): an NTAG or a MIFARE Classic with memory, presented through the command line
of ``python -m firmware_sim``, is read by the host's driver and resolved end to end (the `bridge` firmware
logic and the whole `firmware` on the simulated MFRC522; the PN532); a locked one refuses a new record."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_sim.__main__ import build_device, execute
from firmware_sim.device import SimDevice
from firmware_sim.sim_cards import TapSpec, boardbank_record, parse_tap
from reader import open_reader
from reader.base import Reader, RecordRefused
from reader.events import CardPresented, CardRemoved, ReaderConnected
from reader.registry import CardRegistry
from ui.cardrecord import resolve

pytestmark = pytest.mark.timeout(60)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reader"))
from harness import Sink  # noqa: E402

NTAG = "04A1B2C3D4E5F6"
CLASSIC = "A1B2C3D4"


def test_the_tap_line_is_read_strictly() -> None:
    assert parse_tap("tap 04:a1:b2:c3:d4:e5:f6") == TapSpec(NTAG)
    spec = parse_tap('tap 04A1B2C3D4E5F6 ntag213 "1 classic-us deed 7" locked')
    assert spec == TapSpec(NTAG, "ntag213", boardbank_record("1 classic-us deed 7"), True)
    assert spec.message is not None and spec.message.endswith(b"application/vnd.boardbank.card1 classic-us deed 7")
    assert parse_tap(f"tap {CLASSIC} classic").message is None
    assert parse_tap(f"tap {NTAG} ntag215 ndef:D1010154").message == bytes.fromhex("D1010154")
    for bad in (f"tap {NTAG} classic", f"tap {CLASSIC} ntag213", f"tap {NTAG} mifare", "tap",
                f'tap {NTAG} ntag213 "a" "b"', f"tap {NTAG} ntag213 ndef:zz", f'tap {NTAG} ntag213 "open'):
        with pytest.raises(ValueError):
            parse_tap(bad)


def test_a_bad_tap_line_is_one_error_line_and_the_simulator_goes_on() -> None:
    device = build_device("bridge", None)
    out = io.StringIO()
    assert execute(device, f"tap {NTAG} mifare", out)
    assert out.getvalue().startswith("error: a card kind is one of ntag213")


@pytest.fixture(params=["bridge", "firmware", "pn532"])
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[SimDevice, Reader, Sink]]:
    kind = str(request.param)
    device = build_device(kind, str(tmp_path / f"tty{kind}"))
    device.start()
    reader = open_reader(f"pn532://{device.path}" if kind == "pn532" else f"serial://{device.path}")
    sink = Sink()
    reader.set_known(lambda _uid: False)  # a unit that knows no card: every card's memory is read
    reader.start(sink)
    try:
        if kind != "pn532":
            sink.wait_count(ReaderConnected, 1)
        yield device, reader, sink
    finally:
        reader.stop()
        device.stop()


def present(device: SimDevice, sink: Sink, line: str, n: int) -> CardPresented:
    assert execute(device, line, io.StringIO())
    event = sink.wait_count(CardPresented, n, 8.0)[-1]
    assert isinstance(event, CardPresented)
    return event


def test_a_forged_sticker_is_read_through_the_simulator_and_refused(rig: tuple[SimDevice, Reader, Sink]) -> None:
    device, _reader, sink = rig
    registry = CardRegistry.in_memory()
    event = present(device, sink, f'tap {NTAG} ntag213 "1 classic-us deed 7"', 1)
    assert event.uid == NTAG and event.record == boardbank_record("1 classic-us deed 7")
    refused = resolve(event.uid, event.record, registry, "ultimate-uk")
    assert refused.refusal == "error.sticker_other_edition" and len(registry) == 0
    assert execute(device, "remove", io.StringIO())
    sink.wait_count(CardRemoved, 1, 8.0)
    event = present(device, sink, f'tap {CLASSIC} classic "1 - player 2"', 2)
    assert event.uid == CLASSIC and event.record == boardbank_record("1 - player 2")
    assert resolve(event.uid, event.record, registry, "ultimate-uk").role == ("player", 2)


def test_a_locked_sticker_refuses_a_new_record_and_keeps_its_own(rig: tuple[SimDevice, Reader, Sink]) -> None:
    device, reader, sink = rig
    theirs = boardbank_record("1 ultimate-uk deed 7")
    present(device, sink, f'tap {NTAG} ntag213 "1 ultimate-uk deed 7" locked', 1)
    with pytest.raises(RecordRefused, match="is locked") as refused:
        reader.write_record(NTAG, boardbank_record("1 ultimate-uk deed 3"), replace=True)
    assert refused.value.locked and refused.value.current == theirs
    assert execute(device, "remove", io.StringIO())
    sink.wait_count(CardRemoved, 1, 8.0)
    again = present(device, sink, f"tap {NTAG}", 2)  # the same card, as it was left
    assert again.record == theirs


def test_the_simulators_help_lists_the_cards_with_memory(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_sim.__main__ import main

    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "tap UID KIND [CONTENT] [locked]" in text and "ntag213/ntag215/ntag216/classic" in text
