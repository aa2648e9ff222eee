"""A card's memory through our bridge (protocol v2's card-memory verbs, hardware/protocol.md): the host asks
``READ uid page`` (answer ``DATA uid page <16 bytes in hex>``) and ``WRITE uid page <4 bytes in hex>``
(answer ``DONE uid page``); the firmware's MFRC522 does the NTAG's own READ and WRITE. A MIFARE Classic (a
4-byte UID) is read with ``MREAD uid block key`` (answer ``DATA uid block ...``) and written with ``MWRITE uid
block key <16 bytes in hex>`` (``DONE uid block``), the firmware authenticating the block's sector with the
named public key (``AM`` the MAD's key A, ``AN`` the NDEF key A, ``AT`` / ``BT`` the transport keys) before
the block; the layout is :mod:`reader.classic`'s. ``ERR 6`` is a failed read or write, ``ERR 2`` a firmware
without these verbs: the card is then tapped without its record.

The link thread must not wait, so a new card whose UID is not known is read by a short-lived thread that
emits its CardPresented when the record is in (:meth:`BridgeMemory.read_then_present`); a GONE meanwhile
is held until then. A known UID is presented at once, never read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from reader import classic
from reader.base import ReaderError, RecordRefused
from reader.events import CardPresented, CardRemoved, ReaderEvent, normalize_uid
from reader.protocol import Frame, encode
from reader.type2 import read_ndef, write_ndef

ANSWER_S = 0.5
"""Seconds to wait for each DATA / DONE."""
READ_PAGES = (0, 4, 8, 12, 16)
"""Pages read for a record: the header and pages 4-19 (64 bytes: a boardbank record and its TLV fit)."""
KEY_NAMES = {classic.MAD_KEY_A: "M", classic.NDEF_KEY_A: "N", classic.TRANSPORT_KEY: "T"}
"""The keys MREAD / MWRITE can name (the firmware holds them; no key crosses the wire)."""


class BridgeMemory:
    """The card-memory part of :class:`reader.bridge.BridgeReader`."""

    _known: Callable[[str], bool] = staticmethod(lambda _uid: True)  # until set_known: no reads
    _link: Any
    _stats: Any
    url: str

    def _memory_init(self) -> None:
        self._waiters: dict[tuple[str, str, int], tuple[threading.Event, list[Frame]]] = {}
        self._mem_lock = threading.Lock()
        self._reading: set[str] = set()
        self._held_gone: dict[str, CardRemoved] = {}
        self._memory_verbs = True  # False once the firmware answered ERR 2 to READ
        self._classic_verbs = True  # False once it answered ERR 2 to MREAD / MWRITE

    def set_known(self, known: Callable[[str], bool]) -> None:
        """Read the record only of cards ``known`` says are not known."""
        self._known = known

    _emit: Callable[[ReaderEvent], None]  # the reader's own (reader/bridge.py)

    # -------------------------------------------------------------- requests (any thread but the link's)
    def _request(self, verb: str, uid: str, page: int, *rest: str) -> Frame | None:
        """Send ``verb uid page ...``; the DATA/DONE answer, or None (ERR, or no answer in time)."""
        want = "DATA" if verb in ("READ", "MREAD") else "DONE"
        event, box = threading.Event(), list[Frame]()
        with self._mem_lock:
            self._waiters[(want, uid, page)] = (event, box)
        link = self._link
        if link is None or not (self._classic_verbs if verb[0] == "M" else self._memory_verbs):
            return None
        link.write(encode(verb, uid, page, *rest))
        event.wait(ANSWER_S)
        with self._mem_lock:
            self._waiters.pop((want, uid, page), None)
        return box[0] if box and box[0].verb == want else None

    def _pages(self, uid: str) -> tuple[Callable[[int], bytes], Callable[[int, bytes], None]]:
        def read(page: int) -> bytes:
            answer = self._request("READ", uid, page)
            return b"" if answer is None else bytes.fromhex(answer.args[2])

        def write(page: int, data: bytes) -> None:
            if self._request("WRITE", uid, page, bytes(data).hex().upper()) is None:
                raise ReaderError(f"the bridge did not write page {page} of {uid}")

        return read, write

    def _blocks(self, uid: str) -> tuple[classic.Auth, classic.Read, classic.Write]:
        """A Classic's (auth, read, write): ``auth`` reads the block with the key (the firmware authenticates
        at each MREAD / MWRITE), so a wrong key is found there; the key is remembered for its sector."""
        keys: dict[int, str] = {}
        cache: dict[int, bytes] = {}

        def mread(block: int, key: str) -> bytes | None:
            answer = self._request("MREAD", uid, block, key)
            return None if answer is None else bytes.fromhex(answer.args[2])

        def auth(block: int, key_b: bool, key: bytes) -> bool:
            name = KEY_NAMES.get(bytes(key))
            token = ("B" if key_b else "A") + (name or "")
            data = mread(block, token) if name else None
            if data is None:
                return False
            keys[block // 4], cache[block] = token, data
            return True

        def read(block: int) -> bytes:
            data = cache.pop(block, None) or mread(block, keys.get(block // 4, "AT"))
            if data is None:
                raise classic.ClassicError(f"the bridge did not read block {block} of {uid}")
            return data

        def write(block: int, data: bytes) -> None:
            cache.pop(block, None)
            if self._request("MWRITE", uid, block, keys.get(block // 4, "AT"), bytes(data).hex().upper()) is None:
                raise ReaderError(f"the bridge did not write block {block} of {uid}")

        return auth, read, write

    def write_record(self, uid: str, message: bytes, *, lock: bool = False, replace: bool = False) -> None:
        """Write ``message`` on the card ``uid`` lying on the bridge's reader (``lock``: read-only), what it
        holds read first (:meth:`reader.base.Reader.write_record`)."""
        card = normalize_uid(uid)
        try:
            if len(card) == 8:
                classic.write_ndef(*self._blocks(card), message, lock=lock, replace=replace, uid=card)
            else:
                write_ndef(*self._pages(card), message, lock=lock, replace=replace, uid=card)
        except RecordRefused:
            raise
        except (ReaderError, OSError) as exc:
            raise ReaderError(f"cannot write the record on {card}: {exc}") from exc

    def read_then_present(self, uid: str, now: float) -> None:
        """A new card: present it at once if known, else read its record in a thread, then present it."""
        if self._known(uid) or not (self._classic_verbs if len(uid) == 8 else self._memory_verbs):
            self._emit(CardPresented(uid, self.url, now))
            return
        with self._mem_lock:
            self._reading.add(uid)

        def run() -> None:
            record = self._read_classic(uid) if len(uid) == 8 else self._read_type2(uid)
            self._stats["record_reads"] += 1
            self._emit(CardPresented(uid, self.url, now, record))
            with self._mem_lock:
                self._reading.discard(uid)
                gone = self._held_gone.pop(uid, None)
            if gone is not None:
                self._emit(gone)

        threading.Thread(target=run, name=f"bridge-read-{uid}", daemon=True).start()

    def _read_type2(self, uid: str) -> bytes | None:
        pages = {p: self._pages(uid)[0](p) for p in READ_PAGES}
        memory = b"".join(pages[p] for p in READ_PAGES if len(pages[p]) == 16)
        return read_ndef(lambda p: memory[p * 4:p * 4 + 16]) if len(memory) >= 32 else None

    def _read_classic(self, uid: str) -> bytes | None:
        auth, read, _write = self._blocks(uid)
        try:
            return classic.read_ndef(auth, read)
        except (ReaderError, OSError):
            return None

    # -------------------------------------------------------------- answers (the link thread)
    def memory_frame(self, frame: Frame) -> bool:
        """DATA / DONE / ERR 6 / ERR 2 to READ: hand them to the waiting request; True if it was one."""
        if frame.verb in ("DATA", "DONE"):
            key = (frame.verb, frame.args[0], int(frame.args[1]))
        elif frame.verb == "ERR" and frame.args[0] in ("2", "6") and ("READ" in " ".join(frame.args)
                                                                      or "WRITE" in " ".join(frame.args)
                                                                      or frame.args[0] == "6"):
            text = " ".join(frame.args)
            if frame.args[0] == "2" and ("MREAD" in text or "MWRITE" in text):
                self._classic_verbs = False
            elif frame.args[0] == "2":
                self._memory_verbs = False
            with self._mem_lock:
                waiters = list(self._waiters.values())
            for event, box in waiters:
                box.append(frame)
                event.set()
            return True
        else:
            return False
        with self._mem_lock:
            waiter = self._waiters.get(key)
        if waiter is not None:
            waiter[1].append(frame)
            waiter[0].set()
        return True

    def hold_gone(self, event: CardRemoved) -> bool:
        """A GONE of a card still being read: held until its CardPresented is out; True if held."""
        with self._mem_lock:
            if event.uid in self._reading:
                self._held_gone[event.uid] = event
                return True
        return False
