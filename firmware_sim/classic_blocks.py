"""The memory of a simulated MIFARE Classic 1K and its access conditions (NXP MF1S50yyX data sheet, rev. 3.2,
section 8.6 memory organisation, 8.7 access conditions), shared by the MFRC522 simulator's card, the PN532
simulator's card and the PC/SC tests' virtual card: 16 sectors of 4 blocks of 16 bytes, block 0 the
manufacturer block (read-only), each sector's block 3 its trailer: key A (bytes 0-5), the access bits
(bytes 6-8), a general-purpose byte (9), key B (10-15).

The access bits give each block of a sector three bits C1 C2 C3 (8.7.1: byte 6 = ~C2 ~C1, byte 7 = C1 ~C3,
byte 8 = C3 C2, block 3 in the high bit of each nibble). Enforced here:

* a data block (8.7.3): read with key A or B except 011/101 (key B only) and 111 (never); write with A or
  B for 000, with B for 100/110/011, never for 010/001/101/111;
* the trailer (8.7.2): key A is never read (zeros); each part is written only if the trailer's bits allow
  it with the key used (a part that may not be written keeps its bytes); a write that may change no part
  is refused; key B reads as zeros when the bits make it unreadable;
* where the trailer's bits let key B be read (000, 010, 001: the transport configuration among them), key B
  serves for no access at all (8.7.2, the note under the table): an authentication with it passes, every
  READ and WRITE after it is refused.

A trailer whose access bits are not complemented as they must be would block the sector for good on a
real card (8.7.1); such a write is refused here.
"""

from __future__ import annotations

TRANSPORT_TRAILER = bytes.fromhex("FFFFFFFFFFFF" "FF078069" "FFFFFFFFFFFF")
"""A new card's sector trailer: key A and key B FFFFFFFFFFFF, the transport access bits (trailer 001)."""

# (8.7.3) data blocks: who may read, who may write ("A", "B", "AB" or "")
_DATA_READ = {0b000: "AB", 0b010: "AB", 0b100: "AB", 0b110: "AB", 0b001: "AB", 0b011: "B", 0b101: "B", 0b111: ""}
_DATA_WRITE = {0b000: "AB", 0b010: "", 0b100: "B", 0b110: "B", 0b001: "", 0b011: "B", 0b101: "", 0b111: ""}
# (8.7.2) trailer: (write key A, read access bits, write access bits, read key B, write key B)
_TRAILER = {
    0b000: ("A", "A", "", "A", "A"), 0b010: ("", "A", "", "A", ""), 0b100: ("B", "AB", "", "", "B"),
    0b110: ("", "AB", "", "", ""), 0b001: ("A", "A", "A", "A", "A"), 0b011: ("B", "AB", "B", "", "B"),
    0b101: ("", "AB", "B", "", ""), 0b111: ("", "AB", "", "", ""),
}


def access_bits(trailer: bytes, index: int) -> int | None:
    """C1 C2 C3 of block ``index`` (0-3) of the sector, as a 3-bit number; None if bytes 6-8 are not
    consistent (each bit stored with its complement)."""
    b6, b7, b8 = trailer[6], trailer[7], trailer[8]
    if (b6 & 0x0F) != (~b7 >> 4) & 0x0F or (b6 >> 4) != (~b8) & 0x0F or (b7 & 0x0F) != (~b8 >> 4) & 0x0F:
        return None
    c1, c2, c3 = b7 >> (4 + index) & 1, b8 >> index & 1, b8 >> (4 + index) & 1
    return c1 << 2 | c2 << 1 | c3


class ClassicMemory:
    """The 64 blocks of a MIFARE Classic 1K with a 4-byte UID, new from the factory (transport trailers)."""

    def __init__(self, uid: bytes) -> None:
        self.blocks = [bytearray(16) for _ in range(64)]
        bcc = uid[0] ^ uid[1] ^ uid[2] ^ uid[3]
        self.blocks[0][:] = uid + bytes([bcc, 0x08, 0x04, 0x00]) + bytes.fromhex("6263646566676869")
        for sector in range(16):
            self.blocks[sector * 4 + 3][:] = TRANSPORT_TRAILER

    def key(self, sector: int, key_b: bool) -> bytes:
        """Key A or B of ``sector``, as the authentication uses it."""
        trailer = self.blocks[sector * 4 + 3]
        return bytes(trailer[10:16] if key_b else trailer[0:6])

    def _bits(self, block: int) -> int:
        bits = access_bits(self.blocks[block | 3], block % 4)
        return 0b111 if bits is None else bits

    def _key_b_readable(self, block: int) -> bool:
        return bool("A" in _TRAILER[self._bits(block | 3)][3])

    def read(self, block: int, key_b: bool) -> bytes | None:
        """Block ``block`` as a READ with that key answers it (keys hidden), None if the access bits forbid it."""
        who = "B" if key_b else "A"
        if key_b and self._key_b_readable(block):
            return None
        out = bytearray(self.blocks[block])
        if block % 4 != 3:
            return bytes(out) if who in _DATA_READ[self._bits(block)] else None
        _wa, _ra, _wb, read_b, _wkb = _TRAILER[self._bits(block)]
        out[0:6] = bytes(6)  # key A is never readable
        if who not in read_b:
            out[10:16] = bytes(6)
        return bytes(out)

    def write(self, block: int, data: bytes, key_b: bool) -> bool:
        """WRITE ``data`` (16 bytes) to ``block`` with that key; False (nothing written) if forbidden."""
        who = "B" if key_b else "A"
        if block == 0 or (key_b and self._key_b_readable(block)):
            return False  # the manufacturer block; a readable key B serves for nothing
        if block % 4 != 3:
            if who not in _DATA_WRITE[self._bits(block)]:
                return False
            self.blocks[block][:] = data
            return True
        write_a, _ra, write_bits, _rb, write_b = _TRAILER[self._bits(block)]
        new = bytearray(self.blocks[block])
        if who in write_a:
            new[0:6] = data[0:6]
        if who in write_bits:
            new[6:10] = data[6:10]
        if who in write_b:
            new[10:16] = data[10:16]
        if not (who in write_a or who in write_bits or who in write_b) or access_bits(bytes(new), 3) is None:
            return False
        self.blocks[block][:] = new
        return True
