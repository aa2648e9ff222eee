"""A card's memory through a PN532: the NDEF record of an NTAG213/215/216 sticker read and written with
InDataExchange (UM0701-02 7.3.8) carrying the tag's own READ (30h, four pages) and WRITE (A2h, one page).
The message is found and laid out by :mod:`reader.type2`. A MIFARE Classic 1K (a 4-byte UID) is read and
written in the NFC Forum Classic layout (:mod:`reader.classic`) with the PN532's own MIFARE commands in
InDataExchange: the authentication ``60``/``61 block key uid`` (the chip runs Crypto1), READ ``30 block`` and
WRITE ``A0 block`` + 16 bytes; after a refused authentication the card is selected again
(InListPassiveTarget). A card whose UID is known is never read.

The link belongs to the polling thread, so a write asked from another thread (``cards enroll --write``)
waits for the poll that finds its card on the reader (:meth:`PN532Memory.serve_writes`). The PN532 reports
a tag's 4-bit ACK as an error status, so every written page is read back to check it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reader import classic
from reader import pn532_frames as pf
from reader.base import ReaderError, RecordRefused
from reader.events import normalize_uid
from reader.type2 import Type2Error, read_ndef, write_ndef

log = logging.getLogger(__name__)

CMD_IN_DATA_EXCHANGE = 0x40
WRITE_WAIT_S = 5.0
"""How long a write waits for its card to be found on the reader, in seconds."""


@dataclass
class _Write:
    uid: str
    message: bytes
    lock: bool
    replace: bool = False
    done: threading.Event = field(default_factory=threading.Event)
    error: str = ""
    refused: RecordRefused | None = None


def page_io(link: Any) -> tuple[Callable[[int], bytes], Callable[[int, bytes], None]]:
    """(read four pages, write one page) on target 1 through ``link``; :class:`Type2Error` on failure."""

    def exchange(command: bytes) -> bytes:
        frame = link.command(pf.encode_command(CMD_IN_DATA_EXCHANGE, b"\x01" + command), CMD_IN_DATA_EXCHANGE)
        data = bytes(frame.data[1:])
        if not data or data[0] & 0x3F:
            raise Type2Error(f"InDataExchange {command.hex()} answered status {data[:1].hex() or 'none'}")
        return data[1:]

    def read(page: int) -> bytes:
        data = exchange(bytes([0x30, page]))
        if len(data) != 16:
            raise Type2Error(f"READ of page {page} gave {len(data)} bytes")
        return data

    def write(page: int, data: bytes) -> None:
        with contextlib.suppress(Type2Error):  # the tag's 4-bit ACK: an error status; the read-back decides
            exchange(bytes([0xA2, page]) + data)
        back = read(page)[:4]
        if page != 2 and back != data:
            raise Type2Error(f"page {page} reads {back.hex()} after writing {bytes(data).hex()} (locked?)")

    return read, write


def block_io(link: Any, uid: str) -> tuple[classic.Auth, classic.Read, classic.Write]:
    """(authenticate, read a block, write a block) of the MIFARE Classic ``uid``, target 1, through ``link``."""

    def exchange(command: bytes) -> tuple[int, bytes]:
        frame = link.command(pf.encode_command(CMD_IN_DATA_EXCHANGE, b"\x01" + command), CMD_IN_DATA_EXCHANGE)
        data = bytes(frame.data[1:])
        return (data[0] & 0x3F if data else 0xFF), data[1:]

    def auth(block: int, key_b: bool, key: bytes) -> bool:
        status, _ = exchange(bytes([0x61 if key_b else 0x60, block]) + key + bytes.fromhex(uid))
        if status:  # the card stopped answering: select it again for what follows
            link.command(pf.in_release(0), pf.CMD_IN_RELEASE)
            link.command(pf.in_list_passive_target(1, pf.BRTY_106_TYPE_A), pf.CMD_IN_LIST_PASSIVE_TARGET)
        return status == 0

    def read(block: int) -> bytes:
        status, data = exchange(bytes([0x30, block]))
        if status or len(data) != 16:
            raise classic.ClassicError(f"READ of block {block} answered status {status:02X}")
        return data

    def write(block: int, data: bytes) -> None:
        status, _ = exchange(bytes([0xA0, block]) + bytes(data))
        if status:
            raise classic.ClassicError(f"WRITE of block {block} answered status {status:02X} (access bits?)")

    return auth, read, write


class PN532Memory:
    """The NDEF record part of :class:`reader.pn532.PN532Reader`."""

    _known: Callable[[str], bool] = staticmethod(lambda _uid: True)  # until set_known: no reads
    counters: dict[str, int]

    def set_known(self, known: Callable[[str], bool]) -> None:
        """Read the record only of cards ``known`` says are not known."""
        self._known = known

    def read_record(self, link: Any, uid: str) -> bytes | None:
        """The NDEF message on the active target ``uid``, unless it is known (then no read at all)."""
        if self._known(uid):
            return None
        try:
            if len(uid) == 8:  # a 4-byte UID: a MIFARE Classic
                auth, read, _write = block_io(link, uid)
                return classic.read_ndef(auth, read)
            return read_ndef(page_io(link)[0])
        except Exception as exc:  # not a Type 2 tag, it left, or a confused exchange
            self.counters["record_errors"] = self.counters.get("record_errors", 0) + 1
            log.info("pn532: no record read from %s: %s", uid, exc)
            return None

    def write_record(self, uid: str, message: bytes, *, lock: bool = False, replace: bool = False) -> None:
        """Write ``message`` on the card ``uid`` at the next poll that finds it (``lock``: read-only), what
        it holds read first (:meth:`reader.base.Reader.write_record`)."""
        job = _Write(normalize_uid(uid), bytes(message), lock, replace)
        self._writes().append(job)
        if not job.done.wait(WRITE_WAIT_S):
            self._writes().remove(job)
            raise ReaderError(f"card {job.uid} was not on the reader within {WRITE_WAIT_S:g} s")
        if job.refused is not None:
            raise job.refused
        if job.error:
            raise ReaderError(f"cannot write the record on {job.uid}: {job.error}")

    def serve_writes(self, link: Any, uid: str) -> None:
        """On the polling thread, with ``uid`` the active target: the writes waiting for it."""
        for job in [j for j in self._writes() if j.uid == uid]:
            self._writes().remove(job)
            try:
                if len(uid) == 8:
                    classic.write_ndef(*block_io(link, uid), job.message, lock=job.lock, replace=job.replace, uid=uid)
                else:
                    write_ndef(*page_io(link), job.message, lock=job.lock, replace=job.replace, uid=uid)
            except RecordRefused as exc:
                job.refused = exc
            except Exception as exc:
                job.error = str(exc)
            job.done.set()

    def _writes(self) -> list[_Write]:
        queue: list[_Write] | None = getattr(self, "_write_queue", None)
        if queue is None:
            queue = []
            self._write_queue = queue
        return queue
