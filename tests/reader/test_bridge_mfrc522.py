"""The firmware's own MFRC522 driver under CPython, against a fake chip on a fake SPI bus.

The fake models what the driver relies on (datasheet sections 8-10): register access by address byte,
the FIFO, ComIrqReg/ErrorReg/ControlReg/CollReg, the Transceive command with TxLastBits/RxAlign, and
ISO 14443-3 type A cards answering REQA/WUPA, anticollision, SELECT and HLTA at cascade levels 1-3,
with bit collisions when two cards answer at once.
"""

from __future__ import annotations

from typing import Any

import pytest

from firmware_sim.bridge import load_firmware_module

m: Any = load_firmware_module("mfrc522")


def cascade(uid: bytes) -> list[bytes]:
    """The UID CLn + BCC blocks of each cascade level."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes([m.CASCADE_TAG]) + uid[:3], uid[3:]]
    else:
        parts = [bytes([m.CASCADE_TAG]) + uid[:3], bytes([m.CASCADE_TAG]) + uid[3:6], uid[6:]]
    return [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts]


def bits_of(data: bytes) -> list[int]:
    return [(b >> i) & 1 for b in data for i in range(8)]  # LSB first, as sent on air


class FakeCard:
    def __init__(self, uid: str) -> None:
        self.uid = bytes.fromhex(uid)
        self.levels = cascade(self.uid)
        self.state = "IDLE"
        self.level = 0

    def answer(self, frame: bytes, tx_last_bits: int) -> bytes | None:
        """The card's answer bits as bytes (None: silent)."""
        if tx_last_bits == 7 and len(frame) == 1:
            if (frame[0] == m.PICC_REQA and self.state == "IDLE") or (frame[0] == m.PICC_WUPA and self.state in ("IDLE", "HALT")):
                self.state, self.level = "READY", 0
                return bytes([{4: 0x04, 7: 0x44, 10: 0x84}[len(self.uid)], 0x00])
            return None
        if frame[:2] == bytes([m.PICC_HLTA, 0]) and frame[2:] == m.crc_a(frame[:2]) and self.state == "ACTIVE":
            self.state = "HALT"
            return None
        if self.state != "READY" or frame[0] not in m.PICC_SEL or m.PICC_SEL.index(frame[0]) != self.level:
            return None
        cln = self.levels[self.level]
        nvb = frame[1]
        if nvb == 0x70:
            if len(frame) != 9 or frame[2:7] != cln or frame[7:] != m.crc_a(frame[:7]):
                return None
            if self.level + 1 < len(self.levels):
                self.level += 1
                sak = 0x04
            else:
                self.state, sak = "ACTIVE", 0x08
            return bytes([sak]) + m.crc_a(bytes([sak]))
        known_bits = ((nvb >> 4) - 2) * 8 + (nvb & 7)
        sent = bits_of(frame[2:])[:known_bits]
        if bits_of(cln)[:known_bits] != sent:
            return None
        n_bytes, n_bits = known_bits // 8, known_bits % 8
        out = bytearray(cln[n_bytes:])
        out[0] &= (0xFF << n_bits) & 0xFF  # the chip aligns the first received bit at RxAlign
        return bytes(out)


class FakeChip:
    """An MFRC522 as seen through SPI: registers, FIFO, Transceive."""

    def __init__(self, cards: list[FakeCard]) -> None:
        self.cards = cards
        self.regs = bytearray(64)
        self.regs[m.VERSION] = 0x92
        self.fifo: list[int] = []
        self.selected = False
        self.transactions = 0

    # SPI
    def write_readinto(self, wbuf: bytes, rbuf: bytearray) -> None:
        self._check_cs()
        addr = wbuf[0]
        assert addr & 0x80 and not addr & 0x01, f"bad read address byte {addr:02X}"
        rbuf[0] = 0
        rbuf[1] = self.read_reg((addr >> 1) & 0x3F)

    def write(self, wbuf: bytes) -> None:
        self._check_cs()
        addr = wbuf[0]
        assert not addr & 0x81, f"bad write address byte {addr:02X}"
        for value in wbuf[1:]:
            self.write_reg((addr >> 1) & 0x3F, value)

    # chip select
    def value(self, v: int) -> None:
        self.selected = v == 0

    def _check_cs(self) -> None:
        assert self.selected, "SPI transfer without chip select"
        self.transactions += 1

    def read_reg(self, reg: int) -> int:
        if reg == m.FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == m.FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def write_reg(self, reg: int, value: int) -> None:
        if reg == m.FIFO_DATA:
            self.fifo.append(value)
        elif reg == m.FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif reg == m.COM_IRQ:
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0x7F
        elif reg == m.COMMAND:
            if value & 0x0F == m.CMD_SOFT_RESET:
                version = self.regs[m.VERSION]
                self.regs = bytearray(64)
                self.regs[m.VERSION] = version
                self.fifo.clear()
            else:
                self.regs[reg] = value
        elif reg == m.BIT_FRAMING:
            self.regs[reg] = value
            if value & 0x80 and self.regs[m.COMMAND] & 0x0F == m.CMD_TRANSCEIVE:
                self._transceive(value & 7)
        else:
            self.regs[reg] = value

    def _transceive(self, tx_last_bits: int) -> None:
        frame = bytes(self.fifo)
        self.fifo.clear()
        self.regs[m.ERROR] = 0
        self.regs[m.CONTROL] &= ~0x07 & 0xFF
        if not self.regs[m.TX_CONTROL] & 0x03:
            answers = []  # antenna off: no field, no card
        else:
            answers = [a for a in (c.answer(frame, tx_last_bits) for c in self.cards) if a is not None]
        if not answers:
            self.regs[m.COM_IRQ] |= m.IRQ_TIMER
            return
        self.regs[m.COM_IRQ] |= m.IRQ_RX | m.IRQ_IDLE
        first = answers[0]
        if len(answers) > 1:
            known_bits = 0
            if frame[0] in m.PICC_SEL:
                known_bits = ((frame[1] >> 4) - 2) * 8 + (frame[1] & 7)
            columns = list(zip(*(bits_of(a) for a in answers), strict=False))
            offset = (known_bits // 8) * 8
            for i, col in enumerate(columns):
                if i + offset < known_bits:
                    continue
                if len(set(col)) > 1:
                    self.regs[m.ERROR] |= m.ERR_COLL
                    pos = i + offset + 1
                    self.regs[m.COLL] = pos & 0x1F if pos <= 32 else 0x20
                    break
            merged = bytes(max(bs) for bs in zip(*answers, strict=False))
            self.fifo.extend(merged)
        else:
            self.fifo.extend(first)


def reader_with(*uids: str) -> tuple[Any, FakeChip]:
    chip = FakeChip([FakeCard(u) for u in uids])
    r = m.MFRC522(chip, chip)
    assert r.init() == 0x92
    return r, chip


def test_crc_a_matches_iso_14443_examples() -> None:
    assert m.crc_a(bytes([0x50, 0x00])) == bytes([0x57, 0xCD])  # the HLTA frame: 50 00 57 CD
    assert m.crc_a(bytes([0x00, 0x00])) == bytes([0xA0, 0x1E])


@pytest.mark.parametrize("uid", ["04A22B1C", "04A22B1C5D6E80", "0102030405060708090A"])
def test_poll_reads_4_7_and_10_byte_uids(uid: str) -> None:
    r, chip = reader_with(uid)
    assert r.poll() == uid
    assert chip.cards[0].state == "HALT"
    assert r.poll() == uid  # WUPA wakes the halted card: a card left on the reader keeps answering


def test_reqa_does_not_wake_a_halted_card() -> None:
    r, _chip = reader_with("04A22B1C")
    assert r.poll() == "04A22B1C"
    assert r.request(wake=False) is None
    assert r.request(wake=True) == bytes([0x04, 0x00])


def test_no_card_and_antenna_off_give_none() -> None:
    r, chip = reader_with()
    assert r.poll() is None
    chip.cards.append(FakeCard("DEADBEEF"))
    r.antenna(False)
    assert r.poll() is None
    r.antenna(True)
    assert r.poll() == "DEADBEEF"


def test_two_cards_collide_and_one_is_selected() -> None:
    r, chip = reader_with("04A22B1C", "04A22B1D")  # differ in the last bit of byte 3
    uid = r.poll()
    assert uid == "04A22B1D"  # the collision resolves towards the 1 bit
    assert [c.state for c in chip.cards] == ["READY", "HALT"]


def test_two_seven_byte_cards_collide_at_level_2() -> None:
    r, _chip = reader_with("04A22B1C5D6E80", "04A22B115D6E80")
    assert r.poll() in ("04A22B1C5D6E80", "04A22B115D6E80")


def test_a_silent_chip_is_reported() -> None:
    chip = FakeChip([])
    chip.regs[m.VERSION] = 0x00
    with pytest.raises(m.MFRC522Error, match="VersionReg reads 00"):
        m.MFRC522(chip, chip).init()
