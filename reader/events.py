"""Reader events: what every driver emits, whatever its hardware.

Times ``t`` are seconds from :func:`time.monotonic` of the process that saw the event.
UIDs are upper-case hexadecimal without separators, of 4, 7 or 10 bytes (ISO 14443-3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UID_LENGTHS = (4, 7, 10)  # bytes
_SEPARATORS = re.compile(r"[\s:\-]")
_HEX = re.compile(r"^[0-9A-F]*$")


class UidError(ValueError):
    """A string that is not a card UID."""


def normalize_uid(text: str) -> str:
    """Return ``text`` as a canonical UID: upper-case hex, no separators, 4/7/10 bytes.

    Accepts ``"04:a2:2b:1c"``, ``"04 A2 2B 1C"`` or ``"04a22b1c"``; raises :class:`UidError` otherwise.
    """
    cleaned = _SEPARATORS.sub("", text).upper()
    if not cleaned or not _HEX.match(cleaned) or len(cleaned) % 2:
        raise UidError(f"not a card UID (expected hex of 4, 7 or 10 bytes): {text!r}")
    if len(cleaned) // 2 not in _UID_LENGTHS:
        raise UidError(f"a card UID has 4, 7 or 10 bytes, got {len(cleaned) // 2}: {text!r}")
    return cleaned


@dataclass(frozen=True, slots=True)
class CardPresented:
    """A card was put on a reader (once per presentation). ``record`` is the NDEF message the reader read
    from the card's memory (bytes as stored, hardware/cards.md), or None when it read none: the card is
    known (:meth:`reader.base.Reader.set_known`), the reader cannot read memory, or the card has none.
    The reader moves the bytes; what they mean is decided where roles are resolved."""

    uid: str
    reader: str
    t: float
    record: bytes | None = None


@dataclass(frozen=True, slots=True)
class CardRemoved:
    """The card left the reader (only from readers that can sense removal)."""

    uid: str
    reader: str
    t: float


@dataclass(frozen=True, slots=True)
class ReaderConnected:
    """A reader became usable; ``info`` describes it (firmware version, PC/SC name)."""

    reader: str
    t: float
    info: str = ""


@dataclass(frozen=True, slots=True)
class ReaderLost:
    """A reader vanished or went silent; ``reason`` says which."""

    reader: str
    t: float
    reason: str = ""


ReaderEvent = CardPresented | CardRemoved | ReaderConnected | ReaderLost
