"""An NDEF message in the memory of an NFC Forum Type 2 Tag (NTAG213/215/216, MIFARE Ultralight), whatever
the reader: the reader gives ``read(page) -> 16 bytes`` (four pages, as the tag's READ answers) and
``write(page, 4 bytes)``; this module finds and writes the NDEF message TLV. It moves bytes only: what
the message means is decided where card roles are resolved.

Layout (NFC Forum Type 2 Tag spec 2.0 / NTAG213/215/216 data sheet 8.5): page 3 the Capability Container
(``E1 10 SIZE/8 00``), the data area from page 4 as TLVs: ``00`` null, ``03`` NDEF message (length in one
byte, or ``FF`` and two), ``FE`` terminator. Locking sets the static lock bytes (page 2, bytes 2-3: pages
3-15) and the dynamic lock bytes after the data area (NTAG213 page 40, NTAG215 130, NTAG216 226).
"""

from __future__ import annotations

from collections.abc import Callable

from reader.base import check_overwrite

Read = Callable[[int], bytes]
Write = Callable[[int, bytes], None]
DYNAMIC_LOCK_PAGE = {0x12: 40, 0x3E: 130, 0x6D: 226}
"""The dynamic lock page by the Capability Container's size byte (NTAG213, NTAG215, NTAG216)."""
MAX_PAGES = 64
"""How far a read looks for the message (256 bytes of data area: a boardbank record needs about 56)."""


class Type2Error(OSError):
    """The tag's memory is not a Type 2 Tag's, has no room, or refused a write."""


def read_ndef(read: Read) -> bytes | None:
    """The NDEF message in the tag's data area, or None (no Capability Container, no message TLV)."""
    header = read(0)
    if len(header) < 16 or header[12] != 0xE1:
        return None
    data = bytearray()
    next_page = 4

    def need(n: int) -> None:
        nonlocal next_page
        while len(data) < n and next_page < 4 + MAX_PAGES:
            chunk = read(next_page)
            if len(chunk) < 16:
                break
            data.extend(chunk)
            next_page += 4

    i = 0
    while True:
        need(i + 1)
        if i >= len(data):
            return None
        tag = data[i]
        if tag == 0x00:
            i += 1
            continue
        if tag == 0xFE:
            return None
        need(i + 4)
        length, start = data[i + 1], i + 2
        if length == 0xFF:
            length, start = int.from_bytes(data[i + 2:i + 4], "big"), i + 4
        need(start + length)
        if start + length > len(data):
            return None
        if tag == 0x03:
            return bytes(data[start:start + length])
        i = start + length


def is_locked(header: bytes) -> bool:
    """Whether the tag whose pages 0-3 are ``header`` is read-only where a record lies: a static lock bit of
    pages 4-15 set (page 2, bytes 2-3), or the Capability Container's write access ``0F`` (page 3 byte 3)."""
    return bool(header[10] & 0xF0 or header[11] or header[15] & 0x0F == 0x0F)


def write_ndef(read: Read, write: Write, message: bytes, *, lock: bool = False, replace: bool = False,
               uid: str = "") -> None:
    """Write ``message`` as the data area's NDEF TLV (then the terminator); ``lock`` sets the lock bits.
    What the tag holds is read first (:func:`reader.base.check_overwrite`): the same message is not written
    again; a locked tag, or another message without ``replace``, is refused (``RecordRefused``)."""
    header = read(0)
    if len(header) < 16 or header[12] != 0xE1:
        raise Type2Error("not an NFC Forum Type 2 Tag (no Capability Container on page 3)")
    if not check_overwrite(uid, read_ndef(read), is_locked(header), message, lock=lock, replace=replace):
        return
    room = header[14] * 8
    length = bytes([len(message)]) if len(message) < 0xFF else b"\xff" + len(message).to_bytes(2, "big")
    tlv = b"\x03" + length + message + b"\xfe"
    if len(tlv) > room:
        raise Type2Error(f"the message needs {len(tlv)} bytes, the tag has {room}")
    tlv += bytes(-len(tlv) % 4)
    for i in range(0, len(tlv), 4):
        write(4 + i // 4, tlv[i:i + 4])
    if lock:
        write(2, bytes([header[8], header[9], 0xFF, 0xFF]))  # static lock bytes: pages 3-15
        dynamic = DYNAMIC_LOCK_PAGE.get(header[14])
        if dynamic is not None:
            write(dynamic, b"\xff\xff\xff\x00")
