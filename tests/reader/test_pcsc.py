"""The pcsc:// driver (reader/pcsc.py) against the real pcscd with vsmartcard's virtual readers.

Taps, removal and two readers are in the common suite (test_suite.py); this file covers what is PC/SC
specific: UID sizes, a bad status word, reader selection, ACR122U beep-off and cues, list_devices, and
reader removal and return (with a private pcscd that is killed and restarted, in a child process).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import Sink, started, wait_for  # noqa: E402
from pcscd import PRIVATE_NAME, PRIVATE_PORT, PrivatePcscd, require_pcscd  # noqa: E402
from vcard import SW_OK, VPCD_PORTS, VPCD_READERS, VirtualCard, claim_port, wait_card_state  # noqa: E402

from reader import pcsc as pcsc_module  # noqa: E402
from reader.base import ReaderError  # noqa: E402
from reader.events import CardPresented, CardRemoved, ReaderConnected, ReaderLost  # noqa: E402
from reader.pcsc import PCSCReader, acr122_cue_apdu  # noqa: E402

pytestmark = [pytest.mark.pcsc, pytest.mark.timeout(60)]

EVENT_S = 5.0


@pytest.fixture(autouse=True)
def pcscd() -> None:
    require_pcscd()


@pytest.fixture
def port() -> Iterator[int]:
    """One vpcd port (and its reader), for this test alone, with no card on it."""
    with claim_port() as claimed:
        wait_card_state(VPCD_READERS[claimed], present=False)
        yield claimed


@pytest.fixture
def reader(port: int) -> Iterator[tuple[PCSCReader, Sink]]:
    with started(f"pcsc://{VPCD_READERS[port]}", PCSCReader, EVENT_S) as running:
        yield running


@pytest.mark.parametrize("uid", ["DEADBEEF", "0102030405060708090A"])
def test_uids_of_every_size_are_read_with_ff_ca(reader: tuple[PCSCReader, Sink], port: int, uid: str) -> None:
    _rdr, sink = reader
    with VirtualCard(uid, port) as card:
        sink.wait_count(CardPresented, 1, EVENT_S)
        assert card.apdus[0] == bytes.fromhex("FFCA000000")
    sink.wait_count(CardRemoved, 1, EVENT_S)
    assert sink.taps() == [uid]
    (connected,) = sink.of(ReaderConnected)
    assert isinstance(connected, ReaderConnected) and connected.info == VPCD_READERS[port]


class MuteCard(VirtualCard):
    """A card that refuses GET DATA (SW 6A 81: function not supported)."""

    def answer(self, apdu: bytes) -> bytes:
        self.apdus.append(apdu)
        return b"\x6a\x81"


def test_a_refused_get_data_is_no_tap(reader: tuple[PCSCReader, Sink], port: int) -> None:
    rdr, sink = reader
    with MuteCard("DEADBEEF", port):
        wait_for(lambda: rdr.counters["uid_errors"] >= 1, EVENT_S, "the refused GET DATA")
        sink.quiet(0.3)
    assert sink.taps() == []


def test_a_card_already_on_the_reader_is_one_tap(port: int) -> None:
    with VirtualCard("DEADBEEF", port):
        wait_card_state(VPCD_READERS[port], present=True)
        sink = Sink()
        rdr = PCSCReader(f"pcsc://{VPCD_READERS[port]}")
        rdr.start(sink)
        try:
            sink.wait_count(CardPresented, 1, EVENT_S)
            sink.quiet(0.6)
            assert sink.taps() == ["DEADBEEF"]
        finally:
            rdr.stop()


def test_the_reader_is_chosen_by_a_percent_encoded_name_substring() -> None:
    sink = Sink()
    rdr = PCSCReader("pcsc://virtual%20pcd%2000%2001")  # case-insensitive
    rdr.start(sink)
    try:
        (connected,) = sink.wait_count(ReaderConnected, 1, EVENT_S)
        assert isinstance(connected, ReaderConnected) and connected.info == VPCD_READERS[VPCD_PORTS[1]]
    finally:
        rdr.stop()


def test_no_matching_reader_is_reader_lost_with_the_reason(port: int) -> None:
    sink = Sink()
    rdr = PCSCReader("pcsc://NoSuchReader")
    rdr.start(sink)
    try:
        (lost,) = sink.wait_count(ReaderLost, 1, EVENT_S)
        assert isinstance(lost, ReaderLost) and "'NoSuchReader'" in lost.reason
        with VirtualCard("DEADBEEF", port):
            sink.quiet(0.8)
        assert sink.taps() == []
    finally:
        rdr.stop()


def test_list_devices_names_the_virtual_readers() -> None:
    devices = PCSCReader.list_devices()
    assert {f"pcsc://{n}" for n in VPCD_READERS.values()} <= set(devices)


def test_an_acr122u_gets_its_beep_turned_off_and_plays_cues(
    reader: tuple[PCSCReader, Sink], port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rdr, sink = reader
    monkeypatch.setattr(pcsc_module, "ACR122_NAME", "VIRTUAL PCD")  # make the virtual reader an ACR122U
    assert rdr.is_acr122
    with VirtualCard("DEADBEEF", port) as card:
        sink.wait_count(CardPresented, 1, EVENT_S)
        assert card.apdus[:2] == [bytes.fromhex("FFCA000000"), bytes.fromhex("FF00520000")]
        rdr.cue("ok")
        rdr.cue("err")
        assert card.apdus[2:] == [bytes(acr122_cue_apdu("ok")), bytes(acr122_cue_apdu("err"))]
        assert card.answer(bytes(acr122_cue_apdu("go"))) == SW_OK
    assert rdr.counters["cue_errors"] == 0


def test_other_readers_play_no_cue(reader: tuple[PCSCReader, Sink], port: int) -> None:
    rdr, sink = reader
    assert not rdr.is_acr122
    with VirtualCard("DEADBEEF", port) as card:
        sink.wait_count(CardPresented, 1, EVENT_S)
        rdr.cue("ok")
        rdr.cue("boom")  # not a cue: ignored, like every reader does
        assert card.apdus == [bytes.fromhex("FFCA000000")]
    with pytest.raises(ReaderError, match="unknown cue 'boom'"):
        acr122_cue_apdu("boom")


def test_acr122_cue_apdus_follow_the_led_buzzer_format() -> None:
    for kind in ("tap", "ok", "err", "go", "cash"):
        apdu = acr122_cue_apdu(kind)
        assert apdu[:3] == [0xFF, 0x00, 0x40] and apdu[4] == 0x04 and len(apdu) == 9
        assert apdu[8] in (0, 1, 2, 3)  # buzzer link
    assert acr122_cue_apdu("err")[3] & 0b0100_0100 == 0b0100_0100  # red blinks


# ---------------------------------------------------------------------------------------------- reader loss

CLIENT = """
import json, sys, time
from reader.pcsc import PCSCReader
def sink(event):
    print(json.dumps({"kind": type(event).__name__, **{k: getattr(event, k) for k in event.__slots__}}), flush=True)
reader = PCSCReader(sys.argv[1])
reader.start(sink)
sys.stdin.read()
reader.stop()
"""


class Child:
    """A child process running a PCSCReader against the private daemon, its events as JSON lines."""

    def __init__(self, daemon: PrivatePcscd, url: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CLIENT, url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=daemon.env,
            cwd=str(HERE.parent.parent),
        )
        self.events: queue.Queue[dict[str, object]] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.events.put(json.loads(line))

    def expect(self, kind: str, timeout: float) -> dict[str, object]:
        """The next event, which must be of ``kind``, within ``timeout`` seconds."""
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no {kind} within {timeout} s") from None
        assert event["kind"] == kind, f"expected {kind}, got {event}"
        return event

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


def test_reader_removal_and_return_with_a_private_pcscd() -> None:
    why = PrivatePcscd.unavailable()
    if why:
        pytest.skip(f"reader removal needs a private pcscd: {why}")
    with claim_port([PRIVATE_PORT]), tempfile.TemporaryDirectory(prefix="bb-pcscd-") as tmp:
        daemon = PrivatePcscd(tmp)
        daemon.start()
        child = Child(daemon, f"pcsc://{PRIVATE_NAME} 00 00")
        try:
            assert child.expect("ReaderConnected", EVENT_S)["info"] == f"{PRIVATE_NAME} 00 00"
            with VirtualCard("DEADBEEF", PRIVATE_PORT):
                assert child.expect("CardPresented", EVENT_S)["uid"] == "DEADBEEF"
                lost_at = time.monotonic()
                daemon.stop()  # every reader of that daemon vanishes
                assert child.expect("CardRemoved", EVENT_S)["uid"] == "DEADBEEF"
                lost = child.expect("ReaderLost", EVENT_S)
                assert "removed" in str(lost["reason"])
                assert time.monotonic() - lost_at < 2.0  # pyscard polls the reader list every 0.5 s
            daemon.start()
            child.expect("ReaderConnected", EVENT_S)
            with VirtualCard("0102030405060708090A", PRIVATE_PORT):
                assert child.expect("CardPresented", EVENT_S)["uid"] == "0102030405060708090A"
        finally:
            child.close()
            daemon.stop()
