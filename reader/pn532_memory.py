"""A card's memory through a PN532: the NDEF record of an NTAG213/215/216 sticker read and written with
InDataExchange (UM0701-02 7.3.8) carrying the tag's own READ (30h, four pages) and WRITE (A2h, one page).
The message is found and laid out by :mod:`reader.type2`. A card whose UID is known is never read.

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

from reader import pn532_frames as pf
from reader.base import ReaderError
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
    done: threading.Event = field(default_factory=threading.Event)
    error: str = ""


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
            return read_ndef(page_io(link)[0])
        except Exception as exc:  # not a Type 2 tag, it left, or a confused exchange
            self.counters["record_errors"] = self.counters.get("record_errors", 0) + 1
            log.info("pn532: no record read from %s: %s", uid, exc)
            return None

    def write_record(self, uid: str, message: bytes, *, lock: bool = False) -> None:
        """Write ``message`` on the card ``uid`` at the next poll that finds it (``lock``: read-only)."""
        job = _Write(normalize_uid(uid), bytes(message), lock)
        self._writes().append(job)
        if not job.done.wait(WRITE_WAIT_S):
            self._writes().remove(job)
            raise ReaderError(f"card {job.uid} was not on the reader within {WRITE_WAIT_S:g} s")
        if job.error:
            raise ReaderError(f"cannot write the record on {job.uid}: {job.error}")

    def serve_writes(self, link: Any, uid: str) -> None:
        """On the polling thread, with ``uid`` the active target: the writes waiting for it."""
        for job in [j for j in self._writes() if j.uid == uid]:
            self._writes().remove(job)
            read, write = page_io(link)
            try:
                write_ndef(read, write, job.message, lock=job.lock)
            except Exception as exc:
                job.error = str(exc)
            job.done.set()

    def _writes(self) -> list[_Write]:
        queue: list[_Write] | None = getattr(self, "_write_queue", None)
        if queue is None:
            queue = []
            self._write_queue = queue
        return queue
