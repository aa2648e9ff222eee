"""``mock://NAME``: a reader driven by code: tests, tap scripts and the UI's on-screen card tray.

``present(uid)`` puts a card on the reader (a :class:`~reader.events.CardPresented`), ``remove()`` lifts
it (a :class:`~reader.events.CardRemoved`); presenting while a card is on the reader lifts the old one
first, so every ``present()`` is exactly one presentation (a tap script tapping the same card twice
means two taps). ``unplug()`` / ``replug()`` give :class:`~reader.events.ReaderLost` /
:class:`~reader.events.ReaderConnected`, for screens that show a lost reader.

Events are delivered synchronously, in the thread that calls ``present()``, so a script's taps arrive
in order and before ``present()`` returns. Started mock readers are also reachable by URL through the
module functions :func:`present`, :func:`remove`, :func:`unplug` and :func:`replug` (the tray and the
reader suite use these).

Card memory: every mock reader sees the same stickers. :meth:`MockReader.write_record` stores an NDEF
message on the card lying on the reader (refused once the card is locked), :func:`store_record` puts one
there directly (a card written elsewhere, or one whose record lies); a presented card brings its message
in :attr:`~reader.events.CardPresented.record` unless :meth:`~MockReader.set_known` says it is known.
:func:`forget_records` empties the memory (tests).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from reader.base import EventSink, ProbeResult, Reader, ReaderError, check_overwrite
from reader.events import CardPresented, CardRemoved, ReaderConnected, ReaderEvent, ReaderLost, normalize_uid

_LIVE: dict[str, list[MockReader]] = {}
_LIVE_LOCK = threading.Lock()
_MEMORY: dict[str, tuple[bytes, bool]] = {}  # uid -> (NDEF message, locked): the stickers' memory


class MockReader(Reader):
    """A reader whose cards are put down and lifted by calls; thread-safe."""

    def __init__(self, url: str = "mock://", clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(url)
        self._clock = clock
        self._lock = threading.RLock()
        self._sink: EventSink | None = None
        self._present: str | None = None
        self._plugged = True
        self._known: Callable[[str], bool] = lambda _uid: True  # until set_known: no reads
        self.reads = 0
        """How many presentations read the card's memory."""
        self.cues: list[str] = []
        """Every cue played, in order (the tray shows them; tests check them)."""

    def start(self, sink: EventSink) -> None:
        """Begin delivering events to ``sink``; emits ReaderConnected at once."""
        with self._lock:
            if self._sink is not None:
                raise ReaderError(f"reader {self.url!r} is already started")
            self._sink = sink
        with _LIVE_LOCK:
            _LIVE.setdefault(self.url, []).append(self)
        self._emit(ReaderConnected(self.name, self._clock(), info="mock"))

    def stop(self) -> None:
        """Stop delivering events; idempotent."""
        with self._lock:
            self._sink = None
            self._present = None
        with _LIVE_LOCK:
            readers = _LIVE.get(self.url, [])
            if self in readers:
                readers.remove(self)
            if not readers:
                _LIVE.pop(self.url, None)

    @property
    def present_uid(self) -> str | None:
        """The UID of the card on the reader, or None."""
        with self._lock:
            return self._present

    def present(self, uid: str) -> None:
        """Put the card ``uid`` (any form :func:`normalize_uid` accepts) on the reader."""
        card = normalize_uid(uid)
        with self._lock:
            if not self._plugged:
                return
            if self._present is not None:
                self._emit(CardRemoved(self._present, self.name, self._clock()))
            self._present = card
            record = None
            if not self._known(card):
                with _LIVE_LOCK:
                    stored = _MEMORY.get(card)
                self.reads += 1
                record = None if stored is None else stored[0]
            self._emit(CardPresented(card, self.name, self._clock(), record))

    def remove(self) -> None:
        """Lift the card off the reader (nothing happens if there is none)."""
        with self._lock:
            if self._present is None or not self._plugged:
                return
            card, self._present = self._present, None
            self._emit(CardRemoved(card, self.name, self._clock()))

    def tap(self, uid: str) -> None:
        """Present ``uid`` and lift it again at once (a quick tap)."""
        self.present(uid)
        self.remove()

    def unplug(self) -> None:
        """The reader vanishes: ReaderLost; a card on it is forgotten."""
        with self._lock:
            if not self._plugged:
                return
            self._plugged = False
            self._present = None
            self._emit(ReaderLost(self.name, self._clock(), reason="unplugged (mock)"))

    def replug(self) -> None:
        """The reader is back: ReaderConnected."""
        with self._lock:
            if self._plugged:
                return
            self._plugged = True
            self._emit(ReaderConnected(self.name, self._clock(), info="mock"))

    def set_known(self, known: Callable[[str], bool]) -> None:
        """Read the memory only of cards ``known`` says are not known."""
        with self._lock:
            self._known = known

    def write_record(self, uid: str, message: bytes, *, lock: bool = False, replace: bool = False) -> None:
        """Store ``message`` on the card ``uid``, which must lie on this reader; what it holds is looked at
        first, as every reader does (:meth:`reader.base.Reader.write_record`: refused when locked, or
        holding another message without ``replace``)."""
        card = normalize_uid(uid)
        with self._lock:
            if self._present != card:
                raise ReaderError(f"card {card} is not on {self.url}")
        with _LIVE_LOCK:
            current, locked = _MEMORY.get(card, (None, False))
            if check_overwrite(card, current or None, locked, message, lock=lock, replace=replace):
                _MEMORY[card] = (bytes(message), lock)

    def cue(self, kind: str) -> None:
        """Record the cue (a mock has no buzzer)."""
        with self._lock:
            self.cues.append(kind)

    @classmethod
    def list_devices(cls) -> list[str]:
        """A mock reader can always be made."""
        return ["mock://"]

    @classmethod
    def probe(cls, url: str, timeout_s: float = 1.0) -> ProbeResult:
        """A mock reader is always there."""
        return ProbeResult(True, "mock reader (no hardware)")

    def _emit(self, event: ReaderEvent) -> None:
        with self._lock:
            sink = self._sink
            if sink is not None:
                sink(event)


def live(url: str) -> list[MockReader]:
    """The started mock readers with this URL (usually one)."""
    with _LIVE_LOCK:
        return list(_LIVE.get(url, []))


def present(url: str, uid: str) -> int:
    """Present ``uid`` on every started mock reader with this URL; returns how many (0: none started)."""
    normalize_uid(uid)  # a bad UID is an error even when no reader listens
    readers = live(url)
    for r in readers:
        r.present(uid)
    return len(readers)


def store_record(uid: str, message: bytes, *, lock: bool = False) -> None:
    """Put ``message`` in the memory of the sticker ``uid`` (as if written by another unit or a phone)."""
    with _LIVE_LOCK:
        _MEMORY[normalize_uid(uid)] = (bytes(message), lock)


def stored_record(uid: str) -> tuple[bytes, bool] | None:
    """(message, locked) of the sticker ``uid``, or None."""
    with _LIVE_LOCK:
        return _MEMORY.get(normalize_uid(uid))


def forget_records() -> None:
    """Empty every sticker's memory."""
    with _LIVE_LOCK:
        _MEMORY.clear()


def remove(url: str) -> int:
    """Lift the card off every started mock reader with this URL; returns how many."""
    readers = live(url)
    for r in readers:
        r.remove()
    return len(readers)


def unplug(url: str) -> int:
    """Unplug every started mock reader with this URL; returns how many."""
    readers = live(url)
    for r in readers:
        r.unplug()
    return len(readers)


def replug(url: str) -> int:
    """Replug every started mock reader with this URL; returns how many."""
    readers = live(url)
    for r in readers:
        r.replug()
    return len(readers)
