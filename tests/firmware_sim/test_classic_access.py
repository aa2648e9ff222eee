"""The simulated MIFARE Classic 1K enforces its access bits (NXP MF1S50yyX data sheet rev. 3.2, 8.7.1 the
bits and their complements, 8.7.2 the trailer, 8.7.3 the data blocks): a block whose access conditions
forbid a write with key A refuses it, through the MFRC522 simulator's card as through its memory."""

from __future__ import annotations

from firmware_sim.classic_blocks import TRANSPORT_TRAILER, ClassicMemory, access_bits
from firmware_sim.mfrc522_cards import ClassicCard

KEY = bytes.fromhex("FFFFFFFFFFFF")
# data blocks 100 (read A|B, write B only), trailer 011: the MAD sector's "78 77 88"
WRITE_B_ONLY = KEY + bytes.fromhex("787788C1") + KEY
READ_ONLY = KEY + bytes.fromhex("078F0F43") + KEY  # data 010, trailer 110


def test_access_bits_decoded() -> None:
    assert [access_bits(TRANSPORT_TRAILER, i) for i in range(4)] == [0, 0, 0, 0b001]
    assert [access_bits(WRITE_B_ONLY, i) for i in range(4)] == [0b100, 0b100, 0b100, 0b011]
    assert access_bits(KEY + bytes.fromhex("FF0781") + bytes(7), 3) is None  # bytes 6-8 not complemented


def test_a_data_block_written_with_b_only_refuses_key_a() -> None:
    memory = ClassicMemory(bytes.fromhex("A1B2C3D4"))
    assert memory.write(7, WRITE_B_ONLY, key_b=False)  # transport trailer 001: key A writes it all
    assert not memory.write(5, b"\x11" * 16, key_b=False)
    assert memory.blocks[5] == bytes(16)
    assert memory.write(5, b"\x22" * 16, key_b=True)
    assert memory.read(5, key_b=False) == b"\x22" * 16  # reading stays open to key A
    assert not memory.write(7, TRANSPORT_TRAILER, key_b=False)  # trailer 011: only key B changes it


def test_a_read_only_sector_refuses_every_write_and_a_bad_trailer_is_refused() -> None:
    memory = ClassicMemory(bytes.fromhex("A1B2C3D4"))
    assert not memory.write(7, KEY + bytes.fromhex("FF0781") + bytes(7), key_b=False)
    assert memory.write(7, READ_ONLY, key_b=False)
    assert not memory.write(4, bytes(16), key_b=False) and not memory.write(4, bytes(16), key_b=True)
    assert not memory.write(7, TRANSPORT_TRAILER, key_b=True)
    assert memory.read(7, key_b=False) == bytes(6) + bytes.fromhex("078F0F43") + bytes(6)  # keys hidden
    assert not memory.write(0, bytes(16), key_b=False)  # the manufacturer block


def test_the_mfrc522_card_naks_a_write_its_access_bits_forbid() -> None:
    card = ClassicCard(bytes.fromhex("A1B2C3D4"))
    card.blocks[7][:] = WRITE_B_ONLY
    card.sector, card.key_b, card.crypto = 1, False, None
    card.state = "ACTIVE"
    from firmware_sim.pn532_card import crc_a

    # the cipher is off in this direct call (crypto None), the card's own checks are what is tested
    card.crypto = type("Plain", (), {"crypt": staticmethod(lambda data, _bits: data)})()  # type: ignore[assignment]
    first = bytes([0xA0, 5])
    assert card.command(first + crc_a(first)) == bytes([0x0A])  # the first step is ACKed
    assert card.command(b"\x33" * 16 + crc_a(b"\x33" * 16)) == bytes([0x00])  # the data: NAK
    assert card.blocks[5] == bytes(16)


def test_a_readable_key_b_serves_for_nothing() -> None:
    """8.7.2: where the trailer lets key B be read (the transport bits FF 07 80 among them), key B cannot
    serve for authentication: no READ or WRITE with it."""
    memory = ClassicMemory(bytes.fromhex("A1B2C3D4"))
    assert memory.read(4, key_b=True) is None and not memory.write(4, b"\x01" * 16, key_b=True)
    assert memory.write(4, b"\x01" * 16, key_b=False)
    assert not memory.write(7, WRITE_B_ONLY, key_b=True)
