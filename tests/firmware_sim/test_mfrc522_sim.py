"""The register-level MFRC522 (firmware_sim/mfrc522.py) against its datasheet, and a third-party driver on it.

The third-party driver is PyPI's ``mfrc522`` 0.0.7 (pimylifeup's packaging of the MFRC522-python
driver for the Raspberry Pi, the lineage the MicroPython drivers were ported from): it talks to the
chip through ``spidev`` and ``RPi.GPIO``, which are replaced here by shims onto the simulation.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from firmware_sim.bridge import load_firmware_module
from firmware_sim.mfrc522 import MFRC522Chip
from firmware_sim.pn532_card import crc_a

pytestmark = pytest.mark.timeout(30)


def spi(chip: MFRC522Chip, *data: int) -> bytes:
    return chip.transfer(bytes(data))


def test_spi_reads_come_one_byte_late_and_writes_repeat_the_register() -> None:
    chip = MFRC522Chip()
    assert spi(chip, 0x80 | 0x37 << 1, 0x80 | 0x01 << 1, 0x00) == bytes([0x00, 0x92, 0x20])  # Version, Command
    spi(chip, 0x09 << 1, 0x11, 0x22, 0x33)  # three bytes into the FIFO
    assert chip.read(0x0A) == 3 and [chip.read(0x09) for _ in range(3)] == [0x11, 0x22, 0x33]


def test_com_irq_set1_bit_and_fifo_flush() -> None:
    chip = MFRC522Chip()
    chip.write(0x04, 0x7F)  # Set1 = 0: clear every bit
    assert chip.read(0x04) == 0x00
    chip.write(0x04, 0x80 | 0x21)
    assert chip.read(0x04) == 0x21
    chip.write(0x09, 0x01)
    chip.write(0x0A, 0x80)
    assert chip.read(0x0A) == 0


def test_calc_crc_uses_the_coprocessor_preset() -> None:
    chip = MFRC522Chip()  # ModeReg resets to 0x3F: preset FFFF; the ISO preset 6363 is ModeReg 0x3D
    chip.write(0x11, 0x3D)
    for b in (0x50, 0x00):
        chip.write(0x09, b)
    chip.write(0x01, 0x03)  # CalcCRC
    assert chip.read(0x05) & 0x04
    assert bytes([chip.read(0x22), chip.read(0x21)]) == crc_a(b"\x50\x00") == bytes([0x57, 0xCD])


def test_our_firmware_driver_reads_every_uid_size_and_a_collision() -> None:
    driver: Any = load_firmware_module("mfrc522")

    class Bus:
        def __init__(self, chip: MFRC522Chip) -> None:
            self.chip = chip

        def write_readinto(self, wbuf: bytes, rbuf: bytearray) -> None:
            rbuf[:] = self.chip.transfer(bytes(wbuf))

        def write(self, wbuf: bytes) -> None:
            self.chip.transfer(bytes(wbuf))

        def value(self, v: int) -> None:
            pass

    for uid in ("DEADBEEF", "04A22B1C5D6E80", "0102030405060708090A"):
        chip = MFRC522Chip()
        chip.insert(bytes.fromhex(uid))
        bus = Bus(chip)
        reader = driver.MFRC522(bus, bus)
        assert reader.init() == 0x92
        assert reader.poll() == uid and reader.poll() == uid  # halted, then woken by WUPA
    chip = MFRC522Chip()
    chip.insert(bytes.fromhex("04A22B1C"))
    chip.insert(bytes.fromhex("04A22B1D"))
    bus = Bus(chip)
    reader = driver.MFRC522(bus, bus)
    reader.init()
    assert reader.poll() == "04A22B1D"  # the collision in the last bit resolves towards 1


# ---------------------------------------------------------------------------------------------- third party


@pytest.fixture
def pimylifeup(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, MFRC522Chip]]:
    """PyPI's mfrc522 (its MFRC522 class), with spidev and RPi.GPIO replaced by shims onto one chip."""
    chip = MFRC522Chip()

    class SpiDev:
        max_speed_hz = 0

        def open(self, bus: int, device: int) -> None:
            self.bus, self.device = bus, device

        def xfer2(self, data: list[int]) -> list[int]:
            return list(chip.transfer(bytes(data)))

        def close(self) -> None:
            pass

    gpio = SimpleNamespace(BOARD=10, BCM=11, OUT=0, IN=1, getmode=lambda: None, setmode=lambda m: None,
                           setup=lambda *a, **k: None, output=lambda *a: None, cleanup=lambda *a: None)
    rpi = ModuleType("RPi")
    rpi.GPIO = gpio  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spidev", SimpleNamespace(SpiDev=SpiDev))
    monkeypatch.setitem(sys.modules, "RPi", rpi)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", gpio)
    for name in [n for n in sys.modules if n == "mfrc522" or n.startswith("mfrc522.")]:
        monkeypatch.delitem(sys.modules, name)
    try:
        module = importlib.import_module("mfrc522.MFRC522")
    except ImportError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PyPI's mfrc522 is not installed (pip install -e '.[dev]'): {exc}")
        pytest.skip(f"PyPI's mfrc522 is not installed: {exc}")
    yield module.MFRC522(), chip
    for name in [n for n in sys.modules if n == "mfrc522" or n.startswith("mfrc522.")]:
        sys.modules.pop(name, None)


def _select(driver: Any) -> tuple[int, list[int], int]:
    status, bits = driver.MFRC522_Request(driver.PICC_REQIDL)
    assert (status, bits) == (driver.MI_OK, 16), "REQA: the card answers a 16-bit ATQA"
    status, uid = driver.MFRC522_Anticoll()
    assert status == driver.MI_OK and len(uid) == 5
    return status, uid, driver.MFRC522_SelectTag(uid)


def test_a_third_party_driver_reads_a_4_byte_uid(pimylifeup: tuple[Any, MFRC522Chip]) -> None:
    driver, chip = pimylifeup
    assert driver.MFRC522_Request(driver.PICC_REQIDL)[0] == driver.MI_ERR  # empty field
    chip.insert(bytes.fromhex("DEADBEEF"))
    _status, uid, sak = _select(driver)
    assert bytes(uid[:4]).hex().upper() == "DEADBEEF" and uid[4] == 0xDE ^ 0xAD ^ 0xBE ^ 0xEF
    assert sak == 0x08  # MIFARE Classic 1K, selected
    assert chip.counters["crc_calcs"] == 1  # it used the CRC coprocessor for SELECT


def test_a_third_party_driver_sees_the_cascade_of_a_7_byte_uid(pimylifeup: tuple[Any, MFRC522Chip]) -> None:
    driver, chip = pimylifeup
    chip.insert(bytes.fromhex("04A22B1C5D6E80"))
    _status, uid, sak = _select(driver)
    assert uid[:4] == [0x88, 0x04, 0xA2, 0x2B]  # the cascade tag and the first three UID bytes
    assert sak == 0x04  # "UID not complete": this driver stops at cascade level 1


def test_a_third_party_driver_loses_the_card_when_it_leaves(pimylifeup: tuple[Any, MFRC522Chip]) -> None:
    driver, chip = pimylifeup
    chip.insert(bytes.fromhex("DEADBEEF"))
    _select(driver)
    chip.remove()
    assert driver.MFRC522_Request(driver.PICC_REQIDL)[0] == driver.MI_ERR


def test_a_third_party_driver_authenticates_and_reads_a_classic_block(pimylifeup: tuple[Any, MFRC522Chip]) -> None:
    """PyPI's mfrc522: MFRC522_Auth (MFAuthent with key A, MFRC522 datasheet 10.3.1.9) then MFRC522_Read of a
    block and MFRC522_Write back, enciphered by the simulated chip's Crypto1 (MF1S50yyX 10.1)."""
    from firmware_sim.mfrc522_cards import ClassicCard

    driver, chip = pimylifeup
    card = ClassicCard(bytes.fromhex("DEADBEEF"), seed=5)
    card.blocks[9][:] = b"boardbank deed 7"
    chip.insert(card)
    _status, uid, sak = _select(driver)
    assert sak == 0x08
    assert driver.MFRC522_Auth(driver.PICC_AUTHENT1A, 11, [0xFF] * 6, uid) == driver.MI_OK
    assert chip.read(0x08) & 0x08  # Status2Reg.MFCrypto1On
    assert bytes(driver.MFRC522_Read(9)) == b"boardbank deed 7"
    driver.MFRC522_Write(10, list(b"written by pypi."))
    assert bytes(card.blocks[10]) == b"written by pypi."
    driver.MFRC522_StopCrypto1()
    assert not chip.read(0x08) & 0x08
    assert driver.MFRC522_Request(driver.PICC_REQIDL)[0] == driver.MI_ERR  # the ACTIVE card goes back to IDLE
    _select(driver)
    assert driver.MFRC522_Auth(driver.PICC_AUTHENT1A, 11, [0x00] * 6, uid) != driver.MI_OK  # a wrong key


def test_a_third_party_driver_reads_ntag_pages_and_the_ndef_record(pimylifeup: tuple[Any, MFRC522Chip]) -> None:
    """PyPI's mfrc522 on an NTAG213: its own CL1 anticollision and SELECT, cascade level 2 and GET_VERSION
    through its MFRC522_ToCard, then MFRC522_Read of pages 4-7 onwards: the NDEF message TLV (NFC Forum
    Type 2 Tag), decoded with ndeflib."""
    import ndef

    from firmware_sim.mfrc522_cards import NtagCard

    driver, chip = pimylifeup
    uid = bytes.fromhex("04A22B1C5D6E80")
    card = NtagCard(uid, "NTAG213")
    message = b"".join(ndef.message_encoder([ndef.TextRecord("deed 7")]))
    card.store_ndef(message)
    chip.insert(card)
    _status, _cl1, sak = _select(driver)
    assert sak == 0x04  # UID not complete
    status, cl2, _bits = driver.MFRC522_ToCard(driver.PCD_TRANSCEIVE, [0x95, 0x20])
    assert status == driver.MI_OK and bytes(cl2[:4]) == uid[3:]
    frame = [0x95, 0x70, *cl2[:5]]
    frame += driver.CalulateCRC(frame)
    status, sak2, _bits = driver.MFRC522_ToCard(driver.PCD_TRANSCEIVE, frame)
    assert status == driver.MI_OK and sak2[0] == 0x00
    get_version = [0x60, *driver.CalulateCRC([0x60])]
    status, version, _bits = driver.MFRC522_ToCard(driver.PCD_TRANSCEIVE, get_version)
    assert status == driver.MI_OK and bytes(version[:8]) == bytes([0, 4, 4, 2, 1, 0, 0x0F, 3])
    data = b"".join(bytes(driver.MFRC522_Read(page)) for page in (4, 8, 12))
    assert data[0] == 0x03 and data[1] == len(message)
    assert list(ndef.message_decoder(data[2:2 + data[1]])) == [ndef.TextRecord("deed 7")]


# A MicroPython MFRC522 driver given by path (not in the repository, not on PyPI): e.g. danjperron's or
# wendlers' mfrc522.py from their GitHub repositories. Opt-in: BB_MICROPYTHON_MFRC522=path[:path...].
MICROPYTHON_DRIVERS = [p for p in os.environ.get("BB_MICROPYTHON_MFRC522", "").split(os.pathsep) if p]


@pytest.mark.skipif(not MICROPYTHON_DRIVERS, reason="opt-in: set BB_MICROPYTHON_MFRC522 to a MicroPython mfrc522.py")
@pytest.mark.parametrize("path", MICROPYTHON_DRIVERS or ["(none)"])
def test_a_micropython_driver_given_by_path_reads_every_uid_size(path: str) -> None:
    from pathlib import Path

    from firmware_sim.micropython import Board, exec_micropython

    for uid in ("DEADBEEF", "04A22B1C5D6E80", "0102030405060708090A"):
        chip = MFRC522Chip()
        chip.insert(bytes.fromhex(uid))
        board = Board(chip, lambda _data: None)
        driver = None
        for port in ("rp2", "esp8266"):  # drivers choose their SPI set-up by os.uname(); older ones know no rp2
            modules = {"machine": board.modules()["machine"], "os": board.os(port)}
            cls = exec_micropython(Path(path), modules, name="mfrc522")["MFRC522"]
            try:
                driver = cls(sck=18, mosi=19, miso=16, rst=20, cs=17)
                break
            except RuntimeError as exc:
                assert "Unsupported platform" in str(exc)
        assert driver is not None
        status, bits = driver.request(driver.REQIDL)
        assert (status, bits) == (driver.OK, 16)
        if hasattr(driver, "SelectTagSN"):  # danjperron's: every cascade level
            status, got = driver.SelectTagSN()
            assert status == driver.OK and bytes(got).hex().upper() == uid
        else:  # wendlers': cascade level 1 only
            status, got = driver.anticoll()
            assert status == driver.OK and bytes(got[:4]) == chip.cards[0].levels[0][:4]
