"""The reader contract and the URL registry of drivers.

A driver is chosen by URL (docs/architecture.md, convention 5) and imported lazily, so the engine and
the mock run without pyserial or pyscard. Every driver delivers events to one callback, from its own
thread; the callback must be quick and thread-safe (the UI hands events to its main thread).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable
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

    @classmethod
    def list_devices(cls) -> list[str]:
        """URLs of the devices this backend can see now (for ``boardbank readers``)."""
        return []


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
