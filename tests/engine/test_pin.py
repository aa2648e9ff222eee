"""The banker's PIN (engine/banker/pin.py): a salted scrypt hash, whole entries only, a lock after five."""

from __future__ import annotations

import hashlib

import pytest

from engine.banker.pin import (
    LOCK_S,
    MAX_FAILURES,
    SALT_BYTES,
    PinGuard,
    hash_pin,
    is_record,
    matches,
    new_salt,
)


def test_the_record_is_a_salted_scrypt_hash() -> None:
    a, b = hash_pin("2580", b"A" * 16), hash_pin("2580", b"B" * 16)
    assert a != b and is_record(a) and "2580" not in a
    kind, n, r, p, salt, digest = a.split("$")
    assert (kind, n, r, p, salt) == ("scrypt", "16384", "8", "1", (b"A" * 16).hex())
    assert bytes.fromhex(digest) == hashlib.scrypt(b"2580", salt=b"A" * 16, n=16384, r=8, p=1, dklen=32)
    assert matches("2580", a) and not matches("2581", a) and not matches("258", a) and not matches("２５８０", a)


@pytest.mark.parametrize("record", ["", "1234", "scrypt$3$8$1$00$" + "00" * 32, "scrypt$16384$8$1$zz$00",
                                    "scrypt$16384$8$1$00$00", "md5$1$1$1$00$" + "00" * 32])
def test_a_malformed_record_matches_nothing(record: str) -> None:
    assert not is_record(record) and not matches("1234", record)


def test_entries_are_checked_whole_so_no_digit_tells_anything() -> None:
    """A wrong first digit and a wrong last digit are the same answer, and each is one failure."""
    guard = PinGuard(hash_pin("2580", b"s" * 16))
    assert guard.check("9580", 0.0) == guard.check("2589", 0.0) == guard.check("2", 0.0) == "bad"
    assert guard.failures == 3
    assert guard.check("2580", 0.0) == "ok" and guard.failures == 0


def test_five_wrong_entries_lock_for_a_minute() -> None:
    guard = PinGuard(hash_pin("2580", b"s" * 16))
    results = [guard.check("0000", 10.0) for _ in range(MAX_FAILURES)]
    assert results == ["bad"] * (MAX_FAILURES - 1) + ["locked"]
    assert guard.check("2580", 10.0 + LOCK_S - 1) == "locked" and guard.locked_for(10.0 + LOCK_S - 1) == 1.0
    assert guard.stored(20.0)["pin_locked_s"] == LOCK_S - 10
    assert guard.check("2580", 10.0 + LOCK_S) == "ok"


def test_no_pin_opens_and_the_salt_comes_from_the_injected_source() -> None:
    assert PinGuard().check("", 0.0) == "ok"
    assert new_salt(lambda n: bytes(range(n))) == bytes(range(16))


def test_the_salt_is_sixteen_random_bytes_of_the_system() -> None:
    """Issue: the salt had 8 zero bytes (two 31-bit draws of the seed source). Now secrets.token_bytes."""
    salts = [new_salt() for _ in range(64)]
    assert all(len(s) == SALT_BYTES for s in salts) and len(set(salts)) == 64
    zero_bytes = sum(s.count(0) for s in salts)
    assert zero_bytes < 64 * 16 // 8  # about 4 of 1024 expected; the old salts had 512
    for salt in salts:
        assert salt[:4] != bytes(4) and salt[8:12] != bytes(4)
