"""ISO/IEC 14443-3 type A cards for the MFRC522 simulator: a UID-only card, NTAG213/215/216 and MIFARE Classic 1K.

:class:`Card` answers REQA / WUPA (ATQA), the anticollision and SELECT of cascade levels 1-3 (SAK, CRC_A) and
HLTA; a card that loses the field (:meth:`Card.reset`) is IDLE again. Its subclasses answer the commands of
an ACTIVE card:

* :class:`NtagCard` (NXP NTAG213/215/216 data sheet, rev. 3.2, sections 8.5 and 10): 45, 135 or 231 pages of
  4 bytes; page 0-2 the UID with its check bytes and the static lock bytes, page 3 the Capability Container
  (one-time programmable), the user pages from 4, then the dynamic lock bytes and the configuration pages;
  GET_VERSION (60h), READ (30h: 4 pages, rolling over to page 0), WRITE (A2h, ACK 0Ah in 4 bits, NAK 0h)
  and COMPATIBILITY_WRITE (A0h, then 16 bytes of which the first 4 are written),
  the static lock bits (page 2 bytes 2-3: pages 3-15, each set bit locks its page for good) and the
  dynamic lock bits (pages 16 on: 2 pages a bit on an NTAG213, 16 pages a bit on the larger two);
* :class:`ClassicCard` (NXP MF1S50yyX data sheet, rev. 3.2, sections 8.6-8.7 and 10.1): 16 sectors of 4
  blocks of 16 bytes, block 0 the manufacturer block, each sector's block 3 its trailer (key A, the access
  bits, key B; key A reads back as zeros); AUTH with key A (60h) or B (61h) through Crypto1
  (:mod:`firmware_sim.crypto1`), then READ (30h) and WRITE (A0h, two steps with a 4-bit ACK) of the
  blocks of the authenticated sector, all enciphered; the access bits of each sector are enforced
  (:mod:`firmware_sim.classic_blocks`: a READ or WRITE they forbid with the key used is NAKed).
"""

from __future__ import annotations

import random

from firmware_sim.classic_blocks import TRANSPORT_TRAILER as TRANSPORT_TRAILER
from firmware_sim.classic_blocks import ClassicMemory
from firmware_sim.crypto1 import Crypto1, prng_successor
from firmware_sim.pn532_card import CASCADE_TAG, crc_a

PICC_REQA, PICC_WUPA, PICC_HLTA = 0x26, 0x52, 0x50
PICC_SEL = (0x93, 0x95, 0x97)
ACK, NAK = 0x0A, 0x00


def _bits(data: bytes) -> list[int]:
    return [(b >> i) & 1 for b in data for i in range(8)]  # LSB first, as on air


def cascade_levels(uid: bytes) -> list[bytes]:
    """The 5-byte blocks (UID CLn + BCC) a card sends at each cascade level."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes([CASCADE_TAG]) + uid[:3], uid[3:]]
    else:
        parts = [bytes([CASCADE_TAG]) + uid[:3], bytes([CASCADE_TAG]) + uid[3:6], uid[6:]]
    return [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts]


class Card:
    """One ISO/IEC 14443-3 type A card: ATQA and SAK as for :mod:`firmware_sim.pn532_card`'s defaults."""

    def __init__(self, uid: bytes, sak: int | None = None) -> None:
        if len(uid) not in (4, 7, 10):
            raise ValueError(f"a type A UID has 4, 7 or 10 bytes, got {len(uid)}: {uid.hex()}")
        self.uid = uid
        self.levels = cascade_levels(uid)
        self.atqa = bytes([{4: 0x04, 7: 0x44, 10: 0x84}[len(uid)], 0x00])
        self.sak = (0x08 if len(uid) == 4 else 0x00) if sak is None else sak
        self.state = "IDLE"
        self.level = 0
        self.last_bits = 0  # valid bits in the last byte of the last answer (0: all 8)
        self.crypto: Crypto1 | None = None

    def reset(self) -> None:
        """The field went away (antenna off, SoftReset): IDLE, no cipher, when it comes back."""
        self.state, self.level, self.crypto = "IDLE", 0, None

    def answer(self, frame: bytes, tx_last_bits: int) -> bytes | None:
        """The card's answer to ``frame`` (with CRC_A where the standard has one), None for silence."""
        self.last_bits = 0
        if self.crypto is not None and self.state == "ACTIVE":
            frame = self.crypto.crypt(frame, tx_last_bits)
        if tx_last_bits == 7 and len(frame) == 1:  # a short frame: REQA / WUPA
            wakes = frame[0] == PICC_WUPA and self.state in ("IDLE", "HALT")
            if (frame[0] == PICC_REQA and self.state == "IDLE") or wakes:
                self.state, self.level, self.crypto = "READY", 0, None
                return self.atqa
            if self.state in ("READY", "ACTIVE"):
                self.state = "IDLE"  # an unexpected frame sends a READY or ACTIVE card back to IDLE
            return None
        if frame[:2] == bytes([PICC_HLTA, 0]) and frame[2:] == crc_a(frame[:2]) and self.state == "ACTIVE":
            self.state, self.crypto = "HALT", None
            return None
        if self.state == "ACTIVE":
            out = self.command(frame)
            if out is not None and self.crypto is not None:
                out = self.crypto.crypt(out, self.last_bits)
            return out
        if self.state != "READY" or len(frame) < 2 or frame[0] not in PICC_SEL:
            if self.state != "HALT":
                self.state = "IDLE"  # anything unexpected: back to IDLE
            return None
        if PICC_SEL.index(frame[0]) != self.level:
            return None
        cln, nvb = self.levels[self.level], frame[1]
        if nvb == 0x70:  # SELECT
            if len(frame) != 9 or frame[2:7] != cln or frame[7:] != crc_a(frame[:7]):
                return None
            if self.level + 1 < len(self.levels):
                self.level += 1
                sak = 0x04  # UID not complete
            else:
                self.state, sak = "ACTIVE", self.sak
            return bytes([sak]) + crc_a(bytes([sak]))
        known = ((nvb >> 4) - 2) * 8 + (nvb & 7)  # anticollision: bits of CLn the reader already knows
        if not 0 <= known < 40 or _bits(frame[2:])[:known] != _bits(cln)[:known]:
            return None
        out = bytearray(cln[known // 8 :])
        out[0] &= (0xFF << (known % 8)) & 0xFF  # the chip aligns the first received bit at RxAlign
        return bytes(out)

    def command(self, frame: bytes) -> bytes | None:
        """A frame to the ACTIVE card (CRC_A included): a UID-only card answers nothing (back to IDLE)."""
        self.state = "IDLE"
        return None

    def _nak(self) -> bytes:
        self.last_bits = 4
        return bytes([NAK])

    def _ack(self) -> bytes:
        self.last_bits = 4
        return bytes([ACK])


# ---------------------------------------------------------------------------------------------- NTAG21x
NTAG_TYPES: dict[str, tuple[int, int, int]] = {
    "NTAG213": (45, 0x0F, 0x12), "NTAG215": (135, 0x11, 0x3E), "NTAG216": (231, 0x13, 0x6D),
}
"""Pages, the storage-size byte of GET_VERSION and the Capability Container's data-area size / 8, by type."""


class NtagCard(Card):
    """An NTAG213/215/216 (see the module docstring); ``uid`` has 7 bytes, the first 04h (NXP)."""

    def __init__(self, uid: bytes, kind: str = "NTAG213") -> None:
        if len(uid) != 7:
            raise ValueError(f"an NTAG has a 7-byte UID, got {uid.hex()}")
        super().__init__(uid, sak=0x00)
        self.kind = kind
        pages, self.size_byte, cc_size = NTAG_TYPES[kind]
        self.pages = [bytearray(4) for _ in range(pages)]
        bcc0 = CASCADE_TAG ^ uid[0] ^ uid[1] ^ uid[2]
        bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        self.pages[0][:] = bytes([uid[0], uid[1], uid[2], bcc0])
        self.pages[1][:] = uid[3:7]
        self.pages[2][:] = bytes([bcc1, 0x48, 0x00, 0x00])
        self.pages[3][:] = bytes([0xE1, 0x10, cc_size, 0x00])  # CC: NDEF 1.0, data area / 8, read/write
        self.pages[4][:] = bytes([0x03, 0x00, 0xFE, 0x00])  # an empty NDEF message TLV, then the terminator
        self.dynamic_lock = pages - 5  # the page of the dynamic lock bytes
        self.pages[self.dynamic_lock][3] = 0xBD  # RFUI
        self._compat_page: int | None = None
        self.pages[pages - 4][:] = bytes([0x04, 0x00, 0x00, 0xFF])  # CFG0: AUTH0 = FFh, no password needed
        self.pages[pages - 3][:] = bytes([0x00, 0x05, 0x00, 0x00])  # CFG1

    @property
    def user_pages(self) -> range:
        """The pages that hold the NDEF data (4 up to the dynamic lock bytes)."""
        return range(4, self.dynamic_lock)

    def store_ndef(self, message: bytes) -> None:
        """Put an NDEF message in the user pages as the NFC Forum Type 2 Tag TLV (03h, length, message,
        FEh), as a phone or ``cards enroll`` would write it."""
        length = bytes([len(message)]) if len(message) < 0xFF else b"\xff" + len(message).to_bytes(2, "big")
        tlv = b"\x03" + length + message + b"\xfe"
        if len(tlv) > len(self.user_pages) * 4:
            raise ValueError(f"{len(message)} bytes do not fit the {self.kind}'s {len(self.user_pages) * 4}")
        tlv += bytes(-len(tlv) % 4)
        for i in range(0, len(tlv), 4):
            self.pages[4 + i // 4][:] = tlv[i:i + 4]

    def locked(self, page: int) -> bool:
        """Whether a WRITE to ``page`` is refused by the lock bits."""
        if page < 2 or page >= len(self.pages) - 2:
            return page < 2  # the UID pages are read-only; PWD/PACK are write-only (always writable here)
        static = self.pages[2][2] | self.pages[2][3] << 8  # bit n locks page n (3..15); bits 0-2 the block locks
        if 3 <= page <= 15:
            return bool(static >> page & 1)
        if 16 <= page < self.dynamic_lock:
            lock = self.pages[self.dynamic_lock]
            bits = lock[0] | lock[1] << 8
            per_bit = 2 if self.kind == "NTAG213" else 16
            return bool(bits >> ((page - 16) // per_bit) & 1)
        return False

    def command(self, frame: bytes) -> bytes | None:
        if len(frame) < 3 or crc_a(frame[:-2]) != frame[-2:]:
            self._compat_page = None
            return self._nak()
        body = frame[:-2]
        if self._compat_page is not None:  # COMPATIBILITY_WRITE, second step: 16 bytes, the first 4 written
            page, self._compat_page = self._compat_page, None
            return self._write(page, body[:4]) if len(body) == 16 else self._nak()
        op = body[0]
        if op == 0xA0 and len(body) == 2:  # COMPATIBILITY_WRITE (10.5), first step
            if body[1] >= len(self.pages) or body[1] < 2 or self.locked(body[1]):
                return self._nak()
            self._compat_page = body[1]
            return self._ack()
        if op == 0x60 and len(body) == 1:  # GET_VERSION
            out = bytes([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, self.size_byte, 0x03])
            return out + crc_a(out)
        if op == 0x30 and len(body) == 2:  # READ: 4 pages from body[1], rolling over
            start = body[1]
            if start >= len(self.pages):
                return self._nak()
            out = b"".join(bytes(self.pages[(start + i) % len(self.pages)]) for i in range(4))
            return out + crc_a(out)
        if op == 0xA2 and len(body) == 6:  # WRITE one page
            return self._write(body[1], body[2:6])
        return self._nak()

    def write_page(self, page: int, data: bytes) -> bool:
        """A WRITE of one page as the tag answers it: True (ACK) or False (NAK: locked, or no such page)."""
        return self._write(page, bytes(data[:4])) == self._ack()

    def _write(self, page: int, data: bytes) -> bytes:
        if page >= len(self.pages) or page < 2 or self.locked(page):
            return self._nak()
        if page in (2, 3) or page == self.dynamic_lock:  # lock bytes and CC: bits only ever set (OTP)
            merged = bytearray(self.pages[page])
            for i in range(2 if page == 2 else 0, 4 if page != self.dynamic_lock else 3):
                merged[i] |= data[i]
            self.pages[page][:] = merged
        else:
            self.pages[page][:] = data
        return self._ack()


# ------------------------------------------------------------------------------------------ MIFARE Classic
class ClassicCard(Card):
    """A MIFARE Classic 1K with a 4-byte UID (see the module docstring); ``seed`` seeds the card's nT."""

    def __init__(self, uid: bytes, seed: int = 0) -> None:
        if len(uid) != 4:
            raise ValueError(f"this MIFARE Classic 1K has a 4-byte UID, got {uid.hex()}")
        super().__init__(uid, sak=0x08)
        self.memory = ClassicMemory(uid)
        self.blocks = self.memory.blocks
        self.key_b = False  # the key of the last authentication
        self._rng = random.Random(seed)
        self.sector: int | None = None
        self._pending: tuple[int, int] | None = None  # (nT, sector) between AUTH and the reader's answer
        self._write_to: int | None = None  # the block of a WRITE's second step

    def reset(self) -> None:
        super().reset()
        self.sector, self._pending, self._write_to = None, None, None

    def key(self, sector: int, key_b: bool) -> bytes:
        return self.memory.key(sector, key_b)

    def auth_begin(self, frame: bytes) -> bytes | None:
        """AUTH (60h/61h block CRC) to the ACTIVE card: the plain nT; the card's cipher starts."""
        if self.state != "ACTIVE" or len(frame) != 4 or crc_a(frame[:2]) != frame[2:] or frame[1] >= 64:
            return None
        sector = frame[1] // 4
        nt = self._rng.getrandbits(32)
        self.crypto = Crypto1(self.key(sector, frame[0] == 0x61))
        self.crypto.word(int.from_bytes(self.uid, "big") ^ nt)
        self._pending, self.sector, self.key_b = (nt, sector), None, frame[0] == 0x61
        return nt.to_bytes(4, "big")

    def auth_answer(self, enc_nr: int, enc_ar: int) -> int | None:
        """The reader's {nR}{aR}: {aT} if aR proves the key, else silence (and no authentication)."""
        if self.crypto is None or self._pending is None:
            return None
        nt, sector = self._pending
        self._pending = None
        self.crypto.word(enc_nr, encrypted=True)
        ar = enc_ar ^ self.crypto.word(0)
        if ar != prng_successor(nt, 64):
            self.crypto, self.state = None, "IDLE"
            return None
        self.sector = sector
        return prng_successor(nt, 96) ^ self.crypto.word(0)

    def command(self, frame: bytes) -> bytes | None:
        if self.crypto is None or self.sector is None:
            self.state = "IDLE"  # no READ or WRITE without an authentication
            return None
        if self._write_to is not None:  # WRITE, second step: the 16 bytes
            block, self._write_to = self._write_to, None
            if len(frame) != 18 or crc_a(frame[:16]) != frame[16:]:
                return self._nak()
            return self._ack() if self.memory.write(block, frame[:16], self.key_b) else self._nak()
        if len(frame) != 4 or crc_a(frame[:2]) != frame[2:] or frame[1] >= 64 or frame[1] // 4 != self.sector:
            return self._nak()
        op, block = frame[0], frame[1]
        if op == 0x30:  # READ
            out = self.memory.read(block, self.key_b)
            return self._nak() if out is None else out + crc_a(out)
        if op == 0xA0 and block != 0:  # WRITE, first step (block 0 is the manufacturer's)
            self._write_to = block
            return self._ack()
        return self._nak()
