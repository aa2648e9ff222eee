"""An NXP MFRC522 at register level, behind an SPI bus, with ISO/IEC 14443-3 type A cards in its field.

What a driver can observe through SPI (MFRC522 datasheet rev. 3.9, sections 8-10), as far as reading
a UID needs:

* SPI framing (8.1.2), byte by byte while chip select is low (:meth:`MFRC522Chip.select`,
  :meth:`MFRC522Chip.exchange`), however the driver splits its transfers: the address byte
  ``0x80 | reg << 1`` reads, ``reg << 1`` writes; after a read address each byte clocked in names the
  next register and the value comes back one byte late; after a write address every byte is written;
* the 64 registers with their reset values, SoftReset (CommandReg 0x0F), the PowerDown bit;
* the 64-byte FIFO (FIFODataReg, FIFOLevelReg with FlushBuffer, BufferOvfl in ErrorReg);
* ComIrqReg / DivIrqReg with the Set1 bit (writing 1 sets, 0 clears the bits marked);
* Transceive (0x0C), started by StartSend in BitFramingReg, with TxLastBits / RxAlign, RxLastBits
  in ControlReg, CollErr in ErrorReg and the position in CollReg when several cards answer,
  RxIRq | IdleIRq on an answer and TimerIRq when none comes (the timer is not run: it "expires" at
  once), TxCRCEn / RxCRCEn (the chip adds and checks the CRC_A);
* CalcCRC (0x03): the CRC_A of the FIFO with the preset of ModeReg, into CRCResultReg, CRCIRq set;
* the antenna (Tx1RFEn / Tx2RFEn in TxControlReg): no field, no card answers.

Cards (:class:`Card`) answer REQA / WUPA with ATQA, anticollision and SELECT over cascade levels
1-3 (4-, 7- and 10-byte UIDs) with SAK and CRC_A, and HLTA; they keep their state (IDLE, READY,
ACTIVE, HALT) until they leave the field. Not modelled: the timer, the analogue part, MIFARE
authentication, the other commands (Mem, Generate RandomID, Transmit, Receive, MFAuthent).
Thread-safe: the SPI side and the card side (``insert``/``remove``) may be called from two threads.
"""

from __future__ import annotations

import threading

from firmware_sim.pn532_card import CASCADE_TAG, crc_a

COMMAND, COM_IRQ, DIV_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL = 0x01, 0x04, 0x05, 0x06, 0x09, 0x0A
CONTROL, BIT_FRAMING, COLL, MODE, TX_MODE, RX_MODE, TX_CONTROL = 0x0C, 0x0D, 0x0E, 0x11, 0x12, 0x13, 0x14
CRC_RESULT_MSB, CRC_RESULT_LSB, VERSION = 0x21, 0x22, 0x37
CMD_IDLE, CMD_CALC_CRC, CMD_TRANSCEIVE, CMD_SOFT_RESET = 0x00, 0x03, 0x0C, 0x0F
IRQ_TIMER, IRQ_ERR, IRQ_IDLE, IRQ_RX, IRQ_TX = 0x01, 0x02, 0x10, 0x20, 0x40
DIV_CRC_IRQ = 0x04
ERR_PROTOCOL, ERR_PARITY, ERR_CRC, ERR_COLL, ERR_BUFFER_OVFL = 0x01, 0x02, 0x04, 0x08, 0x10
FIFO_SIZE = 64
VERSION_2_0 = 0x92
CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)  # ModeReg CRCPreset 00..11

RESET_VALUES = {
    0x01: 0x20, 0x02: 0x80, 0x04: 0x14, 0x07: 0x21, 0x0B: 0x08, 0x0C: 0x10, 0x0E: 0x80, 0x11: 0x3F,
    0x14: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D, 0x1C: 0x62, 0x1F: 0xEB, 0x21: 0xFF,
    0x22: 0xFF, 0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20, 0x36: 0x40,
}
PICC_REQA, PICC_WUPA, PICC_HLTA = 0x26, 0x52, 0x50
PICC_SEL = (0x93, 0x95, 0x97)


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

    def __init__(self, uid: bytes) -> None:
        if len(uid) not in (4, 7, 10):
            raise ValueError(f"a type A UID has 4, 7 or 10 bytes, got {len(uid)}: {uid.hex()}")
        self.uid = uid
        self.levels = cascade_levels(uid)
        self.atqa = bytes([{4: 0x04, 7: 0x44, 10: 0x84}[len(uid)], 0x00])
        self.sak = 0x08 if len(uid) == 4 else 0x00
        self.state = "IDLE"
        self.level = 0

    def answer(self, frame: bytes, tx_last_bits: int) -> bytes | None:
        """The card's answer to ``frame`` (with CRC_A where the standard has one), None for silence."""
        if tx_last_bits == 7 and len(frame) == 1:  # a short frame: REQA / WUPA
            wakes = frame[0] == PICC_WUPA and self.state in ("IDLE", "HALT")
            if (frame[0] == PICC_REQA and self.state == "IDLE") or wakes:
                self.state, self.level = "READY", 0
                return self.atqa
            if self.state in ("READY", "ACTIVE"):
                self.state = "IDLE"  # an unexpected frame sends a READY or ACTIVE card back to IDLE
            return None
        if frame[:2] == bytes([PICC_HLTA, 0]) and frame[2:] == crc_a(frame[:2]) and self.state == "ACTIVE":
            self.state = "HALT"
            return None
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


class MFRC522Chip:
    """The chip (see the module docstring). ``cards`` are in the field; SPI through :meth:`transfer`."""

    def __init__(self, version: int = VERSION_2_0) -> None:
        self._lock = threading.RLock()
        self.version = version
        self.cards: list[Card] = []
        self.regs = bytearray(64)
        self.fifo = bytearray()
        self._spi_address = None
        self.counters: dict[str, int] = {"transfers": 0, "transceives": 0, "answers": 0, "crc_calcs": 0}
        self.soft_reset()

    # ------------------------------------------------------------------ the field

    def insert(self, uid: bytes) -> None:
        """A card enters the field (it starts IDLE)."""
        with self._lock:
            self.cards.append(Card(uid))

    def remove(self, uid: bytes | None = None) -> None:
        """The card with ``uid`` (every card if None) leaves the field."""
        with self._lock:
            self.cards = [c for c in self.cards if uid is not None and c.uid != uid]

    # ------------------------------------------------------------------ SPI

    def select(self) -> None:
        """Chip select went low: the next byte is an address byte."""
        with self._lock:
            self._spi_address: int | None = None
            self.counters["transfers"] += 1

    def exchange(self, mosi: int) -> int:
        """One byte clocked in while selected; returns the byte clocked out (8.1.2: the first byte is the
        address; after a read address each byte returns that register's value and names the next one;
        after a write address each byte is written to that register)."""
        with self._lock:
            address = self._spi_address
            if address is None:
                self._spi_address = mosi & 0xFF
                return 0x00
            reg = (address >> 1) & 0x3F
            if address & 0x80:
                self._spi_address = mosi & 0xFF
                return self.read(reg)
            self.write(reg, mosi)
            return 0x00

    def transfer(self, out: bytes) -> bytes:
        """One whole SPI transaction (select, every byte of ``out``, deselect): the bytes clocked out."""
        with self._lock:
            self.select()
            return bytes(self.exchange(b) for b in out)

    def read(self, reg: int) -> int:
        """A register read (FIFODataReg takes a byte off the FIFO)."""
        with self._lock:
            if reg == FIFO_DATA:
                return self.fifo.pop(0) if self.fifo else 0x00
            if reg == FIFO_LEVEL:
                return len(self.fifo) & 0x7F
            if reg == VERSION:
                return self.version
            return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        """A register write, with the side effects of the module docstring."""
        with self._lock:
            value &= 0xFF
            if reg == FIFO_DATA:
                if len(self.fifo) < FIFO_SIZE:
                    self.fifo.append(value)
                else:
                    self.regs[ERROR] |= ERR_BUFFER_OVFL
            elif reg == FIFO_LEVEL:
                if value & 0x80:
                    self.fifo.clear()
                    self.regs[ERROR] &= ~ERR_BUFFER_OVFL & 0xFF
            elif reg in (COM_IRQ, DIV_IRQ):
                if value & 0x80:
                    self.regs[reg] |= value & 0x7F
                else:
                    self.regs[reg] &= ~value & 0x7F
            elif reg == COMMAND:
                self._command(value)
            elif reg == BIT_FRAMING:
                self.regs[reg] = value & 0x7F  # StartSend reads back 0 once the transmission is done
                if value & 0x80 and self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE:
                    self._transceive(value & 0x07)
            elif reg not in (VERSION, CRC_RESULT_MSB, CRC_RESULT_LSB):
                self.regs[reg] = value

    def soft_reset(self) -> None:
        """SoftReset: every register to its reset value, the FIFO emptied (the cards are not touched)."""
        with self._lock:
            self.regs = bytearray(64)
            for reg, value in RESET_VALUES.items():
                self.regs[reg] = value
            self.fifo.clear()

    def _command(self, value: int) -> None:
        command = value & 0x0F
        if command == CMD_SOFT_RESET:
            self.soft_reset()
            return
        self.regs[COMMAND] = value & 0x3F
        if command == CMD_CALC_CRC:
            self.counters["crc_calcs"] += 1
            preset = CRC_PRESETS[self.regs[MODE] & 0x03]
            low, high = _crc(bytes(self.fifo), preset)
            self.fifo.clear()
            self.regs[CRC_RESULT_LSB], self.regs[CRC_RESULT_MSB] = low, high
            self.regs[DIV_IRQ] |= DIV_CRC_IRQ
        elif command == CMD_IDLE:
            self.regs[COM_IRQ] |= IRQ_IDLE if self.regs[COMMAND] else 0

    def _transceive(self, tx_last_bits: int) -> None:
        self.counters["transceives"] += 1
        frame = bytes(self.fifo)
        self.fifo.clear()
        if self.regs[TX_MODE] & 0x80:
            frame += crc_a(frame)
        self.regs[ERROR] = 0
        self.regs[CONTROL] &= 0xF8
        self.regs[COM_IRQ] |= IRQ_TX
        field = bool(self.regs[TX_CONTROL] & 0x03)
        answers = [a for a in (c.answer(frame, tx_last_bits) for c in self.cards) if a is not None] if field else []
        if not answers:
            self.regs[COM_IRQ] |= IRQ_TIMER
            return
        self.counters["answers"] += 1
        self.regs[COM_IRQ] |= IRQ_RX | IRQ_IDLE
        data = answers[0]
        if len(answers) > 1:
            data = self._collide(frame, answers)
        if self.regs[RX_MODE] & 0x80 and len(data) >= 3:
            if crc_a(data[:-2]) != data[-2:]:
                self.regs[ERROR] |= ERR_CRC
            data = data[:-2]
        self.fifo.extend(data[:FIFO_SIZE])

    def _collide(self, frame: bytes, answers: list[bytes]) -> bytes:
        """Several cards answered: bitwise OR of the answers, CollErr and the first collision's position."""
        known = ((frame[1] >> 4) - 2) * 8 + (frame[1] & 7) if frame and frame[0] in PICC_SEL else 0
        offset = (known // 8) * 8
        columns = list(zip(*(_bits(a) for a in answers), strict=False))
        for i, column in enumerate(columns):
            if i + offset >= known and len(set(column)) > 1:
                self.regs[ERROR] |= ERR_COLL
                position = i + offset + 1
                self.regs[COLL] = position & 0x1F if position <= 32 else 0x20
                break
        merged = bytearray(max(len(a) for a in answers))
        for answer in answers:
            for i, b in enumerate(answer):
                merged[i] |= b  # a 1 from either card wins on air (Manchester: both sub-carriers seen)
        return bytes(merged)


def _crc(data: bytes, preset: int) -> tuple[int, int]:
    """CRC_A's algorithm from another preset: (low byte, high byte)."""
    crc = preset
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc & 0xFF, crc >> 8
