"""The reader contract and the URL registry of drivers.

A driver is chosen by URL and imported lazily, so the engine and
the mock run without pyserial or pyscard. Every driver delivers events to one callback, from its own
thread; the callback must be quick and thread-safe (the UI hands events to its main thread).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from reader.events import ReaderEvent

EventSink = Callable[[ReaderEvent], None]

# scheme -> "module:Class". Drivers are imported only when a URL asks for them.
_DRIVERS: dict[str, str] = {
    "mock": "reader.mock:MockReader",
    "stdin": "reader.stdin:StdinReader",
    "serial": "reader.bridge:BridgeReader",
    "pn532": "reader.pn532:PN532Reader",
    "pcsc": "reader.pcsc:PCSCReader",
}

CUES = ("tap", "ok", "err", "go", "cash")
"""Sound/light cues a reader may play; readers without a buzzer ignore them."""


class ReaderError(OSError):
    """A reader could not be opened or used (bad URL, missing library, device error)."""


class RecordRefused(ReaderError):
    """A record not written because of what the card holds, read just before: ``locked`` (its memory is
    read-only for good: nothing can change it) or ``current``, another NDEF message (changed only when the
    write is asked to ``replace`` it). ``current`` is None or empty when the card held no message."""

    def __init__(self, uid: str, current: bytes | None, locked: bool) -> None:
        what = "is locked (read-only for good)" if locked else "holds another record"
        super().__init__(f"card {uid} {what}: nothing was written")
        self.uid = uid
        self.current = current
        self.locked = locked


def check_overwrite(uid: str, current: bytes | None, locked: bool, message: bytes, *, lock: bool,
                    replace: bool) -> bool:
    """Whether a write of ``message`` (then ``lock``) must go on, given what the card holds (read first):
    False when it holds ``message`` already (and is locked if asked); :class:`RecordRefused` when it is
    locked, or holds another message and ``replace`` is False. Shared by the memory layouts."""
    if current == bytes(message) and (locked or not lock):
        return False
    if locked:
        raise RecordRefused(uid, current, True)
    if current and current != bytes(message) and not replace:  # an empty message is a blank card
        raise RecordRefused(uid, current, False)
    return True


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """What :meth:`Reader.probe` found: ``ok`` only if the device itself answered; ``detail`` is one line
    (the device's own description when ok, the reason otherwise)."""

    ok: bool
    detail: str


class Reader(ABC):
    """One card reader. Lifecycle: ``start(sink)`` once, then ``stop()``; ``cue()`` any time after start."""

    def __init__(self, url: str) -> None:
        self.url = url

    @property
    def name(self) -> str:
        """The reader's name in events: its URL unless a driver has a better one."""
        return self.url

    @abstractmethod
    def start(self, sink: EventSink) -> None:
        """Begin delivering events to ``sink`` (from a background thread); returns at once."""

    @abstractmethod
    def stop(self) -> None:
        """Stop delivering events and release the device; idempotent."""

    def cue(self, kind: str) -> None:  # noqa: B027 - optional capability, default is silence
        """Play a cue (one of :data:`CUES`) if the reader has a buzzer or LED; default: nothing."""

    def set_known(self, known: Callable[[str], bool]) -> None:  # noqa: B027 - optional capability
        """``known(uid)`` says whether a card's role is known already: a reader that can read a card's NDEF
        record reads it only for cards that are not (a known card's tap never waits for a read). Until
        this is called a reader reads no card's memory."""

    def write_record(self, uid: str, message: bytes, *, lock: bool = False, replace: bool = False) -> None:
        """Write the NDEF ``message`` to the card ``uid`` lying on the reader (``lock``: make it read-only
        for good). The card's memory is read first (:func:`check_overwrite`): a card holding ``message``
        already is left as it is; a locked card, or one holding another message without ``replace``, is
        refused with :class:`RecordRefused` and nothing is written. :class:`ReaderError` when this reader
        cannot write, or the card refuses."""
        raise ReaderError(f"reader {self.url!r} cannot write a card's memory")

    @classmethod
    def list_devices(cls) -> list[str]:
        """URLs of the devices this backend can see now (for ``boardbank readers``)."""
        return []

    @classmethod
    def probe(cls, url: str, timeout_s: float = 1.0) -> ProbeResult:
        """Talk to the device behind ``url`` (without starting the reader) and report whether it answered,
        within about ``timeout_s`` seconds. Never raises. Drivers override this; the default says the
        backend cannot be probed."""
        return ProbeResult(False, f"{cls.__name__} cannot be probed")


def probe(url: str, timeout_s: float = 1.0) -> ProbeResult:
    """Probe the reader behind ``url`` with its driver's :meth:`Reader.probe`; never raises
    (a bad URL or a driver that cannot be imported is a failed probe with the reason)."""
    scheme = urlsplit(url).scheme
    try:
        cls = driver_class(scheme)
        return cls.probe(url, timeout_s)
    except Exception as exc:  # a bad URL, a missing library: report, do not crash the caller
        return ProbeResult(False, str(exc) or type(exc).__name__)


def available_schemes() -> list[str]:
    """The URL schemes of all known drivers."""
    return sorted(_DRIVERS)


def driver_class(scheme: str) -> type[Reader]:
    """Import and return the driver class for ``scheme``; :class:`ReaderError` if unknown or unusable."""
    target = _DRIVERS.get(scheme)
    if target is None:
        raise ReaderError(f"unknown reader URL scheme {scheme!r}; expected one of {available_schemes()}")
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ReaderError(f"reader backend {scheme!r} is not usable here: {exc}") from exc
    cls = getattr(module, class_name)
    assert isinstance(cls, type) and issubclass(cls, Reader)
    return cls


def open_reader(url: str) -> Reader:
    """Create (not start) the reader for ``url``, e.g. ``serial:///dev/ttyACM0?baud=115200``."""
    scheme = urlsplit(url).scheme
    if not scheme:
        raise ReaderError(f"a reader URL needs a scheme like mock:// or serial://, got {url!r}")
    return driver_class(scheme)(url)
