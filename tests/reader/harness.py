"""Harnesses for the one reader suite and the helpers tests share.

A harness puts cards on one reader backend and pulls its plug; the suite (``test_suite.py``) opens the
reader from ``harness.url`` with :func:`reader.open_reader` and checks the events. A harness factory is a
context manager factory: ``with factory() as h: ...``; it must allow two instances at once (the suite
runs two readers of one backend into one sink).

A harness whose reader cannot sense removal (``senses_removal`` False) may set ``suppression_window``
(seconds; default :data:`reader.debounce.DEFAULT_WINDOW_S`): the suite waits that long after lifting a
card before presenting the same card again.

Backends register here (:data:`HARNESSES`: mock, stdin, bridge) or in a module ``harness_<name>.py``
next to this one that exposes ``HARNESSES = {"name": factory}``; the suite puts this folder on
``sys.path`` first, so such a module may ``import harness`` for :func:`wait_for`, :class:`Sink` and
:class:`SimDeviceHarness`.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

from firmware_sim.device import SimDevice
from reader import open_reader
from reader.base import Reader
from reader.events import CardPresented, CardRemoved, ReaderConnected, ReaderEvent, ReaderLost

T = TypeVar("T")
R = TypeVar("R", bound=Reader)


class Harness(Protocol):
    """What the suite needs from a backend's test rig."""

    name: str
    url: str  # the URL to open_reader()
    senses_removal: bool  # False: same-UID suppression window applies instead
    supports_unplug: bool  # False: unplug()/replug() are no-ops and the unplug tests skip

    def present(self, uid: str) -> None:
        """Put a card on the reader (it stays until remove())."""

    def remove(self) -> None:
        """Lift the card off the reader."""

    def unplug(self) -> None:
        """Pull the reader's plug (or make it go silent)."""

    def replug(self) -> None:
        """Plug it in again."""


HarnessFactory = Callable[[], contextlib.AbstractContextManager[Harness]]


# ---------------------------------------------------------------------------------------------- helpers


def wait_for(predicate: Callable[[], T], timeout: float, what: str = "condition") -> T:
    """Poll ``predicate`` until it returns something truthy, at most ``timeout`` seconds; return it.

    Raises AssertionError naming ``what`` on timeout: tests wait with deadlines, never fixed sleeps.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:.2f} s waiting for {what}")
        time.sleep(0.005)


class Sink:
    """A thread-safe event sink that records events with the time they arrived (time.monotonic s)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.events: list[ReaderEvent] = []
        self.arrivals: list[float] = []

    def __call__(self, event: ReaderEvent) -> None:
        with self._lock:
            self.events.append(event)
            self.arrivals.append(time.monotonic())

    def snapshot(self) -> list[ReaderEvent]:
        with self._lock:
            return list(self.events)

    def of(self, kind: type[ReaderEvent] | tuple[type[ReaderEvent], ...], reader: str | None = None) -> list[ReaderEvent]:
        """The events of one kind (optionally from one reader), in arrival order."""
        return [e for e in self.snapshot() if isinstance(e, kind) and (reader is None or e.reader == reader)]

    def taps(self, reader: str | None = None) -> list[str]:
        """The UIDs of the CardPresented events so far."""
        return [e.uid for e in self.of(CardPresented, reader) if isinstance(e, CardPresented)]

    def wait_count(self, kind: type[ReaderEvent], n: int, timeout: float = 5.0, reader: str | None = None) -> list[ReaderEvent]:
        """Wait until at least ``n`` events of ``kind`` arrived; return them."""
        wait_for(lambda: len(self.of(kind, reader)) >= n, timeout, f"{n} x {kind.__name__} (have {self.snapshot()})")
        return self.of(kind, reader)

    def quiet(self, seconds: float) -> None:
        """Wait ``seconds`` (short: < 1 s) and assert that no event arrived meanwhile."""
        before = len(self.snapshot())
        time.sleep(seconds)
        after = self.snapshot()
        assert len(after) == before, f"unexpected events while quiet: {after[before:]}"


# ---------------------------------------------------------------------------------------------- mock


_COUNTER = itertools.count(1)


class MockHarness:
    """Drives ``mock://`` readers through the module-level tray of :mod:`reader.mock`."""

    name = "mock"
    senses_removal = True
    supports_unplug = True

    def __init__(self) -> None:
        self.url = f"mock://suite{next(_COUNTER)}"

    def present(self, uid: str) -> None:
        from reader import mock

        mock.present(self.url, uid)

    def remove(self) -> None:
        from reader import mock

        mock.remove(self.url)

    def unplug(self) -> None:
        from reader import mock

        mock.unplug(self.url)

    def replug(self) -> None:
        from reader import mock

        mock.replug(self.url)


@contextlib.contextmanager
def mock_harness() -> Iterator[Harness]:
    yield MockHarness()


# ---------------------------------------------------------------------------------------------- stdin


class StdinHarness:
    """Writes ``tap UID`` / ``remove`` lines into a pipe read by ``stdin://?fd=N``."""

    name = "stdin"
    senses_removal = True
    supports_unplug = False

    def __init__(self) -> None:
        self._r, self._w = os.pipe()
        self.url = f"stdin://?fd={self._r}"

    def _line(self, text: str) -> None:
        os.write(self._w, (text + "\n").encode("ascii"))

    def present(self, uid: str) -> None:
        self._line(f"tap {uid}")

    def remove(self) -> None:
        self._line("remove")

    def unplug(self) -> None:
        """A pipe cannot be unplugged (supports_unplug is False)."""

    def replug(self) -> None:
        """A pipe cannot be unplugged (supports_unplug is False)."""

    def close(self) -> None:
        for fd in (self._w, self._r):
            with contextlib.suppress(OSError):
                os.close(fd)


@contextlib.contextmanager
def stdin_harness() -> Iterator[Harness]:
    h = StdinHarness()
    try:
        yield h
    finally:
        h.close()


# ---------------------------------------------------------------------------------------------- pty devices


class SimDeviceHarness:
    """A harness around any :class:`firmware_sim.device.SimDevice` (the bridge here; the PN532 elsewhere).

    ``url_template`` gets the device's stable link path as ``{path}``, e.g. ``serial://{path}?baud=115200``.
    """

    supports_unplug = True

    def __init__(self, name: str, device: SimDevice, url_template: str, senses_removal: bool = True) -> None:
        self.name = name
        self.device = device
        self.url = url_template.format(path=device.path)
        self.senses_removal = senses_removal

    def present(self, uid: str) -> None:
        self.device.tap(uid)

    def remove(self) -> None:
        self.device.remove()

    def unplug(self) -> None:
        self.device.unplug()

    def replug(self) -> None:
        self.device.replug()


@contextlib.contextmanager
def bridge_harness() -> Iterator[Harness]:
    from firmware_sim.bridge import BridgeDevice

    with tempfile.TemporaryDirectory(prefix="bb-bridge-") as tmp:
        device = BridgeDevice(link=os.path.join(tmp, "ttyBRIDGE"))
        device.start()
        try:
            yield SimDeviceHarness("bridge", device, "serial://{path}?baud=115200")
        finally:
            device.stop()


HARNESSES: dict[str, HarnessFactory] = {
    "mock": mock_harness,
    "stdin": stdin_harness,
    "bridge": bridge_harness,
}

__all__ = [
    "HARNESSES",
    "CardPresented",
    "CardRemoved",
    "Harness",
    "HarnessFactory",
    "ReaderConnected",
    "ReaderLost",
    "SimDeviceHarness",
    "Sink",
    "wait_for",
]


@contextlib.contextmanager
def started(url: str, kind: type[R], timeout: float) -> Iterator[tuple[R, Sink]]:
    """The reader at ``url`` (a ``kind``) started into a new :class:`Sink` and connected within ``timeout``
    seconds; stopped on the way out."""
    sink = Sink()
    rdr = open_reader(url)
    assert isinstance(rdr, kind), rdr
    rdr.start(sink)
    try:
        sink.wait_count(ReaderConnected, 1, timeout)
        yield rdr, sink
    finally:
        rdr.stop()
