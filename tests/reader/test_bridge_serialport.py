"""reader/serialport.py, the bridge's transport: back-off, loss on error or silence, writes while closed."""

from __future__ import annotations

import itertools
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import wait_for

from reader.base import ReaderError
from reader.serialport import SerialLink

pytestmark = pytest.mark.timeout(30)


class FakePort:
    """A port whose reads return queued chunks, or raise once ``fail`` is set."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.written: list[bytes] = []
        self.fail = False
        self.closed = False

    @property
    def in_waiting(self) -> int:
        return len(self.chunks[0]) if self.chunks else 0

    def read(self, n: int) -> bytes:
        if self.fail:
            raise OSError("device reports readiness to read but returned no data")
        if self.chunks:
            return self.chunks.pop(0)
        time.sleep(0.005)  # the real port waits up to its timeout
        return b""

    def write(self, data: bytes) -> int:
        if self.fail:
            raise OSError("write failed")
        self.written.append(data)
        return len(data)

    def close(self) -> None:
        self.closed = True


class Recorder:
    """A LinkHandler that records calls and calls alive() on data."""

    def __init__(self) -> None:
        self.link: SerialLink | None = None
        self.opened = 0
        self.data: list[bytes] = []
        self.closes: list[str] = []
        self.ticks = 0
        self.lock = threading.Lock()

    def on_open(self, link: SerialLink) -> None:
        self.link = link
        self.opened += 1
        link.write(b"hello")

    def on_data(self, data: bytes) -> None:
        self.data.append(data)
        assert self.link is not None
        self.link.alive()

    def on_tick(self, now: float) -> None:
        self.ticks += 1

    def on_close(self, reason: str) -> None:
        with self.lock:
            self.closes.append(reason)


def test_open_failures_back_off_exponentially_up_to_the_cap() -> None:
    attempts: list[float] = []
    port = FakePort()

    def opener(path: str, baud: int, timeout: float) -> Any:
        attempts.append(time.monotonic())
        if len(attempts) < 5:
            raise FileNotFoundError(f"no such file: {path}")
        return port

    rec = Recorder()
    link = SerialLink("/dev/none", 115200, rec, opener=opener, backoff_min_s=0.02, backoff_max_s=0.08)
    link.start()
    try:
        wait_for(lambda: rec.opened == 1, 5.0, "the fifth attempt to open")
        gaps = [b - a for a, b in itertools.pairwise(attempts)]
        assert gaps[0] >= 0.018 and gaps[1] >= 0.038 and gaps[2] >= 0.078 and gaps[3] >= 0.078
        assert gaps[3] < 0.3  # capped, not 0.16
        assert port.written == [b"hello"]
        assert link.last_open_error == "" and link.opens == 1
    finally:
        link.stop()
    assert rec.closes == ["stopped"]
    assert port.closed


def test_a_failing_read_closes_and_reopens() -> None:
    ports = [FakePort(), FakePort()]

    def opener(path: str, baud: int, timeout: float) -> Any:
        return ports[min(rec.opened, 1)]

    rec = Recorder()
    link = SerialLink("/dev/x", 9600, rec, opener=opener, backoff_min_s=0.01)
    link.start()
    try:
        wait_for(lambda: rec.opened == 1, 5.0, "open")
        ports[0].fail = True
        wait_for(lambda: rec.opened == 2, 5.0, "the reopen")
        assert rec.closes[0].startswith("device error: ")
        assert ports[1].written == [b"hello"]  # greeted again after the reopen
    finally:
        link.stop()


def test_silence_after_proof_of_life_closes_within_the_limit() -> None:
    port = FakePort()
    rec = Recorder()
    link = SerialLink("/dev/x", 115200, rec, opener=lambda p, b, t: port, silence_s=0.2)
    link.start()
    try:
        wait_for(lambda: rec.opened == 1, 5.0, "open")
        time.sleep(0.3)
        assert rec.closes == []  # never proved alive: no silence timer yet (the driver greets it)
        port.chunks.append(b"$PONG 1*07\n")
        t0 = time.monotonic()
        wait_for(lambda: rec.closes, 2.0, "the silence to be noticed")
        assert rec.closes[0].startswith("silent for")
        assert time.monotonic() - t0 < 0.5
        assert rec.data == [b"$PONG 1*07\n"]
        assert rec.ticks > 0
    finally:
        link.stop()


def test_write_while_closed_is_refused_not_raised() -> None:
    rec = Recorder()
    link = SerialLink("/dev/x", 115200, rec, opener=lambda p, b, t: FakePort())
    assert link.write(b"x") is False
    with pytest.raises(ReaderError, match="positive"):
        SerialLink("/dev/x", 0, rec)
    link.start()
    with pytest.raises(ReaderError, match="already started"):
        link.start()
    link.stop()
    link.stop()
