"""A card's memory through a PC/SC reader: the NDEF record of an NTAG213/215/216 sticker read and written
with the PC/SC part 3 storage-card pseudo-APDUs an ACR122U understands: READ BINARY ``FF B0 00 PAGE 10``
(16 bytes: four pages) and UPDATE BINARY ``FF D6 00 PAGE 04`` + 4 bytes (one page). The message is found
and laid out by :mod:`reader.type2`. A MIFARE Classic 1K (a 4-byte UID) holds its record in the NFC Forum
Classic layout (:mod:`reader.classic`), reached with the ACR122U's LOAD AUTHENTICATION KEYS ``FF 82 00 00 06``
+ key (volatile key slot 0), GENERAL AUTHENTICATE ``FF 86 00 00 05 01 00 BLOCK 60|61 00``, READ BINARY
``FF B0 00 BLOCK 10`` and UPDATE BINARY ``FF D6 00 BLOCK 10`` + 16 bytes; after a refused authentication the
card is selected again with the reader's direct transmit of its PN532's InListPassiveTarget
(``FF 00 00 00 04 D4 4A 01 00``). :class:`CardMemory` is the part of :class:`reader.pcsc.PCSCReader`
that does it (a card whose UID is known is never read).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from reader import classic
from reader.base import ReaderError, RecordRefused
from reader.events import normalize_uid
from reader.type2 import Type2Error, read_ndef, write_ndef

log = logging.getLogger(__name__)

SW_OK = (0x90, 0x00)
RESELECT = [0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x4A, 0x01, 0x00]
"""ACR122U direct transmit: the PN532's InListPassiveTarget, one type A target (the card selected again)."""


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


def block_io(connection: Any) -> tuple[classic.Auth, classic.Read, classic.Write]:
    """(authenticate, read a block, write a block) of a MIFARE Classic through ``connection``."""

    def auth(block: int, key_b: bool, key: bytes) -> bool:
        _d, sw1, sw2 = connection.transmit([0xFF, 0x82, 0x00, 0x00, 0x06, *key])
        if (sw1, sw2) != SW_OK:
            raise classic.ClassicError(f"LOAD AUTHENTICATION KEYS answered SW {sw1:02X} {sw2:02X}")
        _d, sw1, sw2 = connection.transmit([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, block,
                                            0x61 if key_b else 0x60, 0x00])
        if (sw1, sw2) != SW_OK:
            connection.transmit(RESELECT)
            return False
        return True

    def read(block: int) -> bytes:
        data, sw1, sw2 = connection.transmit([0xFF, 0xB0, 0x00, block, 0x10])
        if (sw1, sw2) != SW_OK or len(data) != 16:
            raise classic.ClassicError(f"READ BINARY of block {block} answered SW {sw1:02X} {sw2:02X}")
        return bytes(data)

    def write(block: int, data: bytes) -> None:
        _d, sw1, sw2 = connection.transmit([0xFF, 0xD6, 0x00, block, 0x10, *data])
        if (sw1, sw2) != SW_OK:
            raise classic.ClassicError(f"UPDATE BINARY of block {block} answered SW {sw1:02X} {sw2:02X}")

    return auth, read, write


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
            if len(uid) == 8:  # a 4-byte UID: a MIFARE Classic
                auth, read, _write = block_io(connection)
                return classic.read_ndef(auth, read)
            return read_ndef(page_io(connection)[0])
        except (Type2Error, Exception) as exc:  # not a Type 2 tag (a MIFARE Classic card), or it left
            self.counters["record_errors"] = self.counters.get("record_errors", 0) + 1
            log.info("pcsc: no record read from %s: %s", uid, exc)
            return None

    def write_record(self, uid: str, message: bytes, *, lock: bool = False, replace: bool = False) -> None:
        """Write ``message`` on the card ``uid`` lying on the reader (``lock``: read-only for good), what it
        holds read first (:meth:`reader.base.Reader.write_record`)."""
        card = normalize_uid(uid)
        with self._lock:
            if self._card_uid != card or self._connection is None:
                raise ReaderError(f"card {card} is not on the reader")
            try:
                if len(card) == 8:
                    classic.write_ndef(*block_io(self._connection), message, lock=lock, replace=replace, uid=card)
                else:
                    write_ndef(*page_io(self._connection), message, lock=lock, replace=replace, uid=card)
            except RecordRefused:
                raise
            except Exception as exc:
                raise ReaderError(f"cannot write the record on {card}: {exc}") from exc
