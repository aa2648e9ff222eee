"""``pn532://PATH[?baud=115200&poll_ms=50]``: an NXP PN532 on a UART (HSU), e.g. ``pn532:///dev/serial0``.

The driver speaks UM0701-02 through the pure codec :mod:`reader.pn532_frames`, from one thread:

1. open the UART with pyserial (115200 8N1 unless ``baud`` says otherwise, exclusive, through
   :func:`reader.serialport.open_serial`; the rest of :mod:`reader.serialport` is built for devices
   that talk on their own, while the PN532 only answers, so this driver runs its own
   command/response loop in one thread);
2. wake the chip: the HSU wake-up (0x55 and a long preamble) followed at once by SAMConfiguration in
   normal mode (which also takes a PN532/C106 out of its LowVbat start-up mode);
3. GetFirmwareVersion must answer IC 0x32 (the version goes into ReaderConnected's ``info``);
4. RFConfiguration MaxRetries ``FF 01 01`` so InListPassiveTarget gives up after two activation
   attempts instead of waiting for a card forever (the power-on value 0xFF);
5. poll: InListPassiveTarget (one target, 106 kbps type A) every :data:`POLL_PERIOD_S` (50 ms, the
   ``poll_ms`` query parameter), then InRelease of the target found. A card not reported yet is
   polled once more at once and reported only if the same UID comes back: the frames' 8-bit
   checksums let two compensating byte errors through, which would otherwise be a wrong card.

Every command waits for the chip's ACK (:data:`ACK_TIMEOUT_S`) and then its response; a command
without an ACK is sent again, a response lost to a bad checksum is asked for again with a NACK.
Garbage and broken frames are counted (``counters``) and dropped by the decoder; they never raise out
of the driver and never make a tap. One tap per presentation: the card staying in the field does not
repeat; it is reported removed after :data:`MISSES_FOR_REMOVAL` consecutive empty polls.

A vanished device (the read or write fails) or a silent one (nothing valid heard for
:data:`SILENCE_S`) is a ReaderLost within a second; the driver then reopens the port with back-off
(0.1 s doubling to 1 s) and reports ReaderConnected when the chip answers again. The PN532 has no
beeper or LED of its own: :meth:`PN532Reader.cue` does nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

from reader import pn532_frames as pf
from reader.base import EventSink, ProbeResult, Reader, ReaderError
from reader.debounce import Debouncer
from reader.events import CardPresented, CardRemoved, ReaderConnected, ReaderEvent, ReaderLost
from reader.pn532_link import ACK_TIMEOUT_S, RESPONSE_TIMEOUT_S, SILENCE_S, LinkLost, PN532Error, PN532Link
from reader.pn532_memory import PN532Memory
from reader.serialport import open_serial

__all__ = ["ACK_TIMEOUT_S", "POLL_PERIOD_S", "RESPONSE_TIMEOUT_S", "SILENCE_S", "PN532Error", "PN532Link", "PN532Reader"]

log = logging.getLogger(__name__)

DEFAULT_BAUD = 115200
POLL_PERIOD_S = 0.050
"""Seconds between the starts of two InListPassiveTarget polls (the ``poll_ms`` parameter)."""
MISSES_FOR_REMOVAL = 2
"""Consecutive empty polls after which the card counts as removed (about 100 ms at 50 ms polls)."""
PASSIVE_ACTIVATION_RETRIES = 0x01
BACKOFF_MIN_S = 0.1
BACKOFF_MAX_S = 1.0
_READ_SLICE_S = 0.010  # seconds: pyserial read timeout, the granularity of every wait


class PN532Reader(PN532Memory, Reader):
    """The ``pn532://`` driver; see the module docstring."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        parts = urlsplit(url)
        self.path = (parts.netloc + parts.path) if parts.netloc else parts.path
        if not self.path:
            raise ReaderError(f"pn532:// needs a device path, e.g. pn532:///dev/serial0; got {url!r}")
        query = parse_qs(parts.query)
        try:
            self.baud = int(query.get("baud", [DEFAULT_BAUD])[0])
            self.poll_period_s = int(query.get("poll_ms", [round(POLL_PERIOD_S * 1000)])[0]) / 1000.0
        except ValueError as exc:
            raise ReaderError(f"pn532:// baud and poll_ms are integers, got {parts.query!r}") from exc
        if self.baud <= 0 or self.poll_period_s <= 0:
            raise ReaderError(f"pn532:// baud and poll_ms must be positive, got {parts.query!r}")
        self._sink: EventSink | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._debouncer = Debouncer(senses_removal=True)
        self.firmware: pf.FirmwareVersion | None = None
        self.counters: dict[str, int] = {"polls": 0, "connects": 0, "losses": 0, "errors": 0, "unconfirmed": 0}
        self.link: PN532Link | None = None

    # -------------------------------------------------------------- the contract

    def start(self, sink: EventSink) -> None:
        """Open the UART and start polling in a background thread; returns at once."""
        try:
            import serial  # noqa: F401  (fail here, not in the thread)
        except ImportError as exc:
            raise ReaderError(f"pn532:// needs pyserial: {exc}") from exc
        if self._thread is not None:
            raise ReaderError(f"{self.url}: start() called twice")
        self._sink = sink
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"pn532 {self.path}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop polling and close the UART; idempotent."""
        self._stop.set()
        self._sink = None
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def cue(self, kind: str) -> None:
        """The PN532 has no buzzer or LED: nothing to play."""

    @classmethod
    def list_devices(cls) -> list[str]:
        """``pn532://`` URLs for the serial ports a PN532 may sit on (it cannot be told apart unprobed)."""
        try:
            from serial.tools import list_ports
        except ImportError:
            return []
        import os

        ports = [p.device for p in list_ports.comports()]
        if os.path.exists("/dev/serial0"):
            ports.insert(0, "/dev/serial0")
        return [f"pn532://{p}" for p in dict.fromkeys(ports)]

    @classmethod
    def probe(cls, url: str, timeout_s: float = 1.0) -> ProbeResult:
        """Wake the chip and ask GetFirmwareVersion (:func:`reader.probes.probe_pn532`); ok only if it answers."""
        from reader.probes import probe_pn532

        try:
            reader = cls(url)
        except ReaderError as exc:
            return ProbeResult(False, str(exc))
        return probe_pn532(reader.path, reader.baud, timeout_s)

    # -------------------------------------------------------------- the thread

    def _emit(self, event: ReaderEvent) -> None:
        sink = self._sink
        if sink is not None and not self._stop.is_set():
            sink(event)

    def _run(self) -> None:
        backoff = BACKOFF_MIN_S
        announced_lost = False
        while not self._stop.is_set():
            port = None
            try:
                port = self._open()
                link = PN532Link(port)
                self.link = link
                link.wake()
                self.firmware = pf.parse_firmware_version(
                    link.command(pf.encode_command(pf.CMD_GET_FIRMWARE_VERSION), pf.CMD_GET_FIRMWARE_VERSION)
                )
                if self.firmware.ic != 0x32:
                    raise PN532Error(f"expected a PN532 (IC 0x32), the chip says {self.firmware}")
                link.command(pf.rf_max_retries(passive_activation=PASSIVE_ACTIVATION_RETRIES), pf.CMD_RF_CONFIGURATION)
            except Exception as exc:  # expected: LinkLost, PN532Error, PN532FrameError, OSError
                if not isinstance(exc, (LinkLost, PN532Error, pf.PN532FrameError, OSError)):
                    log.exception("pn532 %s: unexpected error while connecting", self.path)
                self._close(port)
                if not announced_lost:
                    self._emit(ReaderLost(self.url, time.monotonic(), f"cannot open the PN532 on {self.path}: {exc}"))
                    announced_lost = True
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX_S)
                continue
            backoff = BACKOFF_MIN_S
            announced_lost = False
            self.counters["connects"] += 1
            self._emit(ReaderConnected(self.url, time.monotonic(), info=f"{self.firmware} on {self.path}"))
            reason = self._poll(link)
            self._close(port)
            if reason is not None:
                self.counters["losses"] += 1
                uid = self._debouncer.gone(None, time.monotonic())
                now = time.monotonic()
                if uid is not None:
                    self._emit(CardRemoved(uid, self.url, now))
                self._debouncer.reset()
                self._emit(ReaderLost(self.url, now, reason))
                announced_lost = True

    def _open(self) -> Any:
        """The UART, 8N1 and exclusive (:func:`reader.serialport.open_serial`); LinkLost if it cannot open."""
        try:
            return open_serial(self.path, self.baud, _READ_SLICE_S)
        except (OSError, ValueError) as exc:  # pyserial's SerialException is an OSError
            raise LinkLost(str(exc)) from exc

    @staticmethod
    def _close(port: Any) -> None:
        if port is not None:
            try:
                port.close()
            except Exception as exc:  # already gone
                log.debug("pn532: close: %s", exc)

    def _confirmed(self, link: PN532Link, uid: str, poll_frame: bytes, release_frame: bytes) -> bool:
        """A card not reported yet must be found again by an immediate second poll (a few ms): the
        PN532's LCS/DCS are 8-bit sums, which two compensating byte errors pass (a damaged UID)."""
        if uid == self._debouncer.present:
            return True
        link.command(release_frame, pf.CMD_IN_RELEASE)
        again = pf.parse_in_list_passive_target(link.command(poll_frame, pf.CMD_IN_LIST_PASSIVE_TARGET))
        return bool(again) and again[0].uid_hex == uid

    def _poll(self, link: PN532Link) -> str | None:
        """Poll until stopped (None) or the chip is lost (the reason)."""
        misses = 0
        poll_frame = pf.in_list_passive_target(1, pf.BRTY_106_TYPE_A)
        release_frame = pf.in_release(0)
        next_poll = time.monotonic()
        while not self._stop.is_set():
            try:
                response = link.command(poll_frame, pf.CMD_IN_LIST_PASSIVE_TARGET)
                targets = pf.parse_in_list_passive_target(response)
                self.counters["polls"] += 1
                if targets and not self._confirmed(link, targets[0].uid_hex, poll_frame, release_frame):
                    self.counters["unconfirmed"] += 1  # a damaged answer that passed the 8-bit checksums
                elif targets:
                    misses = 0
                    uid = targets[0].uid_hex
                    now = time.monotonic()
                    previous = self._debouncer.present
                    if previous is not None and previous != uid:  # swapped between two polls
                        self._emit(CardRemoved(previous, self.url, now))
                    if self._debouncer.seen(uid, now):
                        self._emit(CardPresented(uid, self.url, now, self.read_record(link, uid)))
                    self.serve_writes(link, uid)
                    link.command(release_frame, pf.CMD_IN_RELEASE)
                else:
                    misses += 1
                    if misses >= MISSES_FOR_REMOVAL:
                        gone = self._debouncer.gone(None, time.monotonic())
                        if gone is not None:
                            self._emit(CardRemoved(gone, self.url, time.monotonic()))
            except LinkLost as exc:
                return str(exc)
            except (PN532Error, pf.PN532FrameError) as exc:
                # a confused exchange (noise, a stall shorter than SILENCE_S): counted, polling goes on;
                # a chip that stays silent is caught by the silence check in the link
                self.counters["errors"] += 1
                log.debug("pn532 %s: %s", self.path, exc)
                if time.monotonic() - link.last_heard > SILENCE_S:
                    return f"silent for {SILENCE_S:.1f} s"
            except Exception as exc:  # a bug must not kill the polling thread silently: report, reconnect
                log.exception("pn532 %s: unexpected error while polling", self.path)
                return f"driver error: {exc!r}"
            next_poll += self.poll_period_s
            delay = next_poll - time.monotonic()
            if delay < 0:
                next_poll, delay = time.monotonic(), 0.0
            self._stop.wait(delay)
        return None
