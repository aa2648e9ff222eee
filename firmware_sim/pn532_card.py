"""The card in the simulated PN532's field: an ISO/IEC 14443-3 type A target, and a Type 2 tag's memory.

A card has a UID of 4, 7 or 10 bytes. Its answers to anticollision are the defaults of
:func:`reader.pn532_frames.target_a_payload`: a 4-byte UID is a MIFARE Classic 1K (SENS_RES ``00 04``,
SEL_RES ``08``), a 7-byte UID an NTAG213 (``00 44``, ``00``), a 10-byte UID ``00 84`` / ``00``. Cards
with SEL_RES ``00`` are NFC Forum Type 2 tags and answer, in :meth:`SimCard.answer`:

* READ ``30 page`` with 16 bytes (4 pages, rolling over at the end of the memory, as NTAG does);
* GET_VERSION ``60`` with the NTAG213's version ``00 04 04 02 01 00 0F 03``;
* WRITE ``A2 page b0 b1 b2 b3`` (pages 2-39; pages 2 and 40, the lock bytes, only ever set bits) with the
  4-bit ACK ``0A``, and a NAK ``00`` otherwise, or when the lock bits lock the page (NTAG213/215/216 data
  sheet 8.5.2-8.5.3: the static lock bits of page 2 bytes 2-3 lock pages 3-15 one bit a page, the dynamic
  lock bits of page 40 bytes 0-1 pages 16-39 two pages a bit);
* HLTA ``50 00`` with silence (the card is *not* put into HALT: a difference from a real card).

The memory is an NTAG213's (45 pages): the UID and its check bytes in pages 0-2, the capability
container ``E1 10 12 00`` in page 3 and an empty NDEF message TLV ``03 00 FE`` in page 4.

A card with SEL_RES ``08`` is a MIFARE Classic 1K (:mod:`firmware_sim.classic_blocks`, access bits
enforced), answering InDataExchange as the PN532 does for it (UM0701-02 7.3.8, :meth:`SimCard.classic`):
the chip's own authentication ``60``/``61 block key(6) uid(4)`` (status ``14`` on a wrong key, and the card
must be selected again), READ ``30 block`` (16 bytes) and WRITE ``A0 block`` + 16 bytes of the
authenticated sector. Everything is bytes, no I/O.
"""

from __future__ import annotations

from firmware_sim.classic_blocks import ClassicMemory
from reader import pn532_frames as pf

CASCADE_TAG = 0x88
NTAG213_PAGES = 45  # 4-byte pages
NTAG213_VERSION = bytes.fromhex("0004040201000F03")
ACK_4BIT = 0x0A
NAK_4BIT = 0x00
READ, GET_VERSION, WRITE, HLTA = 0x30, 0x60, 0xA2, 0x50
STATUS_OK, STATUS_TIMEOUT, STATUS_MIFARE_AUTH = 0x00, 0x01, 0x14
DYNAMIC_LOCK_PAGE = 40


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A (initial value 0x6363) of ``data``, low byte first."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


def cascaded(uid: bytes) -> bytes:
    """The UID as anticollision transmits it: with the cascade tag 0x88 before each incomplete level
    (4 bytes: as is; 7 bytes: ``88`` + 7; 10 bytes: ``88`` + 3 + ``88`` + 7). InListPassiveTarget's
    InitiatorData is (a prefix of) this form."""
    if len(uid) == 4:
        return uid
    if len(uid) == 7:
        return bytes([CASCADE_TAG]) + uid
    return bytes([CASCADE_TAG]) + uid[:3] + bytes([CASCADE_TAG]) + uid[3:]


class SimCard:
    """One type A card (see the module docstring); ``memory`` is a Type 2 tag's, or empty."""

    def __init__(self, uid: bytes) -> None:
        if len(uid) not in (4, 7, 10):
            raise ValueError(f"a type A UID has 4, 7 or 10 bytes, got {len(uid)}: {uid.hex()}")
        self.uid = uid
        self.target = pf.target_a_payload(1, uid)  # Tg SENS_RES(2) SEL_RES NFCIDLength NFCID1
        self.sel_res = self.target[3]
        self.memory = bytearray(self._ntag213(uid)) if self.is_type2 else bytearray()
        self.blocks = ClassicMemory(uid) if self.sel_res == 0x08 and len(uid) == 4 else None
        self.auth: tuple[int, bool] | None = None  # the MIFARE Classic sector authenticated, with key B?
        self.muted = False  # after a failed authentication, until selected again

    def selected(self) -> None:
        """InListPassiveTarget selected the card: no authentication yet."""
        self.auth, self.muted = None, False

    def classic(self, command: bytes) -> bytes:
        """A MIFARE Classic's InDataExchange (see the module docstring): the status byte, then the data."""
        memory = self.blocks
        if memory is None or self.muted or len(command) < 2 or command[1] >= 64:
            return bytes([STATUS_TIMEOUT])
        code, block = command[0], command[1]
        if code in (0x60, 0x61) and len(command) == 12:
            key_b = code == 0x61
            if command[2:8] == memory.key(block // 4, key_b) and command[8:12] == self.uid:
                self.auth = (block // 4, key_b)
                return bytes([STATUS_OK])
            self.auth, self.muted = None, True
            return bytes([STATUS_MIFARE_AUTH])
        if self.auth is None or self.auth[0] != block // 4:
            return bytes([STATUS_MIFARE_AUTH])
        if code == READ and len(command) == 2:
            data = memory.read(block, self.auth[1])
            return bytes([STATUS_TIMEOUT]) if data is None else bytes([STATUS_OK]) + data
        if code == 0xA0 and len(command) == 18:
            ok = memory.write(block, command[2:18], self.auth[1])
            return bytes([STATUS_OK if ok else STATUS_TIMEOUT])
        return bytes([STATUS_TIMEOUT])

    def locked(self, page: int) -> bool:
        """Whether the NTAG213's lock bits refuse a WRITE to ``page`` (see the module docstring)."""
        static = self.memory[10] | self.memory[11] << 8
        if 3 <= page <= 15:
            return bool(static >> page & 1)
        if 16 <= page < DYNAMIC_LOCK_PAGE:
            dynamic = self.memory[DYNAMIC_LOCK_PAGE * 4] | self.memory[DYNAMIC_LOCK_PAGE * 4 + 1] << 8
            return bool(dynamic >> ((page - 16) // 2) & 1)
        return False

    @property
    def is_type2(self) -> bool:
        """SEL_RES 0x00 (no ISO 14443-4, not a MIFARE Classic): an NFC Forum Type 2 tag."""
        return self.sel_res == 0x00

    def matches(self, initiator_data: bytes) -> bool:
        """Whether InListPassiveTarget's InitiatorData (empty: any card) selects this card."""
        return cascaded(self.uid).startswith(bytes(initiator_data))

    @staticmethod
    def _ntag213(uid: bytes) -> bytes:
        u = (uid + bytes(7))[:7]
        bcc0 = CASCADE_TAG ^ u[0] ^ u[1] ^ u[2]
        bcc1 = u[3] ^ u[4] ^ u[5] ^ u[6]
        head = bytes([u[0], u[1], u[2], bcc0, u[3], u[4], u[5], u[6], bcc1, 0x48, 0x00, 0x00])
        head += bytes.fromhex("E1101200") + bytes.fromhex("0300FE00")
        return head + bytes(NTAG213_PAGES * 4 - len(head))

    def answer(self, command: bytes) -> bytes | None:
        """The card's answer to a command (without CRC_A), ``None`` for silence. A one-byte answer of
        ``0A`` / ``00`` is a 4-bit ACK / NAK."""
        if not command or not self.is_type2:
            return None
        code = command[0]
        if code == READ and len(command) == 2:
            page = command[1]
            if page >= NTAG213_PAGES:
                return bytes([NAK_4BIT])
            data = self.memory + self.memory  # NTAG rolls over to page 0
            return bytes(data[page * 4 : page * 4 + 16])
        if code == GET_VERSION and len(command) == 1:
            return NTAG213_VERSION
        if code == WRITE and len(command) == 6:
            page = command[1]
            if page in (2, DYNAMIC_LOCK_PAGE):  # the static / dynamic lock bytes: bits only ever set
                first, last = (2, 4) if page == 2 else (0, 3)
                for i in range(first, last):
                    self.memory[page * 4 + i] |= command[2 + i]
                return bytes([ACK_4BIT])
            if not 3 <= page < DYNAMIC_LOCK_PAGE or self.locked(page):
                return bytes([NAK_4BIT])
            if page == 3:  # the Capability Container: one-time programmable, bits only ever set
                for i in range(4):
                    self.memory[12 + i] |= command[2 + i]
                return bytes([ACK_4BIT])
            self.memory[page * 4 : page * 4 + 4] = command[2:6]
            return bytes([ACK_4BIT])
        if code == HLTA:
            return None
        return bytes([NAK_4BIT])
