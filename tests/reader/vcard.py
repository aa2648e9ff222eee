"""A virtual contactless card for vsmartcard-vpcd, so PC/SC tests need no hardware.

pcscd's ``vpcd`` driver listens on TCP 35963 (reader ``Virtual PCD 00 00``) and 35964 (``Virtual PCD
00 01``); a virtual card is a TCP client of that port.
Every message, both ways, is a 2-byte big-endian length and a payload. A 1-byte payload from vpcd is
a control code: ``00`` power off, ``01`` power on, ``02`` reset (no answer to these three), ``04`` get
the ATR (answer: the ATR). A longer payload is an APDU, answered with data + SW1 SW2. Closing the
socket removes the card.

This card answers like a contactless card behind a PC/SC part 3 reader: the ATR of an ISO 14443
storage card, ``FF CA 00 00 00`` (GET DATA: UID) with the UID and ``90 00``, the ACR122U's reader
pseudo-APDUs ``FF 00 ...`` with ``90 00``, anything else with ``6D 00`` (instruction not supported).
With ``memory`` (an NTAG21x of firmware_sim/mfrc522_cards.py) it is that sticker: READ BINARY
``FF B0 00 PAGE 10`` answers four pages, UPDATE BINARY ``FF D6 00 PAGE 04`` writes one (``63 00`` when
the tag NAKs: a locked page), as an ACR122U does for a Type 2 Tag.
With ``memory`` a :class:`firmware_sim.classic_blocks.ClassicMemory` it is a MIFARE Classic 1K behind an
ACR122U: LOAD AUTHENTICATION KEYS ``FF 82 00 NN 06`` + key, GENERAL AUTHENTICATE ``FF 86 00 00 05 01 00
BLOCK 60|61 NN`` (``63 00`` on a wrong key, and the card answers nothing more until selected again by the
direct transmit of InListPassiveTarget ``FF 00 00 00 04 D4 4A 01 00``), READ BINARY ``FF B0 00 BLOCK 10`` and
UPDATE BINARY ``FF D6 00 BLOCK 10`` + 16 bytes of the authenticated sector (the access bits decide).
Every APDU received is recorded in :attr:`VirtualCard.apdus`.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import struct
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence

from firmware_sim.classic_blocks import ClassicMemory

VPCD_HOST = "127.0.0.1"
VPCD_PORTS = (35963, 35964)
"""TCP ports of the two readers Debian's vpcd configures (``Virtual PCD 00 00`` and ``00 01``)."""

VPCD_READERS = {35963: "Virtual PCD 00 00", 35964: "Virtual PCD 00 01"}

ATR_ISO14443 = bytes.fromhex("3B8F8001804F0CA000000306030001000000006A")
"""PC/SC part 3 ATR of a contactless storage card (MIFARE Classic 1K), TCK included."""

CTRL_OFF, CTRL_ON, CTRL_RESET, CTRL_ATR = 0x00, 0x01, 0x02, 0x04
GET_UID = bytes.fromhex("FFCA000000")
SW_OK = b"\x90\x00"
SW_INS_NOT_SUPPORTED = b"\x6d\x00"
SW_FAILED = b"\x63\x00"
RESELECT = bytes.fromhex("FF00000004D44A0100")


class VirtualCardError(ConnectionError):
    """The virtual card could not reach vpcd (is pcscd running with the vpcd driver?)."""


class VirtualCard:
    """One card on one vpcd reader: ``insert()`` connects (card arrives), ``remove()`` disconnects."""

    def __init__(self, uid: str, port: int = VPCD_PORTS[0], host: str = VPCD_HOST, memory: object = None) -> None:
        self.uid = bytes.fromhex(uid.replace(":", "").replace(" ", ""))
        self.memory = memory
        self.port = port
        self.host = host
        self.apdus: list[bytes] = []
        self.controls: list[int] = []
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.keys: dict[int, bytes] = {}
        self.auth: tuple[int, bool] | None = None  # the Classic sector authenticated, with key B?
        self.muted = False

    @property
    def inserted(self) -> bool:
        """True while connected to vpcd."""
        return self._sock is not None

    def insert(self, timeout: float = 3.0) -> None:
        """Connect to vpcd (the card enters the field); retries refused connects until ``timeout`` s. On one of
        the shared :data:`VPCD_READERS`, it returns once pcscd reports the card, seating it again when pcscd
        has not seen it within :data:`SEAT_S` (for at most :data:`SEATED_S`; then the test's own wait says
        what is missing)."""
        if self._sock is not None:
            return
        reader = VPCD_READERS.get(self.port) if self.host == VPCD_HOST else None
        deadline = time.monotonic() + SEATED_S
        while True:
            self._connect(timeout)
            if reader is None or _seen(reader, SEAT_S) or time.monotonic() >= deadline:
                return
            self.remove()

    def _connect(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                sock = socket.create_connection((self.host, self.port), timeout=1.0)
                break
            except OSError as exc:
                if time.monotonic() >= deadline:
                    raise VirtualCardError(f"cannot reach vpcd on {self.host}:{self.port}: {exc}") from exc
                time.sleep(0.05)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock = sock
        self._thread = threading.Thread(target=self._serve, args=(sock,), name=f"vcard-{self.port}", daemon=True)
        self._thread.start()

    def remove(self) -> None:
        """Close the socket (the card leaves the field); idempotent."""
        sock, self._sock = self._sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def __enter__(self) -> VirtualCard:
        self.insert()
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def answer(self, apdu: bytes) -> bytes:
        """The response (data + SW1 SW2) to one command APDU."""
        with self._lock:
            self.apdus.append(apdu)
        if apdu == GET_UID:
            return self.uid + SW_OK
        if isinstance(self.memory, ClassicMemory):
            return self._classic(apdu, self.memory)
        if apdu[:2] == b"\xff\x00":  # ACR122U pseudo-APDUs: LED/buzzer, beep on/off, firmware...
            return SW_OK
        tag = self.memory
        if tag is not None and apdu[:3] == b"\xff\xb0\x00" and len(apdu) == 5:
            pages = tag.pages  # type: ignore[attr-defined]
            return b"".join(bytes(pages[(apdu[3] + i) % len(pages)]) for i in range(4))[:apdu[4]] + SW_OK
        if tag is not None and apdu[:3] == b"\xff\xd6\x00" and len(apdu) == 9 and apdu[4] == 4:
            ack = tag._write(apdu[3], apdu[5:9])  # type: ignore[attr-defined]
            return SW_OK if ack == b"\x0a" else b"\x63\x00"
        return SW_INS_NOT_SUPPORTED

    def _classic(self, apdu: bytes, memory: ClassicMemory) -> bytes:
        if apdu == RESELECT:
            self.auth, self.muted = None, False
            return bytes.fromhex("D54B0101000408") + b"\x04" + self.uid + SW_OK
        if apdu[:2] == b"\xff\x00":
            return SW_OK
        if apdu[:4] == b"\xff\x82\x00" + apdu[3:4] and len(apdu) == 11 and apdu[4] == 6:
            self.keys[apdu[3]] = apdu[5:11]
            return SW_OK
        if apdu[:5] == bytes.fromhex("FF86000005") and len(apdu) == 10 and apdu[5:7] == b"\x01\x00":
            block, key_b = apdu[7], apdu[8] == 0x61
            if not self.muted and block < 64 and self.keys.get(apdu[9]) == memory.key(block // 4, key_b):
                self.auth = (block // 4, key_b)
                return SW_OK
            self.auth, self.muted = None, True
            return SW_FAILED
        if apdu[:3] in (b"\xff\xb0\x00", b"\xff\xd6\x00") and len(apdu) >= 5 and apdu[4] == 16:
            block, auth = apdu[3], self.auth
            if self.muted or auth is None or block >= 64 or block // 4 != auth[0]:
                return SW_FAILED
            if apdu[1] == 0xB0 and len(apdu) == 5:
                data = memory.read(block, auth[1])
                return SW_FAILED if data is None else data + SW_OK
            if apdu[1] == 0xD6 and len(apdu) == 21:
                return SW_OK if memory.write(block, apdu[5:21], auth[1]) else SW_FAILED
        if apdu == GET_UID:
            return self.uid + SW_OK
        return SW_INS_NOT_SUPPORTED

    def _serve(self, sock: socket.socket) -> None:
        try:
            while True:
                header = _recv_exact(sock, 2)
                (length,) = struct.unpack(">H", header)
                payload = _recv_exact(sock, length)
                if length == 1:
                    self.controls.append(payload[0])
                    if payload[0] == CTRL_ATR:
                        _send(sock, ATR_ISO14443)
                    continue
                _send(sock, self.answer(payload))
        except (OSError, EOFError):
            return


def _send(sock: socket.socket, payload: bytes) -> None:
    sock.sendall(struct.pack(">H", len(payload)) + payload)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("vpcd closed the connection")
        data += chunk
    return bytes(data)


SEAT_S = 1.5
"""Seconds a connected card is given for pcscd to report it before it is seated again. pcscd sees a card here
0.3-0.7 s after it connects; with both cores busy, vpcd now and then went on answering its presence polls
with the card's ATR for as long as the card stayed (5 s and more, 1 insertion in 3 to 8) while pcscd never
reported it or powered it, so no reader saw a tap; the same card seated again was seen at once."""
SEATED_S = 10.0
"""Seconds :meth:`VirtualCard.insert` goes on seating a card that pcscd does not report."""


def _seen(reader: str, within: float) -> bool:
    """Whether pcscd reports a card in ``reader`` within ``within`` seconds."""
    deadline = time.monotonic() + within
    while not reader_has_card(reader):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


def reader_has_card(reader: str) -> bool | None:
    """Whether pcscd reports a card in ``reader`` now (None if it does not know the reader)."""
    from smartcard import scard

    hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    if hresult != scard.SCARD_S_SUCCESS:
        return None
    try:
        hresult, states = scard.SCardGetStatusChange(context, 0, [(reader, scard.SCARD_STATE_UNAWARE)])
        if hresult != scard.SCARD_S_SUCCESS or not states:
            return None
        _name, state, _atr = states[0]
        return bool(state & scard.SCARD_STATE_PRESENT)
    finally:
        scard.SCardReleaseContext(context)


def wait_card_state(reader: str, present: bool, timeout: float = 3.0) -> None:
    """Wait until pcscd, and the card monitor of this process's pcsc:// readers, see ``reader`` with
    (``present``) or without a card; AssertionError on timeout."""
    from reader.pcsc import monitored_cards

    def settled() -> bool:
        if reader_has_card(reader) is not present:
            return False
        return present or reader not in monitored_cards()

    deadline = time.monotonic() + timeout
    while not settled():
        if time.monotonic() >= deadline:
            state = "a card" if present else "no card"
            raise AssertionError(f"pcscd did not report {state} in {reader!r} within {timeout} s")
        time.sleep(0.02)


_claims_lock = threading.Lock()
_claimed_ports: set[int] = set()
_global_fd: int | None = None


def _lock_path(name: str) -> str:
    return os.path.join(tempfile.gettempdir(), f"boardbank-{name}.lock")


@contextlib.contextmanager
def claim_port(ports: Sequence[int] = VPCD_PORTS, timeout: float = 120.0) -> Iterator[int]:
    """Exclusive use of one of the vpcd ``ports`` (and its reader) while the block runs.

    Test processes running at once on one machine would otherwise put cards on the same virtual
    reader. While any port is claimed in this process, the process holds an exclusive lock file
    (``flock`` in the temporary directory) that other processes wait for, so the PC/SC tests of
    several processes take turns; inside the process, ports are handed out from a set (a test with
    two readers claims both). Waits up to ``timeout`` s.
    """
    global _global_fd
    deadline = time.monotonic() + timeout
    with _claims_lock:
        if not _claimed_ports:
            fd = os.open(_lock_path("vpcd"), os.O_RDWR | os.O_CREAT, 0o666)
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        os.close(fd)
                        raise AssertionError(f"the vpcd readers stayed busy for {timeout} s (another test process)") from None
                    time.sleep(0.05)
            _global_fd = fd
        free = [p for p in ports if p not in _claimed_ports]
        if not free:
            raise AssertionError(f"every vpcd port of {list(ports)} is in use in this process")
        port = free[0]
        _claimed_ports.add(port)
    try:
        yield port
    finally:
        with _claims_lock:
            _claimed_ports.discard(port)
            if not _claimed_ports and _global_fd is not None:
                fcntl.flock(_global_fd, fcntl.LOCK_UN)
                os.close(_global_fd)
                _global_fd = None
