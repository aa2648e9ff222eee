"""The banker's PIN: stored as a salted scrypt hash, checked as a whole entry, locked after repeated misses.

There is no PIN until the family sets one (the menu then opens without asking). A stored PIN is a record
``scrypt$N$r$p$SALT$HASH`` (hex salt and hash), made by :func:`hash_pin` with the standard library's
``hashlib.scrypt``; the plain PIN is never kept. An entry is compared as a whole (``hmac.compare_digest``
on the hashes), so nothing tells a wrong first digit from a wrong last one. :data:`MAX_FAILURES` wrong
entries in a row lock the PIN for :data:`LOCK_S` seconds of the injected clock; the failures and the lock
are handed to the caller to keep (a restart locks again for the whole minute, never less).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1  # about 16 MiB and a few tens of ms per check
SALT_BYTES = 16
MAX_FAILURES = 5  # wrong entries in a row before the lock
LOCK_S = 60.0  # seconds the PIN stays locked
PIN_DIGITS = (4, 8)  # shortest and longest PIN


def salt_from(source: Callable[[], int]) -> bytes:
    """:data:`SALT_BYTES` of salt from the banker's injected random source (two 64-bit draws)."""
    return b"".join((source() % 2**64).to_bytes(8, "big") for _ in range(SALT_BYTES // 8))


def is_pin(text: str) -> bool:
    """Whether ``text`` is a PIN: 4..8 ASCII digits."""
    return PIN_DIGITS[0] <= len(text) <= PIN_DIGITS[1] and text.isascii() and text.isdigit()


def hash_pin(pin: str, salt: bytes) -> str:
    """The stored record of ``pin`` with ``salt`` (:data:`SALT_BYTES` random bytes, injected)."""
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def _parts(record: str) -> tuple[int, int, int, bytes, bytes] | None:
    fields = record.split("$")
    if len(fields) != 6 or fields[0] != "scrypt":
        return None
    try:
        n, r, p = (int(x) for x in fields[1:4])
        salt, digest = bytes.fromhex(fields[4]), bytes.fromhex(fields[5])
    except ValueError:
        return None
    if n < 2 or n & (n - 1) or not 1 <= r <= 64 or not 1 <= p <= 16 or n * r > 2**22 or len(digest) != 32 \
            or not salt:
        return None
    return n, r, p, salt, digest


def is_record(record: object) -> bool:
    """Whether ``record`` is a stored PIN record this module can check."""
    return isinstance(record, str) and _parts(record) is not None


def matches(entry: str, record: str) -> bool:
    """Whether the whole ``entry`` is the PIN of ``record`` (False for a malformed record or entry)."""
    parts = _parts(record)
    if parts is None or not is_pin(entry):
        return False
    n, r, p, salt, digest = parts
    return hmac.compare_digest(hashlib.scrypt(entry.encode(), salt=salt, n=n, r=r, p=p, dklen=32), digest)


def make_guard(pin: str | None, record: str | None, failures: float, locked_s: float, now: float,
               source: Callable[[], int]) -> PinGuard:
    """The banker's guard from a plain ``pin`` (tests) or a stored ``record``, with the wrong entries and
    the seconds still locked kept from before a restart; ``ValueError`` for a bad PIN or record."""
    if pin is not None and not is_pin(pin):
        raise ValueError(f"the PIN must be 4..8 digits, got {pin!r}")
    if record is not None and not is_record(record):
        raise ValueError("the stored PIN is not a PIN record of engine/banker/pin.py")
    kept = hash_pin(pin, salt_from(source)) if pin is not None else record
    return PinGuard(kept, max(0, int(failures)), now + locked_s if locked_s > 0 else None)


@dataclass
class PinGuard:
    """The PIN record in force (``None``: no PIN), the wrong entries in a row, and the lock's end (clock
    seconds, ``None``: not locked)."""

    record: str | None = None
    failures: int = 0
    locked_until: float | None = None

    def locked_for(self, now: float) -> float:
        """Seconds the PIN stays locked from ``now`` (0: not locked)."""
        if self.locked_until is None or now >= self.locked_until:
            return 0.0
        return self.locked_until - now

    def check(self, entry: str, now: float) -> str:
        """``"ok"``, ``"bad"`` (a failure counted) or ``"locked"`` (nothing checked) for a whole entry."""
        if self.locked_for(now) > 0:
            return "locked"
        if self.record is None or matches(entry, self.record):
            self.failures, self.locked_until = 0, None
            return "ok"
        self.failures += 1
        if self.failures >= MAX_FAILURES:
            self.failures, self.locked_until = 0, now + LOCK_S
            return "locked"
        return "bad"

    def stored(self, now: float) -> dict[str, str | float]:
        """What the caller keeps across a restart: the record, the failures and the seconds still locked."""
        return {"pin_hash": self.record or "", "pin_failures": float(self.failures), "pin_locked_s": self.locked_for(now)}
