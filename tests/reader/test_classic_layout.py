"""reader/classic.py: the NFC Forum MIFARE Classic layout (NXP AN1304, AN10787) on the simulated Classic 1K's
memory (firmware_sim/classic_blocks.py, access bits enforced): the MAD's CRC-8, and any message that fits
written then read back, on a new card and on a card already formatted."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_sim.classic_blocks import ClassicMemory
from reader import classic


def io(memory: ClassicMemory) -> tuple[classic.Auth, classic.Read, classic.Write]:
    state: dict[str, tuple[int, bool] | None] = {"auth": None}

    def auth(block: int, key_b: bool, key: bytes) -> bool:
        ok = memory.key(block // 4, key_b) == key
        state["auth"] = (block // 4, key_b) if ok else None
        return ok

    def read(block: int) -> bytes:
        now = state["auth"]
        data = memory.read(block, now[1]) if now is not None and now[0] == block // 4 else None
        if data is None:
            raise classic.ClassicError(f"read {block}")
        return data

    def write(block: int, data: bytes) -> None:
        now = state["auth"]
        if now is None or now[0] != block // 4 or not memory.write(block, data, now[1]):
            raise classic.ClassicError(f"write {block}")

    return auth, read, write


def test_mad_crc_of_a_card_whose_fifteen_sectors_are_ndef() -> None:
    """AN10787 3.7 (CRC-8, polynomial 1Dh, preset C7h): the MAD of a card formatted for NDEF in all 15
    sectors, as phones write it, begins 14 01 03 E1."""
    block1, block2 = classic.mad_blocks(range(1, 16))
    assert block1[:4] == bytes.fromhex("140103E1") and block2 == bytes.fromhex("03E1") * 8
    assert classic.ndef_sectors(block1, block2) == list(range(1, 16))
    assert classic.ndef_sectors(b"\x15" + block1[1:], block2) == []  # a wrong CRC: no MAD


@settings(max_examples=40, deadline=None)
@given(first=st.binary(max_size=700), second=st.binary(max_size=40))
def test_any_message_that_fits_is_read_back(first: bytes, second: bytes) -> None:
    memory = ClassicMemory(bytes.fromhex("A1B2C3D4"))
    assert classic.read_ndef(*io(memory)[:2]) is None  # a new card
    classic.write_ndef(*io(memory), first)
    assert classic.read_ndef(*io(memory)[:2]) == first
    def sectors(message: bytes) -> int:  # 03, length (1 or 3 bytes), the message, FE; 48 bytes a sector
        return -(-(len(message) + (3 if len(message) < 255 else 5)) // 48)

    if sectors(second) <= sectors(first):
        classic.write_ndef(*io(memory), second, replace=True)  # formatted: rewritten with the NDEF key
        assert classic.read_ndef(*io(memory)[:2]) == second
