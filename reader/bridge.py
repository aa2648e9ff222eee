"""``serial://PATH?baud=N``: our bridge (a Pico + MFRC522 running hardware/firmware) over USB serial.

Layers: :mod:`reader.serialport` keeps the port open and notices loss, :mod:`reader.protocol` turns
bytes into frames (protocol v2: CRC-16 checked; noise, overlong lines and bad CRCs are counted in
:attr:`BridgeReader.stats` and dropped), this module turns frames into events, and
:class:`~reader.debounce.Debouncer` makes one tap per presentation (``TAP`` ... ``GONE``; a repeated
``TAP`` of the card on the reader is a duplicate and suppressed).

Connection: on opening the port the driver sends ``VER? 2`` every 250 ms until the device answers
``HELLO bridge <version> <firmware>`` (:class:`~reader.events.ReaderConnected`), then ``PING n`` every
250 ms; the device answers ``PONG n``. A port that cannot be opened is a
:class:`~reader.events.ReaderLost` at once (with the reason; once per outage), and so is a failed read
(unplugged) or 0.75 s without a valid frame; the port is reopened with back-off, and the path may be a
symlink that reappears (a udev ``/dev/serial/by-id`` name). A bridge still on v1 firmware is refused
with a ReaderLost that says so (:mod:`reader.bridge_handshake`).

Taps: the driver answers every ``TAP`` with ``ACK <uid>``; the device repeats a ``TAP`` until that
``ACK`` comes (or the card leaves), so a ``TAP`` damaged on the line is not a lost tap.

Reconnecting with a card on the reader: every HELLO is followed at once by the device's card state
(``TAP <uid>`` if a card lies there, ``EMPTY`` if none). If that card is the one the driver last knew to
be on the reader, it is the same presentation (no new tap); otherwise the old card is reported removed
and the new one presented. A card lifted during the outage and presented again after it counts again,
even when it is put back at once after the HELLO: the ``EMPTY`` came first. (Firmware that sends no
``EMPTY`` leaves the first frame after HELLO to decide, as before.)

Resynchronisation: while connected the driver also asks ``VER? 2`` every 2 s (in place of a PING). The
answer's card state repairs a ``GONE`` lost to line damage within 2 s; without it the driver would
take the next presentation of that card for a duplicate.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from reader import bridge_handshake as hs
from reader.base import EventSink, ProbeResult, Reader, ReaderError
from reader.bridge_memory import BridgeMemory
from reader.debounce import Debouncer
from reader.events import CardRemoved, ReaderConnected, ReaderEvent, ReaderLost
from reader.protocol import PROTOCOL_VERSION, Frame, FrameDecoder, encode
from reader.serialport import SerialLink, open_serial

log = logging.getLogger(__name__)

DEFAULT_BAUD = 115200  # bits per second
HEARTBEAT_S = 0.25  # seconds between PINGs (and between VER? while waiting for HELLO)
RESYNC_S = 2.0  # seconds between VER? while connected: HELLO + card state repair a lost GONE
SILENCE_S = 0.75  # seconds without a valid frame before the bridge counts as lost

# reader.base.CUES -> the frames that play them on the bridge
CUE_FRAMES: dict[str, tuple[tuple[str, str], ...]] = {
    "tap": (("LED", "blue"),),
    "ok": (("BEEP", "ok"), ("LED", "green")),
    "err": (("BEEP", "err"), ("LED", "red")),
    "go": (("BEEP", "go"), ("LED", "green")),
    "cash": (("BEEP", "ok"), ("LED", "yellow")),
}


def parse_serial_url(url: str) -> tuple[str, int]:
    """``serial:///dev/ttyACM0?baud=115200`` -> (``/dev/ttyACM0``, 115200); ReaderError if malformed."""
    parts = urlsplit(url)
    path = parts.netloc + parts.path
    if parts.scheme != "serial" or not path:
        raise ReaderError(f"expected serial://PATH[?baud=N], e.g. serial:///dev/ttyACM0?baud=115200, got {url!r}")
    query = parse_qs(parts.query)
    unknown = set(query) - {"baud"}
    if unknown:
        raise ReaderError(f"serial:// knows only the option baud, got {sorted(unknown)} in {url!r}")
    baud_text = query.get("baud", [str(DEFAULT_BAUD)])[0]
    if not baud_text.isdigit() or int(baud_text) <= 0:
        raise ReaderError(f"baud must be a positive whole number of bits per second, got {baud_text!r} in {url!r}")
    return path, int(baud_text)


class BridgeReader(BridgeMemory, Reader):
    """The bridge driver; events come from the serial link's thread."""

    def __init__(
        self,
        url: str,
        *,
        opener: Callable[[str, int, float], Any] = open_serial,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(url)
        self.path, self.baud = parse_serial_url(url)
        self._opener = opener
        self._clock = clock
        self._lock = threading.Lock()
        self._sink: EventSink | None = None
        self._link: SerialLink | None = None
        self._decoder = FrameDecoder()
        self._legacy = hs.LegacyDetector()
        self._debounce = Debouncer(senses_removal=True)
        self._connected = False
        self._lost_announced = False  # a ReaderLost for this outage has been emitted
        self._carried: str | None = None  # the card on the reader before a HELLO, awaiting the state report
        self._next_beat = 0.0
        self._next_resync = 0.0
        self._seq = 0
        self.device_info = ""
        """``bridge fw <version> protocol <n>`` from the last HELLO."""
        self._stats: Counter[str] = Counter()
        self._memory_init()

    # ------------------------------------------------------------------ Reader

    def start(self, sink: EventSink) -> None:
        """Open the port in the background; ReaderConnected follows the device's HELLO."""
        with self._lock:
            if self._link is not None:
                raise ReaderError(f"reader {self.url!r} is already started")
            self._sink = sink
            self._link = SerialLink(
                self.path, self.baud, self, name=self.url, silence_s=SILENCE_S, opener=self._opener, clock=self._clock
            )
        self._link.start()

    def stop(self) -> None:
        """Stop delivering events and close the port; idempotent."""
        with self._lock:
            self._sink = None
            link = self._link
        if link is not None:
            link.stop()

    def cue(self, kind: str) -> None:
        """Beep and light the LED for ``kind`` (one of reader.base.CUES); unknown kinds are ignored."""
        link = self._link
        if link is None or not self._connected:
            return
        for verb, arg in CUE_FRAMES.get(kind, ()):
            link.write(encode(verb, arg))

    @property
    def connected(self) -> bool:
        """True between the device's HELLO and its loss."""
        return self._connected

    @property
    def stats(self) -> dict[str, int]:
        """Counters: the decoder's drops and frames (``frames``, ``junk_bytes``, ``overlong``, ``syntax``,
        ``checksum``, ``args``) plus ``duplicates`` (repeated TAPs suppressed), ``stale_gone`` (GONEs
        that ended nothing), ``carried_over`` (cards still on the reader across a reconnect),
        ``device_errors`` (ERR frames), ``ignored`` (unknown verbs), ``newer_protocol``, ``pings``,
        ``resyncs``, ``reconnects``."""
        merged = Counter(self._decoder.stats)
        merged.update(self._stats)
        merged["duplicates"] = self._debounce.suppressed
        return dict(merged)

    @classmethod
    def list_devices(cls) -> list[str]:
        """Serial ports that may be bridges: the kiosk's udev names (``/dev/boardbank-bridge*``) first,
        then USB serial ports (CDC ACM and USB-serial adapters)."""
        import glob

        from serial.tools import list_ports

        named = sorted(glob.glob("/dev/boardbank-bridge*"))
        ports = sorted(p.device for p in list_ports.comports() if "ACM" in p.device or "USB" in p.device)
        return [f"serial://{p}?baud={DEFAULT_BAUD}" for p in named + ports]

    @classmethod
    def probe(cls, url: str, timeout_s: float = 1.0) -> ProbeResult:
        """Ask the bridge for its HELLO (:func:`reader.probes.probe_bridge`); ok only if one came."""
        from reader.probes import probe_bridge

        try:
            path, baud = parse_serial_url(url)
        except ReaderError as exc:
            return ProbeResult(False, str(exc))
        return probe_bridge(path, baud, timeout_s)

    # ------------------------------------------------------------------ LinkHandler

    def on_open(self, link: SerialLink) -> None:
        self._decoder.reset()
        self._legacy.reset()
        self._connected = False
        self._next_beat = self._clock() + HEARTBEAT_S
        self._next_resync = self._next_beat + RESYNC_S
        if link.opens > 1:
            self._stats["reconnects"] += 1
        link.write(hs.version_query())

    def on_data(self, data: bytes) -> None:
        if not self._connected and not self._legacy.found and self._legacy.feed(data):
            self._stats["legacy_device"] += 1
            if not self._lost_announced:
                self._lost_announced = True
                log.warning("%s: %s", self.url, hs.LEGACY_REASON)
                self._emit(ReaderLost(self.name, self._clock(), reason=hs.LEGACY_REASON))
        for frame in self._decoder.feed(data):
            link = self._link
            if link is not None:
                link.alive()
            self._handle(frame)

    def on_tick(self, now: float) -> None:
        if now < self._next_beat:
            return
        self._next_beat = now + HEARTBEAT_S
        link = self._link
        if link is None:
            return
        if not self._connected:
            link.write(hs.version_query())
        elif now >= self._next_resync:
            self._next_resync = now + RESYNC_S
            self._stats["resyncs"] += 1
            link.write(hs.version_query())  # the answer (HELLO + card state) also proves the device alive
        else:
            self._seq = (self._seq + 1) % 65536
            self._stats["pings"] += 1
            link.write(encode("PING", self._seq))

    def on_close(self, reason: str) -> None:
        was_connected, self._connected = self._connected, False
        if was_connected and reason != "stopped":
            log.info("%s lost: %s", self.url, reason)
            self._lost_announced = True
            self._emit(ReaderLost(self.name, self._clock(), reason=reason))

    def on_open_failed(self, reason: str) -> None:
        """The port cannot be opened: one ReaderLost per outage, at once (the link keeps retrying)."""
        if self._lost_announced:
            return
        self._lost_announced = True
        self._emit(ReaderLost(self.name, self._clock(), reason=f"cannot open {self.path}: {reason}"))

    # ------------------------------------------------------------------ frames

    def _handle(self, frame: Frame) -> None:
        verb, args = frame.verb, frame.args
        now = self._clock()
        if verb == "TAP":
            self._acknowledge(args[0])
        elif self.memory_frame(frame):
            return  # an answer to a card-memory request (reader/bridge_memory.py)
        carried, self._carried = self._carried, None
        if carried is not None:
            if verb == "TAP" and args[0] == carried:
                self._stats["carried_over"] += 1
                self._debounce.seen(carried, now)  # the same presentation, still going on
                return
            self._emit(CardRemoved(carried, self.name, now))  # it left while we were not looking
        if verb == "HELLO":
            present = self._debounce.present
            if present is not None:
                self._debounce.reset()
                self._carried = present
            self.device_info = hs.describe_hello(args)
            if int(args[1]) > PROTOCOL_VERSION:
                self._stats["newer_protocol"] += 1  # newer devices still speak v2 to a v2 host
            if not self._connected:
                self._connected = True
                self._lost_announced = False
                self._emit(ReaderConnected(self.name, now, info=self.device_info))
        elif verb == "TAP":
            uid = args[0]
            previous = self._debounce.present
            if self._debounce.seen(uid, now):
                if previous is not None:  # swapped without a GONE in between (a lost frame)
                    self._emit(CardRemoved(previous, self.name, now))
                self.read_then_present(uid, now)  # at once for a known UID; else after its record
        elif verb == "GONE":
            ended = self._debounce.gone(args[0], now)
            if ended is not None and not self.hold_gone(CardRemoved(ended, self.name, now)):
                self._emit(CardRemoved(ended, self.name, now))
            else:
                self._stats["stale_gone"] += 1
        elif verb == "EMPTY":
            self._stats["empty_reports"] += 1  # the state report of a reader with no card (handled above)
        elif verb == "ERR":
            self._stats["device_errors"] += 1
            log.warning("%s reports error %s", self.url, " ".join(args))
        elif verb != "PONG":
            self._stats["ignored"] += 1  # a verb of a newer protocol version, or a host verb echoed

    def _acknowledge(self, uid: str) -> None:
        """``ACK uid``: the device stops repeating that TAP (it repeats until acknowledged or lifted)."""
        link = self._link
        if link is not None:
            self._stats["acks"] += 1
            link.write(encode("ACK", uid))

    def _emit(self, event: ReaderEvent) -> None:
        with self._lock:
            sink = self._sink
        if sink is not None:
            sink(event)
