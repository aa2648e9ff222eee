"""A simulated serial device on a pseudo-terminal, with faults on demand.

A :class:`SimDevice` owns the master side of a pty; the host under test opens the slave side (or a
stable symlink to it, ``link``) as if it were a USB serial port. One I/O thread reads what the host
sends and hands it to :meth:`SimDevice.on_host_bytes`; :meth:`SimDevice.write` sends bytes to the host
from any thread. Faults model what real readers do: ``unplug`` (the pty vanishes: the host's read
fails), ``replug`` (a new pty behind the same link), ``stall`` (the device goes silent and deaf for a
while), ``garbage`` (line noise), and the device-specific ``dup`` / ``badsum``.

Subclasses (``firmware_sim.bridge``, ``firmware_sim.pn532``) implement the device's own protocol.
"""

from __future__ import annotations

import abc
import contextlib
import errno
import os
import random
import select
import threading
import time
import tty
from collections import Counter

from firmware_sim.sim_cards import TapSpec

_POLL_S = 0.02  # seconds: how often the I/O thread wakes when nothing happens


class SimDeviceError(RuntimeError):
    """A simulator was used out of order (e.g. written to before ``start()``)."""


class SimDevice(abc.ABC):
    """A simulated serial device on a pseudo-terminal. Thread-safe; start() returns once the pty exists."""

    def __init__(self, link: str | None = None, *, seed: int | None = None) -> None:
        self._link = link
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_name = ""
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._stalled_until = 0.0  # time.monotonic() seconds
        self._held: list[bytes] = []  # bytes written during a stall, sent when it ends
        self._last_frame = b""  # the last frame written (for dup())
        self._rng = random.Random(seed)
        self.counters: Counter[str] = Counter()
        """Event counts: ``bytes_out``, ``bytes_in``, ``writes``, ``dropped_unplugged``, ``dropped_stall_in``,
        ``dropped_full``, ``garbage_bytes``, ``unplugs``, ``replugs``, ``stalls`` and device-specific ones."""

    # ------------------------------------------------------------------ lifecycle

    @property
    def path(self) -> str:
        """The link if given, else the pty slave name (``/dev/pts/N``)."""
        return self._link if self._link else self._slave_name

    @property
    def plugged(self) -> bool:
        """True while the pty exists (between start/replug and unplug/stop)."""
        with self._lock:
            return self._master is not None

    def start(self) -> None:
        """Create the pty (raw mode), point the link at it and start the I/O thread."""
        with self._lock:
            if self._thread is not None:
                raise SimDeviceError("start() called twice on the same simulated device")
            self._open_pty()
            self._stop.clear()
            self._thread = threading.Thread(target=self._io_loop, name=f"sim-{type(self).__name__}", daemon=True)
            self._thread.start()
        self.on_plugged()

    def stop(self) -> None:
        """Stop the I/O thread, close the pty and remove the link; idempotent."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        with self._lock:
            self._close_pty()
            self._thread = None

    def __enter__(self) -> SimDevice:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ faults

    def unplug(self) -> None:
        """Close the master and remove the link: the host's next read fails, or it sees silence."""
        with self._lock:
            self._close_pty()
            self._held.clear()
            self.counters["unplugs"] += 1

    def replug(self) -> None:
        """A new pty behind the same link (a new ``/dev/pts/N``); then the :meth:`on_replug` hook."""
        with self._lock:
            self._close_pty()
            self._open_pty()
            self.counters["replugs"] += 1
        self.on_replug()

    def stall(self, ms: int) -> None:
        """Stop answering and sending for ``ms`` milliseconds (writes are held and sent afterwards)."""
        if ms < 0:
            raise ValueError(f"a stall lasts a non-negative number of milliseconds, got {ms!r}")
        with self._lock:
            self._stalled_until = time.monotonic() + ms / 1000.0
            self.counters["stalls"] += 1

    def garbage(self, n: int) -> None:
        """Send ``n`` random bytes to the host (line noise)."""
        if n < 0:
            raise ValueError(f"garbage needs a non-negative byte count, got {n!r}")
        data = bytes(self._rng.randrange(256) for _ in range(n))
        self.counters["garbage_bytes"] += n
        self._send(data)

    def dup(self) -> None:
        """Repeat the last frame sent (a duplicate report)."""
        with self._lock:
            frame = self._last_frame
        if frame:
            self.counters["dups"] += 1
            self._send(frame)

    def badsum(self) -> None:
        """The next frame goes out with a wrong checksum; devices with checksums override this."""
        self.counters["badsum_requests"] += 1

    # ------------------------------------------------------------------ card commands

    @abc.abstractmethod
    def tap(self, uid: str) -> None:
        """A card arrives and stays until :meth:`remove` (``uid``: hex, 4/7/10 bytes)."""

    def present(self, spec: TapSpec) -> None:
        """A ``tap`` line's card (:mod:`firmware_sim.sim_cards`): a card with memory where the device can
        present one, else :class:`ValueError`; a card with a UID only is :meth:`tap`."""
        if spec.kind is not None:
            raise ValueError(f"this simulator presents no card with memory ({spec.kind})")
        self.tap(spec.uid)

    @abc.abstractmethod
    def remove(self) -> None:
        """The card on the reader (if any) leaves."""

    @abc.abstractmethod
    def on_host_bytes(self, data: bytes) -> None:
        """Host -> device bytes, called from the I/O thread."""

    def on_plugged(self) -> None:  # noqa: B027 - optional hook
        """Hook: the device was powered (after ``start()``); default nothing."""

    def on_replug(self) -> None:  # noqa: B027 - optional hook
        """Hook: the device was plugged in again (a reboot for most devices); default nothing."""

    def on_tick(self, now: float) -> None:  # noqa: B027 - optional hook
        """Hook: called from the I/O thread at least every 20 ms (``now``: time.monotonic() s); default nothing."""

    # ------------------------------------------------------------------ writing

    def write(self, data: bytes) -> None:
        """Device -> host: send ``data`` as one frame (remembered for :meth:`dup`)."""
        with self._lock:
            self._last_frame = bytes(data)
        self._send(data)

    def _send(self, data: bytes) -> None:
        with self._lock:
            self.counters["writes"] += 1
            if self._master is None:
                self.counters["dropped_unplugged"] += 1
                return
            if time.monotonic() < self._stalled_until:
                self._held.append(bytes(data))
                return
            self._write_now(data)

    def _write_now(self, data: bytes) -> None:
        """Write to the master without blocking; bytes the pty cannot take are dropped and counted."""
        assert self._master is not None
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._master, view)
            except BlockingIOError:
                self.counters["dropped_full"] += len(view)
                return
            except OSError:
                self.counters["dropped_unplugged"] += len(view)
                return
            self.counters["bytes_out"] += n
            view = view[n:]

    # ------------------------------------------------------------------ the pty

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._slave_name = os.ttyname(slave)
        if self._link:
            tmp = f"{self._link}.tmp{os.getpid()}"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(self._slave_name, tmp)
            os.replace(tmp, self._link)

    def _close_pty(self) -> None:
        if self._link:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._link)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    def _io_loop(self) -> None:
        while not self._stop.is_set():
            self.on_tick(time.monotonic())
            with self._lock:
                master = self._master
                stalled = time.monotonic() < self._stalled_until
                if not stalled and self._held and master is not None:
                    held, self._held = self._held, []
                    for chunk in held:
                        self._write_now(chunk)
            if master is None:
                self._stop.wait(_POLL_S)
                continue
            try:
                ready, _, _ = select.select([master], [], [], _POLL_S)
            except (OSError, ValueError):  # closed under us by unplug()/replug()
                continue
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except BlockingIOError:
                continue
            except OSError as exc:  # EIO: the fd was closed or replaced; the next loop sees the new one
                if exc.errno not in (errno.EIO, errno.EBADF):
                    self.counters["read_errors"] += 1
                self._stop.wait(_POLL_S)
                continue
            if not data:
                continue
            with self._lock:
                if master != self._master:
                    continue  # a stale read from a pty that was unplugged meanwhile
                if time.monotonic() < self._stalled_until:
                    self.counters["dropped_stall_in"] += len(data)
                    continue
                self.counters["bytes_in"] += len(data)
            self.on_host_bytes(data)
