"""Card readers: the reader contract, drivers chosen by URL, debouncing, the card registry.

This package knows no game rule: it turns card presentations into
:class:`~reader.events.CardPresented` events and plays cues on readers that have them.
"""

from reader.base import ProbeResult, Reader, ReaderError, available_schemes, open_reader, probe
from reader.events import (
    CardPresented,
    CardRemoved,
    ReaderConnected,
    ReaderEvent,
    ReaderLost,
    normalize_uid,
)

__all__ = [
    "CardPresented",
    "CardRemoved",
    "ProbeResult",
    "Reader",
    "ReaderConnected",
    "ReaderError",
    "ReaderEvent",
    "ReaderLost",
    "available_schemes",
    "normalize_uid",
    "open_reader",
    "probe",
]
