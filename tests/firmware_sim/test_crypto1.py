"""firmware_sim/crypto1.py against a recorded MIFARE Classic three-pass authentication (key 974C262B9278,
UID 65535D33, nT BE2B7B5D, nR 0B4271BA, {aT} 36081500: the trace used by published Crypto1 test suites)
and the card PRNG's successor of 2C198BE4."""

from __future__ import annotations

from firmware_sim.crypto1 import Crypto1, prng_successor


def test_prng_successor() -> None:
    assert prng_successor(0x2C198BE4, 64) == 0xCC14C013


def test_three_pass_authentication_keystream() -> None:
    uid, nt, nr, at_enc = 0x65535D33, 0xBE2B7B5D, 0x0B4271BA, 0x36081500
    reader = Crypto1(bytes.fromhex("974C262B9278"))
    assert reader.word(uid ^ nt) == 0xAC93C1A4  # ks0
    ks1 = reader.word(nr)
    assert ks1 == 0xBAA3C92B and nr ^ ks1 == 0xB1E1B891  # {nR}
    ar = prng_successor(nt, 64)
    ks2 = reader.word(0)
    assert ar == 0xF0928568 and ks2 == 0xDC652720 and ar ^ ks2 == 0x2CF7A248  # {aR}
    ks3 = reader.word(0)
    assert ks3 == 0xC6F4A093 and at_enc ^ ks3 == prng_successor(nt, 96)  # the card's aT checks out


def test_the_card_side_deciphers_what_the_reader_enciphers() -> None:
    """The card feeds {nR} enciphered (crypto1_word(s, {nR}, 1)) and ends in the reader's state."""
    key, uid, nt, nr = bytes.fromhex("A0A1A2A3A4A5"), 0xDEADBEEF, 0x01020304, 0x0BADF00D
    reader, card = Crypto1(key), Crypto1(key)
    reader.word(uid ^ nt)
    card.word(uid ^ nt)
    enc_nr = nr ^ reader.word(nr)
    card.word(enc_nr, encrypted=True)
    assert (reader.odd, reader.even) == (card.odd, card.even)
    data = bytes(range(18))
    assert card.crypt(reader.crypt(data)) == data
