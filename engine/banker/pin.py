"""The banker's PIN: stored as a salted scrypt hash, checked as a whole entry, locked after repeated misses.

There is no PIN until the family sets one (the menu then opens without asking). A stored PIN is a record
``scrypt$N$r$p$SALT$HASH`` (hex salt and hash), made by :func:`hash_pin` with the standard library's
``hashlib.scrypt`` and a salt of :data:`SALT_BYTES` from the operating system's randomness
(``secrets.token_bytes``, injectable for tests); the plain PIN is never kept, not even while the settings
page stages it (the page stages its record). An entry is compared as a whole (``hmac.compare_digest`` on
the hashes), so nothing tells a wrong first digit from a wrong last one. :data:`MAX_FAILURES` wrong entries
in a row lock the PIN for :data:`LOCK_S` seconds of the guard's own clock: the unit gives it the monotonic
clock, which no input moves (a ``wait`` line of ``headless`` moves only the banker's clock). The failures
and the seconds still locked are handed to the caller to keep (a restart locks again for them, never less).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1  # about 16 MiB and a few tens of ms per check
SALT_BYTES = 16
MAX_FAILURES = 5  # wrong entries in a row before the lock
LOCK_S = 60.0  # seconds the PIN stays locked
PIN_DIGITS = (4, 8)  # shortest and longest PIN


SaltSource = Callable[[int], bytes]
"""``n`` -> ``n`` random bytes (``secrets.token_bytes`` unless a test injects another)."""


def new_salt(source: SaltSource = secrets.token_bytes) -> bytes:
    """:data:`SALT_BYTES` of salt from ``source``; ``ValueError`` if it gives fewer."""
    salt = source(SALT_BYTES)
    if len(salt) != SALT_BYTES:
        raise ValueError(f"a salt source gave {len(salt)} bytes, expected {SALT_BYTES}")
    return salt


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


def make_guard(pin: str | None, record: str | None, failures: float, locked_s: float, clock: Callable[[], float],
               salt_source: SaltSource | None = None) -> PinGuard:
    """The banker's guard from a plain ``pin`` (tests) or a stored ``record``, with the wrong entries and
    the seconds still locked kept from before a restart, counted on ``clock`` (seconds, monotonic);
    ``ValueError`` for a bad PIN or record."""
    if pin is not None and not is_pin(pin):
        raise ValueError(f"the PIN must be 4..8 digits, got {pin!r}")
    if record is not None and not is_record(record):
        raise ValueError("the stored PIN is not a PIN record of engine/banker/pin.py")
    salt_source = salt_source or secrets.token_bytes
    kept = hash_pin(pin, new_salt(salt_source)) if pin is not None else record
    locked = min(float(locked_s), LOCK_S) if locked_s > 0 else 0.0
    return PinGuard(kept, max(0, int(failures)), clock() + locked if locked > 0 else None, clock, salt_source)


@dataclass
class PinGuard:
    """The PIN record in force (``None``: no PIN), the wrong entries in a row, and the lock's end (clock
    seconds, ``None``: not locked)."""

    record: str | None = None
    failures: int = 0
    locked_until: float | None = None
    clock: Callable[[], float] = field(default=lambda: 0.0, repr=False)  # the lock's clock (seconds)
    salt_source: SaltSource = field(default=secrets.token_bytes, repr=False)

    def now(self) -> float:
        """The lock's clock now (monotonic seconds: no input moves it)."""
        return self.clock()

    def new_record(self, pin: str) -> str:
        """The record of a new ``pin`` (what the settings page stages instead of the PIN)."""
        return hash_pin(pin, new_salt(self.salt_source))

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
