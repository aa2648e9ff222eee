"""The bridge simulator: the firmware's own logic behind a pty, its CLI, and the golden frames."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import serial

from firmware_sim.__main__ import execute
from firmware_sim.bridge import BridgeDevice, load_firmware_module
from reader.protocol import Frame, FrameDecoder, encode

pytestmark = pytest.mark.timeout(30)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "hardware" / "golden_frames.json").read_text())
GOLDEN_OK = {f["name"]: f for f in GOLDEN["frames"] if f["result"] == "ok"}


class Wire:
    """The host side of a pty, decoding what the device sends."""

    def __init__(self, path: str) -> None:
        self.port = serial.Serial(path, 115200, timeout=0.05)
        self.decoder = FrameDecoder()
        self.frames: list[Frame] = []
        self.raw = b""

    def send(self, data: bytes) -> None:
        self.port.write(data)

    def until(self, predicate: Any, timeout: float = 3.0) -> list[Frame]:
        deadline = time.monotonic() + timeout
        while not predicate(self.frames):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; frames so far: {self.frames}, raw {self.raw!r}")
            data = self.port.read(256)
            self.raw += data
            self.frames += self.decoder.feed(data)
        return self.frames


def make_app() -> tuple[Any, list[bytes]]:
    sent: list[bytes] = []
    app = load_firmware_module("bridge_app").BridgeApp(send=sent.append)
    return app, sent


def test_firmware_frames_are_the_golden_bytes() -> None:
    app, sent = make_app()
    app.boot()
    app.card_seen("04A22B1C")
    app.card_absent()
    app.feed(raw(GOLDEN_OK["ping"]["frame"]))
    hello = GOLDEN_OK["hello"]["frame"].replace("1.0.0", app.version)
    assert sent[0] == raw(hello)
    assert sent[1:] == [raw(GOLDEN_OK["empty: the card state after HELLO with no card on the reader"]["frame"]),
                        raw(GOLDEN_OK["tap, 4-byte UID"]["frame"]), raw(GOLDEN_OK["gone"]["frame"]),
                        encode("PONG", 0)]


def raw(text: str) -> bytes:
    return text.encode("latin-1")


@pytest.mark.parametrize(
    ("host_bytes", "answer"),
    [
        (encode("PING", 42), [Frame("PONG", ("42",))]),
        (encode("VER?"), [Frame("HELLO", ("bridge", "2", "2.0.0")), Frame("EMPTY", ())]),
        (encode("VER?", 2), [Frame("HELLO", ("bridge", "2", "2.0.0")), Frame("EMPTY", ())]),
        (encode("VER?", 3), [Frame("HELLO", ("bridge", "2", "2.0.0")), Frame("EMPTY", ())]),  # negotiation: a v2 device says 2
        (b"$VER?*7E\n", [Frame("ERR", ("3", "bad frame"))]),  # a v1 frame is not a v2 frame
        (encode("ACK", "04A22B1C"), []),  # an ACK of no pending TAP is ignored
        (encode("PING", 9, "extra"), [Frame("PONG", ("9",))]),  # extra trailing arguments are ignored
        (encode("BEEP", "go"), []),
        (encode("LED", "red"), []),
        (encode("PING", 1)[:-5] + b"0000\n", [Frame("ERR", ("1", "bad checksum"))]),
        (encode("FROB"), [Frame("ERR", ("2", "unknown verb FROB"))]),
        (encode("TAP", "04A22B1C"), [Frame("ERR", ("2", "unknown verb TAP"))]),  # a device verb sent to the device
        (encode("BEEP", "loud"), [Frame("ERR", ("3", "bad frame"))]),
        (encode("ACK", "04a22b1c"), [Frame("ERR", ("3", "bad frame"))]),
        (b"$" + b"P" * 80 + b"\n", [Frame("ERR", ("4", "overlong line"))]),
        (b"\x00\xffnoise\n", []),
    ],
    ids=["ping", "ver", "ver-2", "ver-3", "v1-frame", "ack-nothing", "ping-extra", "beep", "led", "checksum", "unknown", "device-verb", "bad-args", "bad-ack", "overlong", "noise"],
)
def test_firmware_answers_host_frames_as_specified(host_bytes: bytes, answer: list[Frame]) -> None:
    app, sent = make_app()
    app.feed(host_bytes)
    assert FrameDecoder().feed(b"".join(sent)) == answer


def test_firmware_poll_needs_three_misses_before_gone() -> None:
    app, sent = make_app()
    app.poll("DEADBEEF")
    app.poll(None)
    app.poll("DEADBEEF")  # a flicker: still the same presentation
    app.poll(None)
    app.poll(None)
    assert FrameDecoder().feed(b"".join(sent)) == [Frame("TAP", ("DEADBEEF",))]
    app.poll(None)
    app.poll(None)
    app.poll(None)
    assert FrameDecoder().feed(b"".join(sent))[-1] == Frame("GONE", ("DEADBEEF",))


def _taps(sent: list[bytes]) -> int:
    return FrameDecoder().feed(b"".join(sent)).count(Frame("TAP", ("DEADBEEF",)))


def test_a_tap_repeats_every_four_polls_until_acknowledged() -> None:
    app, sent = make_app()
    app.poll("DEADBEEF")
    for _ in range(3):
        app.poll("DEADBEEF")
    assert _taps(sent) == 1
    app.poll("DEADBEEF")  # the fourth poll since the TAP: no ACK yet, so it goes again
    assert _taps(sent) == 2
    app.feed(encode("ACK", "CAFEBABE"))  # an ACK of another card changes nothing
    for _ in range(4):
        app.tick()
    assert _taps(sent) == 3
    app.feed(encode("ACK", "DEADBEEF"))
    for _ in range(20):
        app.poll("DEADBEEF")
    assert _taps(sent) == 3
    assert (app.counters["repeats"], app.counters["acks"]) == (2, 1)


def test_a_lifted_card_is_not_repeated() -> None:
    app, sent = make_app()
    app.poll("DEADBEEF")
    app.card_absent()
    for _ in range(10):
        app.tick()
        app.poll(None)
    frames = FrameDecoder().feed(b"".join(sent))
    assert frames == [Frame("TAP", ("DEADBEEF",)), Frame("GONE", ("DEADBEEF",))]


def test_the_state_report_after_hello_is_repeated_until_acknowledged() -> None:
    app, sent = make_app()
    app.poll("DEADBEEF")
    app.feed(encode("ACK", "DEADBEEF"))
    app.feed(encode("VER?", 2))  # HELLO, then TAP DEADBEEF as the card state
    assert _taps(sent) == 2
    for _ in range(4):
        app.tick()
    assert _taps(sent) == 3  # the state report was not acknowledged


def test_device_on_a_pty_speaks_the_protocol(tmp_path: Path) -> None:
    with BridgeDevice(link=str(tmp_path / "tty")) as device:
        assert os.path.islink(device.path)
        wire = Wire(device.path)
        wire.send(encode("VER?"))
        wire.until(lambda fs: Frame("HELLO", ("bridge", "2", "2.0.0+sim")) in fs)
        device.tap("04:a2:2b:1c")
        device.dup()
        device.badsum()
        device.remove()
        device.garbage(5)
        wire.until(lambda fs: fs.count(Frame("TAP", ("04A22B1C",))) >= 2)
        wire.until(lambda _fs: wire.decoder.stats["checksum"] == 1)  # the GONE went out damaged
        assert device.counters["dups"] == 1
        assert device.counters["garbage_bytes"] == 5
        with pytest.raises(ValueError, match="'12'"):
            device.tap("12")
        wire.port.close()


def test_unplug_removes_the_link_and_replug_restores_it(tmp_path: Path) -> None:
    with BridgeDevice(link=str(tmp_path / "tty")) as device:
        first = os.readlink(device.path)
        device.unplug()
        assert not os.path.exists(device.path)
        assert not device.plugged
        device.replug()
        assert os.path.exists(device.path)
        assert device.plugged
        wire = Wire(device.path)
        wire.send(encode("PING", 5))
        wire.until(lambda fs: Frame("PONG", ("5",)) in fs)
        wire.port.close()
        assert device.counters["unplugs"] == 1 and device.counters["replugs"] == 1
        assert first.startswith("/dev/pts/")


def test_stall_holds_output_and_ignores_input(tmp_path: Path) -> None:
    with BridgeDevice(link=str(tmp_path / "tty")) as device:
        wire = Wire(device.path)
        device.stall(300)
        wire.send(encode("PING", 1))  # dropped: the device is deaf
        device.tap("DEADBEEF")  # held: sent when the stall ends
        t0 = time.monotonic()
        wire.until(lambda fs: Frame("TAP", ("DEADBEEF",)) in fs)
        assert time.monotonic() - t0 >= 0.2
        assert Frame("PONG", ("1",)) not in wire.frames
        assert device.counters["dropped_stall_in"] > 0
        wire.port.close()


def test_cli_executes_commands_and_reports_errors() -> None:
    device = BridgeDevice()
    out = io.StringIO()
    device.start()
    try:
        assert execute(device, "tap DEADBEEF\n", out)
        assert device.card == "DEADBEEF"
        assert execute(device, "remove", out)
        assert device.card is None
        assert execute(device, "frobnicate 3", out)
        assert execute(device, "garbage many", out)
        assert execute(device, "tap", out)
        assert execute(device, "# comment", out)
        assert execute(device, "counters", out)
        assert not execute(device, "quit", out)
    finally:
        device.stop()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("error: unknown command 'frobnicate 3'")
    assert lines[1] == "error: garbage needs one non-negative integer (a byte count), got 'garbage many'"
    assert lines[2].startswith("error: tap needs one UID")
    assert "writes=" in lines[3] and "bytes_out=" in lines[3]


def test_python_m_firmware_sim_prints_the_path_first_and_quits_on_eof(tmp_path: Path) -> None:
    link = tmp_path / "ttySIM"
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_sim", "bridge", "--link", str(link)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        ready, _, _ = select.select([proc.stdout], [], [], 10.0)
        assert ready, "the simulator printed nothing"
        assert proc.stdout.readline().strip() == str(link)
        wire = Wire(str(link))
        proc.stdin.write("tap 04A22B1C5D6E80\nbogus\n")
        proc.stdin.flush()
        wire.until(lambda fs: Frame("TAP", ("04A22B1C5D6E80",)) in fs, timeout=5.0)
        wire.port.close()
        proc.stdin.close()  # EOF = quit
        assert proc.wait(timeout=10) == 0
        assert proc.stdout.read().startswith("error: unknown command 'bogus'")
        assert not link.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)
