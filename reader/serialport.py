"""Serial plumbing shared by the serial drivers: open, read, write, notice loss, reopen with back-off.

A :class:`SerialLink` owns one thread that opens the port (the path may be a symlink that comes and
goes), reads what arrives and hands it to a :class:`LinkHandler`, calls the handler's ``on_tick`` about
every ``tick_s`` so it can send heartbeats, and closes the port when

* a read or write fails (the device vanished: a USB unplug, a pty whose master closed), or
* the device, once it has proved alive (the handler calls :meth:`SerialLink.alive` on every valid
  frame), says nothing for ``silence_s`` seconds (a hung firmware, a socat pair whose far end died).

Then it reopens with exponential back-off (``backoff_min_s`` doubling to ``backoff_max_s``). With the
defaults (silence 0.75 s, reads that wait at most 20 ms) a lost device is noticed within 0.8 s.

pyserial is imported when a link starts, so importing this module costs nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from reader.base import ReaderError

log = logging.getLogger(__name__)


class LinkHandler(Protocol):
    """What a driver implements to use a :class:`SerialLink` (all called from the link's thread)."""

    def on_open(self, link: SerialLink) -> None:
        """The port is open (greet the device here)."""

    def on_data(self, data: bytes) -> None:
        """Bytes arrived."""

    def on_tick(self, now: float) -> None:
        """Called every tick while open; ``now`` is time.monotonic() seconds (send heartbeats here)."""

    def on_close(self, reason: str) -> None:
        """The port was closed: the device vanished or went silent, or the link is stopping."""

    def on_open_failed(self, reason: str) -> None:
        """An attempt to open the port failed (``reason``: the error); the link tries again with back-off."""


def open_serial(path: str, baud: int, timeout: float) -> Any:
    """Open ``path`` with pyserial (8N1, no flow control); raises pyserial's or the OS's errors."""
    import serial  # lazily: the engine and the mock never need pyserial

    return serial.Serial(path, baudrate=baud, timeout=timeout, write_timeout=0.5, exclusive=True)


class SerialLink:
    """One serial port kept open for a driver; thread-safe :meth:`write`; :meth:`stop` is idempotent."""

    def __init__(
        self,
        path: str,
        baud: int,
        handler: LinkHandler,
        *,
        name: str = "",
        silence_s: float = 0.75,
        tick_s: float = 0.02,
        backoff_min_s: float = 0.05,
        backoff_max_s: float = 1.0,
        opener: Callable[[str, int, float], Any] = open_serial,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if baud <= 0:
            raise ReaderError(f"a baud rate is a positive number of bits per second, got {baud!r}")
        self.path = path
        self.baud = baud
        self.name = name or path
        self._handler = handler
        self._silence_s = silence_s
        self._tick_s = tick_s
        self._backoff = (backoff_min_s, backoff_max_s)
        self._opener = opener
        self._clock = clock
        self._port: Any = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_alive: float | None = None  # None until the device proves alive on this opening
        self.opens = 0
        """How many times the port was opened (1 + reconnections)."""
        self.last_open_error = ""
        """Why the last attempt to open failed ("" once open)."""

    # ------------------------------------------------------------------ control

    def start(self) -> None:
        """Start the link's thread; it opens the port and keeps it open until stop()."""
        if self._thread is not None:
            raise ReaderError(f"serial link {self.name!r} is already started")
        self._thread = threading.Thread(target=self._run, name=f"serial-{self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Close the port and end the thread; idempotent."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    @property
    def is_open(self) -> bool:
        return self._port is not None

    def alive(self) -> None:
        """The device said something valid: restart the silence timer."""
        self._last_alive = self._clock()

    def write(self, data: bytes) -> bool:
        """Send ``data`` if the port is open; False if it is not or the write failed (the reader sees why)."""
        with self._write_lock:
            port = self._port
            if port is None:
                return False
            try:
                port.write(data)
                return True
            except Exception as exc:  # pyserial raises SerialException/OSError/SerialTimeoutException
                log.debug("%s: write failed: %s", self.name, exc)
                return False

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            try:
                port = self._opener(self.path, self.baud, self._tick_s)
            except Exception as exc:  # missing path, permission, busy: try again later
                self.last_open_error = f"{type(exc).__name__}: {exc}"
                try:
                    self._handler.on_open_failed(self.last_open_error)
                except Exception as hook_exc:  # a handler bug must not end the link's thread
                    log.debug("%s: on_open_failed: %s", self.name, hook_exc)
                self._stop.wait(delay)
                delay = min(delay * 2, self._backoff[1])
                continue
            delay = self._backoff[0]
            self.last_open_error = ""
            self.opens += 1
            with self._write_lock:
                self._port = port
            self._last_alive = None
            reason = self._serve(port)
            with self._write_lock:
                self._port = None
            try:
                port.close()
            except Exception as exc:  # closing a vanished device may fail; it is closed either way
                log.debug("%s: close failed: %s", self.name, exc)
            self._handler.on_close(reason)

    def _serve(self, port: Any) -> str:
        """Read until the device is lost or the link stops; return why."""
        try:
            self._handler.on_open(self)
        except Exception as exc:
            return f"device error on open: {exc}"
        while not self._stop.is_set():
            try:
                waiting = port.in_waiting
                data = port.read(waiting if waiting else 1)
            except Exception as exc:  # SerialException / OSError: the device vanished
                return f"device error: {exc}"
            if data:
                self._handler.on_data(bytes(data))
            now = self._clock()
            last = self._last_alive
            if last is not None and now - last > self._silence_s:
                return f"silent for {now - last:.2f} s"
            self._handler.on_tick(now)
        return "stopped"
