"""Crypto1, the stream cipher of MIFARE Classic, as published (Garcia, de Koning Gans, Muijrers, van Rossum,
Verdult, Wichers Schreur, Jacobs: "Dismantling MIFARE Classic", ESORICS 2008; Nohl, Evans, Plötz, Starbug:
"Reverse-Engineering a Cryptographic RFID Tag", USENIX Security 2008), in the odd/even register layout of
the crapto1 reference code.

A 48-bit LFSR (the key is its initial state) whose 20 odd-numbered taps feed a two-layer filter giving one
keystream bit per clock. The authentication feeds ``uid ⊕ nT`` and the reader nonce into the register; the
16-bit PRNG of the card gives the successors of ``nT`` the two sides prove they know. Used by the MFRC522
simulator on both sides of the air: its MFAuthent unit and the MIFARE Classic card.
"""

from __future__ import annotations

LF_POLY_ODD = 0x29CE5C
LF_POLY_EVEN = 0x870804
MASK24 = 0xFFFFFF


def _bit(x: int, n: int) -> int:
    return (x >> n) & 1


def _parity(x: int) -> int:
    return bin(x).count("1") & 1


def _filter(x: int) -> int:
    """The filter function on the odd half of the register (20 taps, two layers)."""
    f = (0xF22C0 >> (x & 0xF)) & 16
    f |= (0x6C9C0 >> ((x >> 4) & 0xF)) & 8
    f |= (0x3C8B0 >> ((x >> 8) & 0xF)) & 4
    f |= (0x1E458 >> ((x >> 12) & 0xF)) & 2
    f |= (0x0D938 >> ((x >> 16) & 0xF)) & 1
    return _bit(0xEC57E80A, f)


def parity_bits(data: bytes) -> list[int]:
    """The odd parity bit of each byte (ISO/IEC 14443-3 framing)."""
    return [1 - _parity(b) for b in data]


def prng_successor(x: int, n: int) -> int:
    """The card PRNG's ``n``-th successor of the 32-bit nonce ``x`` (bytes as sent, big-endian)."""
    x = int.from_bytes(x.to_bytes(4, "big"), "little")
    for _ in range(n):
        x = (x >> 1) | (((x >> 16) ^ (x >> 18) ^ (x >> 19) ^ (x >> 21)) & 1) << 31
    return int.from_bytes(x.to_bytes(4, "little"), "big")


class Crypto1:
    """One Crypto1 state, initialised from a 48-bit key (6 bytes as stored in a sector trailer)."""

    def __init__(self, key: bytes) -> None:
        if len(key) != 6:
            raise ValueError(f"a MIFARE key has 6 bytes, got {len(key)}")
        k = int.from_bytes(key, "big")
        self.odd = self.even = 0
        for i in range(47, 0, -2):
            self.odd = (self.odd << 1) | _bit(k, (i - 1) ^ 7)
            self.even = (self.even << 1) | _bit(k, i ^ 7)

    def bit(self, value: int = 0, encrypted: bool = False) -> int:
        """Clock once, feeding ``value`` (deciphered first if ``encrypted``); the keystream bit."""
        out = _filter(self.odd)
        feed = (out & int(encrypted)) ^ (value & 1)
        feed ^= LF_POLY_ODD & self.odd
        feed ^= LF_POLY_EVEN & self.even
        self.even = ((self.even << 1) | _parity(feed)) & MASK24
        self.odd, self.even = self.even, self.odd
        return out

    def word(self, value: int, encrypted: bool = False) -> int:
        """32 clocks feeding ``value`` (as sent: byte 0 first, each byte's bit 0 first); the keystream word."""
        out = 0
        for i in range(32):
            out |= self.bit(_bit(value, i ^ 24), encrypted) << (i ^ 24)
        return out

    def crypt(self, data: bytes, last_bits: int = 0) -> bytes:
        """``data`` XOR the keystream (nothing fed in): enciphers and deciphers alike. ``last_bits``: the
        valid bits of the last byte (0 = all 8), for the 4-bit ACK/NAK."""
        out = bytearray()
        for i, b in enumerate(data):
            n = last_bits if (i == len(data) - 1 and last_bits) else 8
            ks = 0
            for j in range(n):
                ks |= self.bit() << j
            out.append(b ^ ks)
        return bytes(out)
