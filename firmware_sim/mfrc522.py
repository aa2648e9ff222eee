"""An NXP MFRC522 at register level, behind an SPI bus, with ISO/IEC 14443-3 type A cards in its field.

What a driver can observe through SPI (MFRC522 datasheet rev. 3.9, sections 8-10), as far as reading
a UID needs:

* SPI framing (8.1.2), byte by byte while chip select is low (:meth:`MFRC522Chip.select`,
  :meth:`MFRC522Chip.exchange`), however the driver splits its transfers: the address byte
  ``0x80 | reg << 1`` reads, ``reg << 1`` writes; after a read address each byte clocked in names the
  next register and the value comes back one byte late; after a write address every byte is written;
* the 64 registers with their reset values, SoftReset (CommandReg 0x0F), the PowerDown bit;
* the 64-byte FIFO (FIFODataReg, FIFOLevelReg with FlushBuffer, BufferOvfl in ErrorReg);
* ComIrqReg / DivIrqReg with the Set1 bit (writing 1 sets, 0 clears the bits marked); ErrIRq set with
  any bit of ErrorReg (9.3.1.5); IdleIRq only when a command ends by itself, never when the host writes
  Idle (9.3.1.5);
* Status1Reg computed (9.3.1.8): LoAlert / HiAlert from the FIFO level against WaterLevelReg, TRunning,
  IRq from the enabled interrupts, CRCReady, CRCOk;
* the timer (8.5, 9.3.3.10-12): TModeReg / TPrescalerReg / TReloadReg, TAuto starting it at the end of
  a transmission, TStartNow / TStopNow in ControlReg, TCounterValReg counting down on the chip's clock
  (13.56 MHz / (2·TPrescaler + 1), or +2 with TPrescalEven), TimerIRq when it reaches zero;
* Transceive (0x0C, 10.3.1.8), started by StartSend in BitFramingReg, with TxLastBits / RxAlign,
  RxLastBits in ControlReg, RxIRq on an answer (Transceive does not end by itself: no IdleIRq), CollErr
  and CollReg when several cards answer (9.3.1.15: CollPos, CollPosNotValid, ValuesAfterColl = 0
  clearing the bits from the collision on), TxCRCEn / RxCRCEn (the chip adds and checks the CRC_A);
* CalcCRC (0x03): the CRC_A of the FIFO with the preset of ModeReg, into CRCResultReg, CRCIRq set;
* Mem (0x01, 10.3.1.2) and Generate RandomID (0x02, 10.3.1.3) with the 25-byte internal buffer, both
  ending with IdleIRq; MFAuthent (0x0E, 10.3.1.9) with the Crypto1 unit (:mod:`firmware_sim.crypto1`):
  MFCrypto1On in Status2Reg, the traffic enciphered from then on;
* the antenna (Tx1RFEn / Tx2RFEn in TxControlReg, 9.3.2.5): no field, no card answers, and a card that
  loses the field (antenna off, SoftReset) is back to IDLE when it comes back.

Cards (:mod:`firmware_sim.mfrc522_cards`) answer REQA / WUPA with ATQA, anticollision and SELECT over
cascade levels 1-3 (4-, 7- and 10-byte UIDs) with SAK and CRC_A, and HLTA; they keep their state (IDLE,
READY, ACTIVE, HALT) while they have the field. NTAG213/215/216 and MIFARE Classic 1K cards also have
their memory. Not modelled: the analogue part, Transmit and Receive alone, the interrupt pin.
Thread-safe: the SPI side and the card side (``insert``/``remove``) may be called from two threads.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from firmware_sim.crypto1 import Crypto1, prng_successor
from firmware_sim.mfrc522_cards import Card, ClassicCard, NtagCard, _bits, cascade_levels
from firmware_sim.mfrc522_timer import (
    COM_IRQ,
    CRC_RESULT_LSB,
    CRC_RESULT_MSB,
    DIV_IRQ,
    FIFO_SIZE,
    IRQ_TIMER,
    STATUS1,
    STATUS2,
    T_COUNTER_H,
    T_COUNTER_L,
    T_MODE,
    TimerAndStatus,
)
from firmware_sim.pn532_card import crc_a

COMMAND, ERROR, FIFO_DATA, FIFO_LEVEL = 0x01, 0x06, 0x09, 0x0A
CONTROL, BIT_FRAMING, COLL, MODE, TX_MODE, RX_MODE, TX_CONTROL = 0x0C, 0x0D, 0x0E, 0x11, 0x12, 0x13, 0x14
VERSION = 0x37
CMD_IDLE, CMD_MEM, CMD_RANDOM_ID, CMD_CALC_CRC, CMD_TRANSCEIVE = 0x00, 0x01, 0x02, 0x03, 0x0C
CMD_MF_AUTHENT, CMD_SOFT_RESET = 0x0E, 0x0F
STATUS2_CRYPTO1_ON = 0x08
IRQ_ERR, IRQ_IDLE, IRQ_RX, IRQ_TX = 0x02, 0x10, 0x20, 0x40
DIV_CRC_IRQ = 0x04
ERR_PROTOCOL, ERR_PARITY, ERR_CRC, ERR_COLL, ERR_BUFFER_OVFL = 0x01, 0x02, 0x04, 0x08, 0x10
VERSION_2_0 = 0x92
CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)  # ModeReg CRCPreset 00..11

RESET_VALUES = {
    0x01: 0x20, 0x02: 0x80, 0x04: 0x14, 0x07: 0x21, 0x0B: 0x08, 0x0C: 0x10, 0x0E: 0xA0, 0x11: 0x3F,
    0x14: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D, 0x1C: 0x62, 0x1F: 0xEB, 0x21: 0xFF,
    0x22: 0xFF, 0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20, 0x33: 0x80, 0x36: 0x40,
}
"""Reset values of datasheet table 20 and sections 9.3.1-9.3.4 (CollReg 101x xxxxb: A0h; TestPinEnReg 80h)."""
PICC_REQA, PICC_WUPA, PICC_HLTA = 0x26, 0x52, 0x50
PICC_SEL = (0x93, 0x95, 0x97)


__all__ = ["IRQ_TIMER", "Card", "ClassicCard", "MFRC522Chip", "NtagCard", "cascade_levels"]


class MFRC522Chip(TimerAndStatus):
    """The chip (see the module docstring). ``cards`` are in the field; SPI through :meth:`transfer`.

    ``clock`` gives the chip's time in seconds (the timer counts on it; default: ``time.monotonic``);
    ``seed`` seeds the random numbers (Generate RandomID, the reader nonce of MFAuthent).
    """

    def __init__(self, version: int = VERSION_2_0, *, clock: Callable[[], float] = time.monotonic,
                 seed: int = 0) -> None:
        self._lock = threading.RLock()
        self.version = version
        self.clock = clock
        self._rng = random.Random(seed)
        self.cards: list[Card] = []
        self.regs = bytearray(64)
        self.fifo = bytearray()
        self.buffer = bytearray(25)  # the internal buffer of Mem and Generate RandomID (10.3.1.2-3)
        self.crypto: Crypto1 | None = None  # the reader side of Crypto1 while MFCrypto1On
        self._crypto_card: Card | None = None
        self._timer: tuple[float, int] | None = None  # (start time in s, reload value) while TRunning
        self._spi_address = None
        self.counters: dict[str, int] = {"transfers": 0, "transceives": 0, "answers": 0, "crc_calcs": 0,
                                         "authentications": 0}
        self.soft_reset()

    # ------------------------------------------------------------------ the field

    def insert(self, uid: bytes | Card) -> Card:
        """A card enters the field (it starts IDLE): a UID (a UID-only card) or a :class:`Card`."""
        card = uid if isinstance(uid, Card) else Card(uid)
        with self._lock:
            card.reset()
            self.cards.append(card)
        return card

    def remove(self, uid: bytes | None = None) -> None:
        """The card with ``uid`` (every card if None) leaves the field."""
        with self._lock:
            self.cards = [c for c in self.cards if uid is not None and c.uid != uid]

    @property
    def field(self) -> bool:
        """Whether the antenna drives a field (Tx1RFEn or Tx2RFEn, 9.3.2.5)."""
        return bool(self.regs[TX_CONTROL] & 0x03)

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
        """A register read (FIFODataReg takes a byte off the FIFO; the status registers are computed)."""
        with self._lock:
            self._run_timer()
            if reg == FIFO_DATA:
                return self.fifo.pop(0) if self.fifo else 0x00
            if reg == FIFO_LEVEL:
                return len(self.fifo) & 0x7F
            if reg == VERSION:
                return self.version
            if reg == STATUS1:
                return self._status1()
            if reg in (T_COUNTER_H, T_COUNTER_L):
                value = self._counter()
                return value >> 8 if reg == T_COUNTER_H else value & 0xFF
        if reg == COM_IRQ and self._timer is not None:
            time.sleep(0.0002)  # polling a running timer: the SPI bus time of a few reads, and no busy loop
        return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        """A register write, with the side effects of the module docstring."""
        with self._lock:
            self._run_timer()
            value &= 0xFF
            if reg == FIFO_DATA:
                if len(self.fifo) < FIFO_SIZE:
                    self.fifo.append(value)
                else:
                    self._error(ERR_BUFFER_OVFL)
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
            elif reg == CONTROL:
                self.regs[reg] = (self.regs[reg] & 0x07) | (value & 0x30)  # RxLastBits is read-only
                if value & 0x80:  # TStopNow
                    self._timer = None
                if value & 0x40:  # TStartNow
                    self._start_timer()
            elif reg == COLL:
                self.regs[reg] = (self.regs[reg] & 0x7F) | (value & 0x80)  # only ValuesAfterColl is writable
            elif reg == STATUS2:
                self.regs[reg] = (self.regs[reg] & 0x3F & ~STATUS2_CRYPTO1_ON) | (value & 0xC0)
                if not value & STATUS2_CRYPTO1_ON:  # the host may only clear MFCrypto1On
                    self._crypto_off()
                else:
                    self.regs[reg] |= self.regs[reg] & STATUS2_CRYPTO1_ON
            elif reg == TX_CONTROL:
                was = self.field
                self.regs[reg] = value
                if was and not self.field:
                    self._field_off()
            elif reg not in (VERSION, CRC_RESULT_MSB, CRC_RESULT_LSB, STATUS1, T_COUNTER_H, T_COUNTER_L):
                self.regs[reg] = value

    def soft_reset(self) -> None:
        """SoftReset (10.3.1.10): every register to its reset value, the FIFO emptied; the antenna is off
        (TxControlReg 80h), so every card in the field loses power and is IDLE when it comes back."""
        with self._lock:
            self.regs = bytearray(64)
            for reg, value in RESET_VALUES.items():
                self.regs[reg] = value
            self.fifo.clear()
            self._timer = None
            self._field_off()

    # ------------------------------------------------------------------ internals

    def _field_off(self) -> None:
        for card in self.cards:
            card.reset()
        self._crypto_off()

    def _crypto_off(self) -> None:
        self.crypto, self._crypto_card = None, None
        self.regs[STATUS2] &= ~STATUS2_CRYPTO1_ON & 0xFF

    def _error(self, bits: int) -> None:
        """Error bits into ErrorReg, and ErrIRq with them (9.3.1.5: any error bit set)."""
        self.regs[ERROR] |= bits
        self.regs[COM_IRQ] |= IRQ_ERR

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
        elif command == CMD_MEM:
            if len(self.fifo) >= 25:  # 25 bytes in: into the internal buffer
                self.buffer[:] = self.fifo[:25]
                del self.fifo[:25]
            else:  # an empty FIFO: the buffer comes out
                self.fifo.extend(self.buffer[: FIFO_SIZE - len(self.fifo)])
            self._done()
        elif command == CMD_RANDOM_ID:
            self.buffer[:10] = bytes(self._rng.getrandbits(8) for _ in range(10))
            self._done()
        elif command == CMD_MF_AUTHENT:
            self._mf_authent()
        elif command not in (CMD_IDLE, CMD_TRANSCEIVE, 0x04, 0x07, 0x08):
            self._done()  # an unknown command: back to Idle with IdleIRq (9.3.1.5)

    def _done(self) -> None:
        """A command that ends by itself: back to Idle, IdleIRq (the host's own Idle sets none)."""
        self.regs[COMMAND] &= 0xF0
        self.regs[COM_IRQ] |= IRQ_IDLE

    def _air(self, frame: bytes, tx_last_bits: int) -> list[tuple[Card, bytes]]:
        """``frame`` on air: the cards' answers (enciphered both ways while MFCrypto1On)."""
        if not self.field:
            return []
        if self.crypto is not None and self._crypto_card is not None:
            card = self._crypto_card
            if card not in self.cards:
                return []
            answer = card.answer(self.crypto.crypt(frame, tx_last_bits), tx_last_bits)
            return [] if answer is None else [(card, self.crypto.crypt(answer, card.last_bits))]
        answers = [(c, c.answer(frame, tx_last_bits)) for c in self.cards]
        return [(c, a) for c, a in answers if a is not None]

    def _transceive(self, tx_last_bits: int) -> None:
        self.counters["transceives"] += 1
        frame = bytes(self.fifo)
        self.fifo.clear()
        if self.regs[TX_MODE] & 0x80:
            frame += crc_a(frame)
        self.regs[ERROR] = 0
        self.regs[CONTROL] &= 0xF8
        self.regs[COLL] = (self.regs[COLL] & 0x80) | 0x20  # no collision (yet): CollPosNotValid
        self.regs[COM_IRQ] |= IRQ_TX
        answers = self._air(frame, tx_last_bits)
        if not answers:
            if self.regs[T_MODE] & 0x80:  # TAuto: the timer starts at the end of the transmission (8.5)
                self._start_timer()
            return
        if self.regs[T_MODE] & 0x80:
            self._timer = None  # stopped by the first received bit
        self.counters["answers"] += 1
        self.regs[COM_IRQ] |= IRQ_RX  # Transceive goes on (10.3.1.8): no IdleIRq
        data = answers[0][1]
        last_bits = answers[0][0].last_bits
        if len(answers) > 1:
            data = self._collide(frame, [a for _c, a in answers])
            last_bits = 0
        if self.regs[RX_MODE] & 0x80 and len(data) >= 3:
            if crc_a(data[:-2]) != data[-2:]:
                self._error(ERR_CRC)
            data = data[:-2]
        self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | (last_bits & 0x07)
        room = FIFO_SIZE - len(self.fifo)
        if len(data) > room:
            self._error(ERR_BUFFER_OVFL)
        self.fifo.extend(data[:room])

    def _collide(self, frame: bytes, answers: list[bytes]) -> bytes:
        """Several cards answered: CollErr, CollReg's first collision (9.3.1.15: CollPos 1..31, 0 for the
        32nd bit, CollPosNotValid beyond), the answers ORed on air (a 1 from either card wins), and with
        ValuesAfterColl = 0 every bit from the collision on cleared."""
        known = ((frame[1] >> 4) - 2) * 8 + (frame[1] & 7) if frame and frame[0] in PICC_SEL else 0
        offset = (known // 8) * 8
        merged = bytearray(max(len(a) for a in answers))
        for answer in answers:
            for i, b in enumerate(answer):
                merged[i] |= b
        columns = list(zip(*(_bits(a) for a in answers), strict=False))
        for i, column in enumerate(columns):
            if i + offset >= known and len(set(column)) > 1:
                self._error(ERR_COLL)
                position = i + offset + 1
                keep = self.regs[COLL] & 0x80
                self.regs[COLL] = keep | (position & 0x1F if position <= 32 else 0x20)
                if not keep:  # ValuesAfterColl = 0: the bits from the collision on are cleared
                    for bit in range(i, len(merged) * 8):
                        merged[bit // 8] &= ~(1 << (bit % 8)) & 0xFF
                break
        return bytes(merged)

    def _mf_authent(self) -> None:
        """MFAuthent (10.3.1.9): FIFO = auth command, block, 6-byte key, 4-byte UID; the three-pass
        authentication with the selected card; MFCrypto1On and IdleIRq when it passes, else the timer
        runs out (the card stays silent)."""
        data = bytes(self.fifo)
        self.fifo.clear()
        self.counters["authentications"] += 1
        card = next((c for c in self.cards if isinstance(c, ClassicCard) and c.state == "ACTIVE"), None)
        if len(data) < 12 or card is None or not self.field:
            self._start_timer()
            return
        cmd, block, key, uid = data[0], data[1], data[2:8], data[8:12]
        nt_bytes = card.auth_begin(bytes([cmd, block]) + crc_a(bytes([cmd, block])))
        if nt_bytes is None:
            self._start_timer()
            return
        nt = int.from_bytes(nt_bytes, "big")
        reader = Crypto1(key)
        reader.word(int.from_bytes(uid, "big") ^ nt)
        nr = self._rng.getrandbits(32)
        enc_nr = nr ^ reader.word(nr)
        enc_ar = prng_successor(nt, 64) ^ reader.word(0)
        enc_at = card.auth_answer(enc_nr, enc_ar)
        if enc_at is None or enc_at ^ reader.word(0) != prng_successor(nt, 96):
            self._start_timer()
            return
        self.crypto, self._crypto_card = reader, card
        self.regs[STATUS2] |= STATUS2_CRYPTO1_ON
        self._done()


def _crc(data: bytes, preset: int) -> tuple[int, int]:
    """CRC_A's algorithm from another preset: (low byte, high byte)."""
    crc = preset
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc & 0xFF, crc >> 8
