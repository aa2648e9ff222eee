"""Our own MFRC522 driver (NXP MFRC522 datasheet rev. 3.9; ISO/IEC 14443-3 type A), for MicroPython.

Only what a card reader for a game needs: reset and antenna set-up, REQA/WUPA, the anticollision loop
with bit-level collision resolution over cascade levels 1-3 (4-, 7- and 10-byte UIDs), SELECT, HLTA, the
NTAG's READ and WRITE, and a MIFARE Classic's blocks read and written after the chip's MFAuthent (10.3.1.9:
the chip runs Crypto1; MFCrypto1On in Status2Reg while it is on).
CRC_A is computed in software (ISO 14443-3 annex B), so the chip's CRC coprocessor is not used.

The SPI bus and the chip-select pin are passed in (``machine.SPI`` / ``machine.Pin`` on the Pico), so
the same code runs under CPython against the fake chip in tests/reader/test_bridge_mfrc522.py.
SPI mode 0, MSB first, up to 10 MHz. Address byte: ``0x80 | reg << 1`` to read, ``reg << 1`` to write.
"""

# ruff: noqa: UP031

# registers (datasheet section 9)
COMMAND = 0x01
COM_IEN = 0x02
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
STATUS2 = 0x08
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
MOD_WIDTH = 0x24
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# PCD commands (section 10.3)
CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_MF_AUTHENT = 0x0E
STATUS2_CRYPTO1_ON = 0x08
CMD_SOFT_RESET = 0x0F

# ComIrqReg bits
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_ERR = 0x02
IRQ_TIMER = 0x01
# ErrorReg bits
ERR_BUFFER_OVFL = 0x10
ERR_COLL = 0x08
ERR_CRC = 0x04
ERR_PARITY = 0x02
ERR_PROTOCOL = 0x01

# PICC commands (ISO 14443-3)
PICC_REQA = 0x26
PICC_WUPA = 0x52
PICC_SEL = (0x93, 0x95, 0x97)  # cascade levels 1, 2, 3
PICC_HLTA = 0x50
CASCADE_TAG = 0x88
SAK_UID_INCOMPLETE = 0x04

OK = 0
NO_CARD = 1
ERROR_ = 2
COLLISION = 3


class MFRC522Error(Exception):
    """The chip did not answer as the datasheet says (wiring, power, or a chip fault)."""


def crc_a(data):
    """ISO 14443-3 CRC_A of ``data`` (initial value 0x6363), as two bytes, low byte first."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


class MFRC522:
    """One MFRC522 on an SPI bus. ``cs`` is a pin object with ``value(v)``; active low."""

    def __init__(self, spi, cs, max_polls=2000):
        self.spi = spi
        self.cs = cs
        self.max_polls = max_polls  # ComIrqReg reads before giving up (the chip's timer fires after 25 ms)
        self.cs.value(1)

    # ------------------------------------------------------------------ register access

    def read(self, reg):
        buf = bytearray(2)
        self.cs.value(0)
        self.spi.write_readinto(bytes([0x80 | (reg << 1), 0]), buf)
        self.cs.value(1)
        return buf[1]

    def write(self, reg, value):
        self.cs.value(0)
        self.spi.write(bytes([(reg << 1) & 0x7E, value & 0xFF]))
        self.cs.value(1)

    def set_bits(self, reg, mask):
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg, mask):
        self.write(reg, self.read(reg) & ~mask)

    # ------------------------------------------------------------------ set-up

    def init(self):
        """Soft reset, a 25 ms receive timeout, 100 % ASK, CRC preset 6363h, antenna on; returns VersionReg."""
        self.write(COMMAND, CMD_SOFT_RESET)
        for _ in range(self.max_polls):
            if not self.read(COMMAND) & 0x10:  # PowerDown bit clears when the reset is done
                break
        else:
            raise MFRC522Error("the chip did not finish its soft reset (check wiring and 3.3 V)")
        self.write(TX_MODE, 0x00)  # 106 kBd, no hardware CRC
        self.write(RX_MODE, 0x00)
        self.write(MOD_WIDTH, 0x26)
        self.write(T_MODE, 0x80)  # TAuto: the timer starts at the end of every transmission
        self.write(T_PRESCALER, 0xA9)  # 13.56 MHz / (2*169+1) = 40 kHz: 25 us per tick
        self.write(T_RELOAD_H, 0x03)  # 1000 ticks = 25 ms
        self.write(T_RELOAD_L, 0xE8)
        self.write(TX_ASK, 0x40)  # force 100 % ASK
        self.write(MODE, 0x3D)  # CRC preset 6363h (ISO 14443-3)
        self.antenna(True)
        version = self.read(VERSION)
        if version in (0x00, 0xFF):
            raise MFRC522Error("VersionReg reads %02X: no chip answers on SPI" % version)
        return version

    def antenna(self, on):
        if on:
            self.set_bits(TX_CONTROL, 0x03)
        else:
            self.clear_bits(TX_CONTROL, 0x03)

    # ------------------------------------------------------------------ transceive

    def transceive(self, data, tx_last_bits=0, rx_align=0):
        """Send ``data`` to the card and receive its answer.

        Returns (status, bytes, valid bits in the last byte (0 = all 8), collision position or 0).
        """
        self.write(COMMAND, CMD_IDLE)
        self.write(COM_IRQ, 0x7F)  # clear all interrupt request bits
        self.write(FIFO_LEVEL, 0x80)  # flush the FIFO
        for b in data:
            self.write(FIFO_DATA, b)
        framing = ((rx_align & 7) << 4) | (tx_last_bits & 7)
        self.write(BIT_FRAMING, framing)
        self.write(COMMAND, CMD_TRANSCEIVE)
        self.write(BIT_FRAMING, framing | 0x80)  # StartSend
        irq = 0
        for _ in range(self.max_polls):
            irq = self.read(COM_IRQ)
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER):
                break
        self.write(BIT_FRAMING, framing)
        if not irq & (IRQ_RX | IRQ_IDLE):
            return NO_CARD, b"", 0, 0
        error = self.read(ERROR)
        if error & (ERR_BUFFER_OVFL | ERR_PARITY | ERR_PROTOCOL):
            return ERROR_, b"", 0, 0
        n = self.read(FIFO_LEVEL) & 0x7F
        out = bytes(self.read(FIFO_DATA) for _ in range(n))
        last_bits = self.read(CONTROL) & 0x07
        if error & ERR_COLL:
            coll = self.read(COLL)
            if coll & 0x20:  # CollPosNotValid: out of range
                return COLLISION, out, last_bits, 0
            pos = coll & 0x1F
            return COLLISION, out, last_bits, pos if pos else 32
        if not out and irq & IRQ_TIMER:
            return NO_CARD, b"", 0, 0
        return OK, out, last_bits, 0

    def transceive_short(self, data, tx_last_bits=0):
        """:meth:`transceive` waiting 1 ms instead of 25: a card answers REQA/WUPA within about 0.1 ms
        (ISO/IEC 14443-3 6.2.1.1, FDT 1172/fc), and HLTA never, so an empty field or a halt is quick."""
        self.write(T_RELOAD_H, 0x00)
        self.write(T_RELOAD_L, 40)  # 40 ticks of 25 us
        try:
            return self.transceive(data, tx_last_bits)
        finally:
            self.write(T_RELOAD_H, 0x03)  # back to 1000 ticks = 25 ms
            self.write(T_RELOAD_L, 0xE8)

    # ------------------------------------------------------------------ ISO 14443-3 type A

    def request(self, wake=True):
        """WUPA (wakes halted cards too) or REQA; returns the 2-byte ATQA or None if no card answers.

        Cards of different UID sizes answer different ATQAs at the same time: a collision in the ATQA is
        expected (ISO/IEC 14443-3, 6.4.2) and is still an answer; the anticollision loop picks one card.
        """
        status, data, last_bits, _ = self.transceive_short(bytes([PICC_WUPA if wake else PICC_REQA]), tx_last_bits=7)
        if status not in (OK, COLLISION) or len(data) != 2 or last_bits != 0:
            return None
        return data

    def _anticollision(self, level):
        """Anticollision at cascade level 1..3: the 5 bytes UID CLn + BCC, or None."""
        sel = PICC_SEL[level - 1]
        known = bytearray(5)
        known_bits = 0
        for _ in range(33):  # at most one round per bit
            n_bytes, n_bits = known_bits // 8, known_bits % 8
            nvb = ((2 + n_bytes) << 4) | n_bits
            sent = bytes([sel, nvb]) + bytes(known[: n_bytes + (1 if n_bits else 0)])
            status, data, _last, pos = self.transceive(sent, tx_last_bits=n_bits, rx_align=n_bits)
            if status not in (OK, COLLISION) or not data:
                return None
            # the answer continues the partial byte: its first byte's low n_bits are ours
            mask = (0xFF << n_bits) & 0xFF
            for i, b in enumerate(data):
                j = n_bytes + i
                if j >= 5:
                    break
                known[j] = (known[j] & ~mask & 0xFF) | (b & mask) if i == 0 else b
            if status == OK:
                if known[0] ^ known[1] ^ known[2] ^ known[3] != known[4]:
                    return None  # BCC mismatch: a garbled answer
                return bytes(known)
            if pos == 0 or pos <= known_bits:
                return None
            # keep the bits before the collision, choose 1 for the colliding bit (pos is 1-based)
            known_bits = pos
            byte, bit = (pos - 1) // 8, (pos - 1) % 8
            known[byte] = (known[byte] & ((1 << bit) - 1)) | (1 << bit)
            for k in range(byte + 1, 5):
                known[k] = 0
        return None

    def select_level(self, level, cln_bcc):
        """SELECT at cascade level ``level`` with the 5 bytes from anticollision; returns SAK or None."""
        frame = bytes([PICC_SEL[level - 1], 0x70]) + cln_bcc
        status, data, _last, _pos = self.transceive(frame + crc_a(frame))
        if status != OK or len(data) != 3 or crc_a(data[:1]) != data[1:]:
            return None
        return data[0]

    def read_uid(self):
        """Anticollision + SELECT through all cascade levels; the UID (4, 7 or 10 bytes) or None."""
        uid = b""
        for level in (1, 2, 3):
            cln = self._anticollision(level)
            if cln is None:
                return None
            sak = self.select_level(level, cln)
            if sak is None:
                return None
            if sak & SAK_UID_INCOMPLETE:
                if cln[0] != CASCADE_TAG:
                    return None
                uid += cln[1:4]
                continue
            return uid + cln[0:4]
        return None

    def halt(self):
        """HLTA: the selected card goes to HALT (a correct HLTA gets no answer)."""
        frame = bytes([PICC_HLTA, 0x00])
        self.transceive_short(frame + crc_a(frame))

    def _reselect(self, uid_hex):
        """Wake and select a card again; True if it is the one with ``uid_hex``."""
        if self.request(wake=True) is None:
            return False
        uid = self.read_uid()
        return uid is not None and "".join("%02X" % b for b in uid) == uid_hex

    def ntag(self, op, uid_hex, page, data):
        """The NTAG's READ (``op`` "read": 16 bytes from ``page``) or WRITE ("write": 4 bytes at ``page``,
        True on its 4-bit ACK) on the card ``uid_hex``, selected again and halted after; None on failure."""
        if not self._reselect(uid_hex):
            return None
        if op == "read":
            frame = bytes([0x30, page])
            status, out, _last, _pos = self.transceive(frame + crc_a(frame))
            result = out[:16] if status == OK and len(out) == 18 and crc_a(out[:16]) == out[16:] else None
        else:
            frame = bytes([0xA2, page]) + bytes(data)
            status, out, last, _pos = self.transceive(frame + crc_a(frame))
            result = True if status == OK and out == b"\x0a" and last == 4 else None
        self.halt()
        return result

    def _authenticate(self, block, key_b, key, uid):
        """MFAuthent of ``block``'s sector with key A or B (6 bytes) for the selected card ``uid`` (4 bytes);
        True when the chip reports MFCrypto1On."""
        self.write(COMMAND, CMD_IDLE)
        self.write(COM_IRQ, 0x7F)
        self.write(FIFO_LEVEL, 0x80)
        for b in bytes([0x61 if key_b else 0x60, block]) + bytes(key) + bytes(uid):
            self.write(FIFO_DATA, b)
        self.write(COMMAND, CMD_MF_AUTHENT)
        for _ in range(self.max_polls):
            if self.read(COM_IRQ) & (IRQ_IDLE | IRQ_TIMER):
                break
        return bool(self.read(STATUS2) & STATUS2_CRYPTO1_ON)

    def classic(self, op, uid_hex, block, key_b, key, data):
        """A MIFARE Classic's block: ``op`` "read" (16 bytes) or "write" (``data``, 16 bytes: True on the
        card's two 4-bit ACKs), after the authentication of its sector with key A or B (``key``, 6 bytes),
        on the card ``uid_hex`` (4 bytes) selected again, halted and the cipher off after; None on failure."""
        self.clear_bits(STATUS2, STATUS2_CRYPTO1_ON)
        if len(uid_hex) != 8 or not self._reselect(uid_hex):
            return None
        uid = bytes(int(uid_hex[i:i + 2], 16) for i in range(0, 8, 2))
        result = None
        if self._authenticate(block, key_b, key, uid):
            if op == "read":
                frame = bytes([0x30, block])
                status, out, _last, _pos = self.transceive(frame + crc_a(frame))
                if status == OK and len(out) == 18 and crc_a(out[:16]) == out[16:]:
                    result = out[:16]
            else:
                frame = bytes([0xA0, block])
                status, out, last, _pos = self.transceive(frame + crc_a(frame))
                if status == OK and out == b"\x0a" and last == 4:
                    status, out, last, _pos = self.transceive(bytes(data) + crc_a(bytes(data)))
                    result = True if status == OK and out == b"\x0a" and last == 4 else None
            self.halt()
        self.clear_bits(STATUS2, STATUS2_CRYPTO1_ON)
        return result

    def poll(self):
        """One poll: wake any card, read its UID, halt it; the UID as upper-case hex, or None."""
        if self.request(wake=True) is None:
            return None
        uid = self.read_uid()
        if uid is None:
            return None
        self.halt()
        return "".join("%02X" % b for b in uid)
