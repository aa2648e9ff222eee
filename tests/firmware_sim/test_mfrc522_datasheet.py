"""The simulated MFRC522 (firmware_sim/mfrc522.py) register by register against NXP's MFRC522 data sheet
(rev. 3.9, 27 April 2016): each test names the section it checks. Each of these failed before the
simulator was brought to the data sheet (the register differences two third-party drivers found:
ErrIRq, IdleIRq after Transceive, the timer, Status1Reg, CollReg, ValuesAfterColl, Mem and Generate
RandomID, the field and SoftReset, the reset values)."""

from __future__ import annotations

import pytest

from firmware_sim.mfrc522 import MFRC522Chip
from firmware_sim.mfrc522_cards import ClassicCard, NtagCard
from firmware_sim.pn532_card import crc_a

COMMAND, COM_IEN, COM_IRQ, ERROR, STATUS1, STATUS2, FIFO_DATA, FIFO_LEVEL = 0x01, 0x02, 0x04, 0x06, 0x07, 0x08, 0x09, 0x0A
WATER_LEVEL, CONTROL, BIT_FRAMING, COLL, TX_MODE, RX_MODE, TX_CONTROL = 0x0B, 0x0C, 0x0D, 0x0E, 0x12, 0x13, 0x14
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, T_COUNTER_H, T_COUNTER_L, TEST_PIN_EN = 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x33
IDLE, MEM, RANDOM_ID, TRANSCEIVE, MF_AUTHENT, SOFT_RESET = 0x00, 0x01, 0x02, 0x0C, 0x0E, 0x0F
TIMER_IRQ, ERR_IRQ, IDLE_IRQ, RX_IRQ = 0x01, 0x02, 0x10, 0x20
COLL_ERR, BUFFER_OVFL = 0x08, 0x10


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_chip(*cards: object, clock: Clock | None = None) -> MFRC522Chip:
    chip = MFRC522Chip(clock=clock or Clock())
    for card in cards:
        chip.insert(card)  # type: ignore[arg-type]
    chip.write(TX_CONTROL, 0x83)  # antenna on
    return chip


def transceive(chip: MFRC522Chip, data: bytes, last_bits: int = 0, crc: bool = False) -> bytes:
    chip.write(TX_MODE, 0x80 if crc else 0x00)
    chip.write(RX_MODE, 0x80 if crc else 0x00)
    chip.write(COMMAND, IDLE)
    chip.write(COM_IRQ, 0x7F)
    chip.write(FIFO_LEVEL, 0x80)
    for b in data:
        chip.write(FIFO_DATA, b)
    chip.write(COMMAND, TRANSCEIVE)
    chip.write(BIT_FRAMING, 0x80 | last_bits)
    return bytes(chip.read(FIFO_DATA) for _ in range(chip.read(FIFO_LEVEL)))


def select(chip: MFRC522Chip, uid: bytes) -> int:
    """REQA, then SELECT at each cascade level with the card's own blocks: the last SAK."""
    transceive(chip, b"\x26", 7)
    card = next(c for c in chip.cards if c.uid == uid)
    sak = 0
    for level, cln in enumerate(card.levels):
        frame = bytes([(0x93, 0x95, 0x97)[level], 0x70]) + cln
        sak = transceive(chip, frame + crc_a(frame))[0]
    return sak


def test_reset_values_of_collreg_and_testpinenreg() -> None:
    """9.3.1.15: CollReg resets to 101x xxxxb (ValuesAfterColl and CollPosNotValid set); 9.3.4.4:
    TestPinEnReg resets to 80h (RS232LineEn)."""
    chip = MFRC522Chip()
    assert chip.read(COLL) & 0xE0 == 0xA0
    assert chip.read(TEST_PIN_EN) == 0x80


def test_err_irq_follows_coll_err_and_buffer_overflow() -> None:
    """9.3.1.5 (ComIrqReg): ErrIRq is set when any bit of ErrorReg is; 9.3.1.7: CollErr, BufferOvfl."""
    chip = make_chip(bytes.fromhex("04A22B1C"), bytes.fromhex("04A22B1C5D6E80"))
    transceive(chip, b"\x26", 7)  # the two ATQAs collide
    assert chip.read(ERROR) & COLL_ERR and chip.read(COM_IRQ) & ERR_IRQ
    chip.write(COM_IRQ, 0x7F)
    chip.write(FIFO_LEVEL, 0x80)
    for i in range(65):
        chip.write(FIFO_DATA, i)
    assert chip.read(ERROR) & BUFFER_OVFL and chip.read(COM_IRQ) & ERR_IRQ


def test_transceive_answer_sets_rx_irq_but_no_idle_irq() -> None:
    """10.3.1.8: Transceive does not end by itself: an answer sets RxIRq, CommandReg stays Transceive and
    IdleIRq stays clear (9.3.1.5: nor does the host's own Idle set it)."""
    chip = make_chip(bytes.fromhex("DEADBEEF"))
    assert transceive(chip, b"\x26", 7) == b"\x04\x00"
    assert chip.read(COM_IRQ) & RX_IRQ and not chip.read(COM_IRQ) & IDLE_IRQ
    assert chip.read(COMMAND) & 0x0F == TRANSCEIVE
    chip.write(COMMAND, IDLE)
    assert not chip.read(COM_IRQ) & IDLE_IRQ


def test_timer_runs_out_after_the_programmed_time() -> None:
    """8.5 and 9.3.3.10-12: with TAuto the timer starts at the end of the transmission, TCounterValReg
    counts TReload down at 13.56 MHz / (2·TPrescaler + 1), Status1Reg.TRunning is set meanwhile, and
    TimerIRq comes when it reaches zero, not before."""
    clock = Clock()
    chip = make_chip(clock=clock)
    chip.write(T_MODE, 0x80 | 0x0D)  # TAuto, TPrescaler high nibble
    chip.write(T_PRESCALER, 0x3E)  # TPrescaler 0xD3E: (2·3390 + 1) / 13.56 MHz = 0.5 ms a tick
    chip.write(T_RELOAD_H, 0)
    chip.write(T_RELOAD_L, 30)  # 31 ticks: about 15.5 ms
    tick = (2 * 0xD3E + 1) / 13.56e6
    transceive(chip, b"\x26", 7)  # nobody answers
    assert not chip.read(COM_IRQ) & TIMER_IRQ
    assert chip.read(STATUS1) & 0x08  # TRunning
    clock.now += 10.2 * tick
    counter = chip.read(T_COUNTER_H) << 8 | chip.read(T_COUNTER_L)
    assert counter == 20 and not chip.read(COM_IRQ) & TIMER_IRQ
    clock.now += 21 * tick
    assert chip.read(COM_IRQ) & TIMER_IRQ
    assert not chip.read(STATUS1) & 0x08


def test_status1_follows_the_fifo_level() -> None:
    """9.3.1.8: LoAlert when the FIFO holds at most WaterLevel bytes, HiAlert when at most WaterLevel
    bytes are free (WaterLevelReg 9.3.1.12); reset value 21h."""
    chip = make_chip()
    assert chip.read(STATUS1) == 0x21
    chip.write(WATER_LEVEL, 8)
    for i in range(60):
        chip.write(FIFO_DATA, i)
    status = chip.read(STATUS1)
    assert status & 0x02 and not status & 0x01
    chip.write(FIFO_LEVEL, 0x80)
    assert chip.read(STATUS1) & 0x03 == 0x01


@pytest.mark.parametrize("values_after_coll", [1, 0])
def test_collreg_and_values_after_coll(values_after_coll: int) -> None:
    """9.3.1.15: CollPos is the first collision's bit position, CollPosNotValid says whether there was
    one, bit 7 (ValuesAfterColl, the only writable bit) is kept; with ValuesAfterColl = 0 the received
    bits from the collision on are cleared, with 1 they are as received (here: ORed)."""
    chip = make_chip(bytes.fromhex("04A22B1C"), bytes.fromhex("04A22B1D"))
    chip.write(COLL, values_after_coll << 7 | 0x1F)
    transceive(chip, b"\x26", 7)
    answer = transceive(chip, b"\x93\x20")  # both send their CL1: they differ first in bit 25
    coll = chip.read(COLL)
    assert coll >> 7 == values_after_coll and not coll & 0x20 and coll & 0x1F == 25
    if values_after_coll:
        assert answer[:4] == bytes.fromhex("04A22B1D")
    else:
        assert answer[:3] == bytes.fromhex("04A22B") and answer[3:] == b"\x00\x00"
    one = make_chip(bytes.fromhex("04A22B1C"))
    transceive(one, b"\x26", 7)
    assert one.read(COLL) & 0x20  # no collision: CollPosNotValid


def test_generate_random_id_and_mem_end_with_idle_irq() -> None:
    """10.3.1.3: Generate RandomID puts 10 random bytes in the internal buffer; 10.3.1.2: Mem with an empty
    FIFO copies the 25-byte buffer into the FIFO, with 25 bytes in the FIFO stores them; both end by
    themselves (IdleIRq, CommandReg back to Idle)."""
    chip = make_chip()
    chip.write(COMMAND, RANDOM_ID)
    assert chip.read(COM_IRQ) & IDLE_IRQ and chip.read(COMMAND) & 0x0F == IDLE
    chip.write(COM_IRQ, 0x7F)
    chip.write(COMMAND, MEM)
    out = bytes(chip.read(FIFO_DATA) for _ in range(chip.read(FIFO_LEVEL)))
    assert len(out) == 25 and any(out[:10]) and chip.read(COM_IRQ) & IDLE_IRQ
    for i in range(25):
        chip.write(FIFO_DATA, i)
    chip.write(COMMAND, MEM)
    assert chip.read(FIFO_LEVEL) == 0
    chip.write(COMMAND, MEM)
    assert bytes(chip.read(FIFO_DATA) for _ in range(25)) == bytes(range(25))


@pytest.mark.parametrize("how", ["antenna", "soft_reset"])
def test_losing_the_field_puts_cards_back_to_idle(how: str) -> None:
    """9.3.2.5 (TxControlReg Tx1RFEn/Tx2RFEn) and 10.3.1.10 (SoftReset, after which TxControlReg is 80h:
    no field): a card without the field loses its state; a halted card answers REQA again."""
    chip = make_chip(bytes.fromhex("DEADBEEF"))
    select(chip, bytes.fromhex("DEADBEEF"))
    transceive(chip, b"\x50\x00" + crc_a(b"\x50\x00"))  # HLTA
    assert transceive(chip, b"\x26", 7) == b""  # a halted card ignores REQA
    if how == "antenna":
        chip.write(TX_CONTROL, 0x80)
    else:
        chip.write(COMMAND, SOFT_RESET)
    chip.write(TX_CONTROL, 0x83)
    assert transceive(chip, b"\x26", 7) == b"\x04\x00"


def _authent(chip: MFRC522Chip, block: int, key: bytes, uid: bytes) -> None:
    chip.write(COMMAND, IDLE)
    chip.write(COM_IRQ, 0x7F)
    chip.write(FIFO_LEVEL, 0x80)
    for b in bytes([0x60, block]) + key + uid[:4]:
        chip.write(FIFO_DATA, b)
    chip.write(COMMAND, MF_AUTHENT)


def test_mf_authent_with_the_right_and_a_wrong_key() -> None:
    """10.3.1.9: MFAuthent takes the auth command, block, key and UID from the FIFO, runs the three-pass
    authentication and, when it passes, sets Status2Reg.MFCrypto1On (9.3.1.9) and ends (IdleIRq); a wrong
    key gets no answer: no IdleIRq, MFCrypto1On stays 0, the timer runs out. Then READ and WRITE of a
    block go enciphered through the same registers (MF1S50yyX 10.1)."""
    uid = bytes.fromhex("DEADBEEF")
    clock = Clock()
    chip = make_chip(ClassicCard(uid, seed=3), clock=clock)
    chip.write(T_MODE, 0x80)
    chip.write(T_RELOAD_L, 100)
    select(chip, uid)
    _authent(chip, 4, bytes.fromhex("A0A1A2A3A4A5"), uid)
    assert not chip.read(COM_IRQ) & IDLE_IRQ and not chip.read(STATUS2) & 0x08
    clock.now += 1.0
    assert chip.read(COM_IRQ) & TIMER_IRQ
    select(chip, uid)
    _authent(chip, 4, b"\xff" * 6, uid)
    assert chip.read(COM_IRQ) & IDLE_IRQ and chip.read(STATUS2) & 0x08
    data = bytes(range(16))
    assert transceive(chip, b"\xa0\x05", crc=True) == b"\x0a"  # ACK, 4 bits
    assert chip.read(CONTROL) & 0x07 == 4
    assert transceive(chip, data, crc=True) == b"\x0a"
    assert transceive(chip, b"\x30\x05", crc=True) == data
    assert transceive(chip, b"\x30\x07", crc=True)[:6] == bytes(6)  # the trailer: key A reads as zeros
    assert transceive(chip, b"\x30\x08", crc=True) == b"\x00"  # another sector: NAK (4 bits)


@pytest.mark.parametrize(("kind", "size", "pages"), [("NTAG213", 0x0F, 45), ("NTAG215", 0x11, 135), ("NTAG216", 0x13, 231)])
def test_ntag_get_version_read_write_and_locks(kind: str, size: int, pages: int) -> None:
    """NTAG213/215/216 data sheet 10.1 GET_VERSION (storage size 0Fh/11h/13h), 10.2 READ (four pages,
    rolling over), 10.4 WRITE (ACK Ah), 8.5.2 static lock bytes (page 2: a set bit locks its page)."""
    uid = bytes.fromhex("04A22B1C5D6E80")
    chip = make_chip(NtagCard(uid, kind))
    assert select(chip, uid) == 0x00
    assert transceive(chip, b"\x60", crc=True) == bytes([0, 4, 4, 2, 1, 0, size, 3])
    first = transceive(chip, b"\x30\x00", crc=True)
    assert first[:3] == uid[:3] and first[4:8] == uid[3:] and first[12] == 0xE1
    assert transceive(chip, b"\xa2\x05DATA", crc=True) == b"\x0a"
    assert transceive(chip, b"\x30\x05", crc=True)[:4] == b"DATA"
    assert transceive(chip, bytes([0x30, pages - 1]), crc=True)[4:8] == first[:4]  # rolls over to page 0
    assert transceive(chip, b"\xa2\x02\x00\x00\x20\x00", crc=True) == b"\x0a"  # lock page 5
    assert transceive(chip, b"\xa2\x05\x01\x02\x03\x04", crc=True) == b"\x00"  # NAK
    assert transceive(chip, b"\x30\x05", crc=True)[:4] == b"DATA"
    assert transceive(chip, b"\xa2\x06YYYY", crc=True) == b"\x0a"


def test_two_cards_of_different_uid_sizes_and_our_firmware_driver() -> None:
    """ISO/IEC 14443-3 6.4.2: cards of different UID sizes on the field: the ATQAs collide, the anticollision
    loop of hardware/firmware/mfrc522.py picks one (the 1 at the first differing bit), SELECT halts it
    and the other answers once the first is gone."""
    from firmware_sim.bridge import load_firmware_module

    driver = load_firmware_module("mfrc522")

    class Bus:
        def __init__(self, chip: MFRC522Chip) -> None:
            self.chip = chip

        def write_readinto(self, wbuf: bytes, rbuf: bytearray) -> None:
            rbuf[:] = self.chip.transfer(bytes(wbuf))

        def write(self, wbuf: bytes) -> None:
            self.chip.transfer(bytes(wbuf))

        def value(self, v: int) -> None:
            pass

    chip = MFRC522Chip()
    chip.insert(ClassicCard(bytes.fromhex("04A22B1C")))
    chip.insert(NtagCard(bytes.fromhex("04A22B1C5D6E80")))
    reader = driver.MFRC522(Bus(chip), Bus(chip))
    reader.init()
    assert reader.poll() == "04A22B1C"
    chip.remove(bytes.fromhex("04A22B1C"))
    assert reader.poll() == "04A22B1C5D6E80"
