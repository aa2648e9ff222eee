"""A card's memory through a PC/SC reader: the NDEF record of an NTAG213/215/216 sticker read and written
with the PC/SC part 3 storage-card pseudo-APDUs an ACR122U understands: READ BINARY ``FF B0 00 PAGE 10``
(16 bytes: four pages) and UPDATE BINARY ``FF D6 00 PAGE 04`` + 4 bytes (one page). The message is found
and laid out by :mod:`reader.type2`; :class:`CardMemory` is the part of :class:`reader.pcsc.PCSCReader`
that does it (a card whose UID is known is never read).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from reader.base import ReaderError
from reader.events import normalize_uid
from reader.type2 import Type2Error, read_ndef, write_ndef

log = logging.getLogger(__name__)

SW_OK = (0x90, 0x00)


def page_io(connection: Any) -> tuple[Callable[[int], bytes], Callable[[int, bytes], None]]:
    """(read four pages, write one page) through ``connection``'s ``transmit``; :class:`Type2Error` on an SW
    other than 90 00."""

    def read(page: int) -> bytes:
        data, sw1, sw2 = connection.transmit([0xFF, 0xB0, 0x00, page, 0x10])
        if (sw1, sw2) != SW_OK:
            raise Type2Error(f"READ BINARY of page {page} answered SW {sw1:02X} {sw2:02X}")
        return bytes(data)

    def write(page: int, data: bytes) -> None:
        _data, sw1, sw2 = connection.transmit([0xFF, 0xD6, 0x00, page, 0x04, *data])
        if (sw1, sw2) != SW_OK:
            raise Type2Error(f"UPDATE BINARY of page {page} answered SW {sw1:02X} {sw2:02X}")

    return read, write


class CardMemory:
    """Reading and writing the NDEF record of the card on the reader (the connection ``_connection`` to the
    card ``_card_uid``, under ``_lock``)."""

    _lock: threading.RLock
    _connection: Any
    _card_uid: str | None
    _known: Callable[[str], bool] = staticmethod(lambda _uid: True)  # until set_known: no reads
    counters: dict[str, int]

    def set_known(self, known: Callable[[str], bool]) -> None:
        """Read the record only of cards ``known`` says are not known."""
        self._known = known

    def _read_record(self, connection: Any, uid: str) -> bytes | None:
        """The NDEF message on the card ``uid`` just connected, unless it is known (then no read at all)."""
        if self._known(uid):
            return None
        try:
            return read_ndef(page_io(connection)[0])
        except (Type2Error, Exception) as exc:  # not a Type 2 tag (a MIFARE Classic card), or it left
            self.counters["record_errors"] = self.counters.get("record_errors", 0) + 1
            log.info("pcsc: no record read from %s: %s", uid, exc)
            return None

    def write_record(self, uid: str, message: bytes, *, lock: bool = False) -> None:
        """Write ``message`` on the card ``uid`` lying on the reader (``lock``: read-only for good)."""
        card = normalize_uid(uid)
        with self._lock:
            if self._card_uid != card or self._connection is None:
                raise ReaderError(f"card {card} is not on the reader")
            read, write = page_io(self._connection)
            try:
                write_ndef(read, write, message, lock=lock)
            except Exception as exc:
                raise ReaderError(f"cannot write the record on {card}: {exc}") from exc
