"""An NDEF message on a MIFARE Classic 1K, whatever the reader, in the NFC Forum layout (NXP AN1304 "NFC Type
MIFARE Classic Tag Operation"; NXP AN10787 "MIFARE Application Directory"): the reader gives
``auth(block, key_b, key) -> bool`` (the three-pass authentication of the block's sector with key A or B;
after a False the reader has selected the card again), ``read(block) -> 16 bytes`` and
``write(block, 16 bytes)``; this module finds and writes the message. It moves bytes only.

Layout:

* sector 0, the MAD (MIFARE Application Directory v1): block 1 byte 0 its CRC-8 (polynomial 1Dh, preset
  C7h, over the 31 bytes after it), byte 1 the info byte, then one 2-byte AID per sector 1-15 (block 1
  bytes 2-15, block 2): ``03 E1`` for an NDEF sector, ``00 00`` free. Its trailer: key A ``A0A1A2A3A4A5``
  (public), access bits ``78 77 88`` (data read with A or B, written with B), general purpose byte ``C1``
  (MAD v1, multi-application card);
* the NDEF sectors, the first contiguous run of ``03 E1`` sectors: their data blocks (3 a sector) hold
  the TLVs as on a Type 2 Tag (``03`` length message, ``FE``); their trailers: key A ``D3F7D3F7D3F7``
  (public), access bits ``7F 07 88`` (data read and written with A or B), GPB ``40`` (NDEF 1.0, read and
  write); locked: access bits ``07 8F 0F`` (data read only, trailer frozen), GPB ``43``.

Writing a new card (transport key A ``FFFFFFFFFFFF``) formats the sectors the message needs; a card already
formatted is written with the NDEF key. Key B stays the transport key ``FFFFFFFFFFFF`` (locking uses it).
"""

from __future__ import annotations

from collections.abc import Callable

from reader.base import check_overwrite

Auth = Callable[[int, bool, bytes], bool]
Read = Callable[[int], bytes]
Write = Callable[[int, bytes], None]

MAD_KEY_A = bytes.fromhex("A0A1A2A3A4A5")
NDEF_KEY_A = bytes.fromhex("D3F7D3F7D3F7")
TRANSPORT_KEY = bytes.fromhex("FFFFFFFFFFFF")
NDEF_AID = b"\x03\xe1"
MAD_TRAILER = MAD_KEY_A + bytes.fromhex("787788C1") + TRANSPORT_KEY
NDEF_TRAILER = NDEF_KEY_A + bytes.fromhex("7F078840") + TRANSPORT_KEY
LOCKED_TRAILER = NDEF_KEY_A + bytes.fromhex("078F0F43") + TRANSPORT_KEY
MAD_INFO = 0x01


class ClassicError(OSError):
    """The card refused an authentication or a write, or the message does not fit."""


def mad_crc(data: bytes) -> int:
    """CRC-8 of the MAD (AN10787 3.7: polynomial x^8+x^4+x^3+x^2+1, preset C7h) over ``data``."""
    crc = 0xC7
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1D) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def mad_blocks(sectors: range) -> tuple[bytes, bytes]:
    """MAD blocks 1 and 2 claiming ``sectors`` (within 1-15) for NDEF."""
    aids = b"".join(NDEF_AID if s in sectors else b"\x00\x00" for s in range(1, 16))
    body = bytes([MAD_INFO]) + aids
    both = bytes([mad_crc(body)]) + body
    return both[:16], both[16:]


def ndef_sectors(block1: bytes, block2: bytes) -> list[int]:
    """The first contiguous run of NDEF sectors a MAD names (empty: none, or a MAD with a wrong CRC)."""
    both = block1 + block2
    if mad_crc(both[1:32]) != both[0]:
        return []
    aids = [both[2 + 2 * i:4 + 2 * i] for i in range(15)]
    run: list[int] = []
    for sector, aid in enumerate(aids, start=1):
        if aid == NDEF_AID:
            run.append(sector)
        elif run:
            break
    return run


def tlv_message(data: bytes) -> tuple[bool, bytes | None]:
    """(done, message) of the TLVs in ``data``: done with the NDEF message, or with None at the terminator
    or a broken TLV; not done when the TLVs go on past ``data``."""
    i = 0
    while i < len(data):
        tag = data[i]
        if tag == 0x00:
            i += 1
            continue
        if tag == 0xFE:
            return True, None
        if i + 2 > len(data) or (data[i + 1] == 0xFF and i + 4 > len(data)):
            return False, None
        length, start = data[i + 1], i + 2
        if length == 0xFF:
            length, start = int.from_bytes(data[i + 2:i + 4], "big"), i + 4
        if start + length > len(data):
            return False, None
        if tag == 0x03:
            return True, bytes(data[start:start + length])
        i = start + length
    return False, None


def read_ndef(auth: Auth, read: Read) -> bytes | None:
    """The NDEF message on the card, or None (no MAD with the public key, no NDEF sector, no message)."""
    if not auth(0, False, MAD_KEY_A):
        return None
    sectors = ndef_sectors(read(1), read(2))
    data = bytearray()
    for sector in sectors:
        if not auth(sector * 4, False, NDEF_KEY_A):
            return None
        for block in range(sector * 4, sector * 4 + 3):
            data += read(block)
        done, message = tlv_message(bytes(data))
        if done:
            return message
    return None


def trailer_locked(trailer: bytes) -> bool:
    """Whether a sector trailer makes its data read-only: the NFC Forum's read-only general purpose byte
    (access nibble ``3``, AN1304) or the access bits ``07 8F 0F`` a lock writes (MF1S50 8.7)."""
    return len(trailer) >= 10 and (trailer[9] & 0x0F == 0x03 or bytes(trailer[6:9]) == LOCKED_TRAILER[6:9])


def read_state(auth: Auth, read: Read) -> tuple[bytes | None, bool]:
    """(the NDEF message on the card or None, whether its first NDEF sector is locked), read before a
    write: a card without the MAD (new, or another app's) holds no message and is not locked."""
    if not auth(0, False, MAD_KEY_A):
        return None, False
    sectors = ndef_sectors(read(1), read(2))
    data, locked = bytearray(), False
    for n, sector in enumerate(sectors):
        if not auth(sector * 4, False, NDEF_KEY_A):
            return None, locked
        if n == 0:
            locked = trailer_locked(read(sector * 4 + 3))
        for block in range(sector * 4, sector * 4 + 3):
            data += read(block)
        done, message = tlv_message(bytes(data))
        if done:
            return message, locked
    return None, locked


def _sectors_needed(tlv: bytes) -> int:
    return -(-len(tlv) // 48)


def write_ndef(auth: Auth, read: Read, write: Write, message: bytes, *, lock: bool = False, replace: bool = False,
               uid: str = "") -> None:
    """Write ``message`` as the NDEF TLV (then the terminator), formatting a new card; ``lock``: the NDEF
    sectors read-only for good. What the card holds is read first (:func:`read_state`,
    :func:`reader.base.check_overwrite`): the same message is not written again; a locked card, or another
    message without ``replace``, is refused (``RecordRefused``)."""
    if not check_overwrite(uid, *read_state(auth, read), message, lock=lock, replace=replace):
        return
    length = bytes([len(message)]) if len(message) < 0xFF else b"\xff" + len(message).to_bytes(2, "big")
    tlv = b"\x03" + length + message + b"\xfe"
    need = _sectors_needed(tlv)
    if need > 15:
        raise ClassicError(f"the message needs {len(tlv)} bytes, a MIFARE Classic 1K has {15 * 48}")
    tlv += bytes(need * 48 - len(tlv))
    if auth(0, False, MAD_KEY_A):
        sectors = ndef_sectors(read(1), read(2))
        if len(sectors) < need:
            raise ClassicError(f"the card's MAD gives NDEF {len(sectors)} sector(s), the message needs {need}")
        sectors, key, trailer = sectors[:need], NDEF_KEY_A, b""
    else:
        if not auth(0, False, TRANSPORT_KEY):
            raise ClassicError("sector 0 takes neither the MAD key nor the transport key")
        block1, block2 = mad_blocks(range(1, 1 + need))
        write(1, block1)
        write(2, block2)
        write(3, MAD_TRAILER)
        sectors, key, trailer = list(range(1, 1 + need)), TRANSPORT_KEY, NDEF_TRAILER
    for n, sector in enumerate(sectors):
        if not auth(sector * 4, False, key):
            raise ClassicError(f"sector {sector} refused its key A")
        for i in range(3):
            write(sector * 4 + i, tlv[n * 48 + i * 16:n * 48 + i * 16 + 16])
        if trailer:
            write(sector * 4 + 3, trailer)
    if lock:
        for sector in sectors:
            if not auth(sector * 4, True, TRANSPORT_KEY):
                raise ClassicError(f"sector {sector} refused key B: it cannot be locked")
            write(sector * 4 + 3, LOCKED_TRAILER)
