"""The one strict parser of numbers typed at the unit: ASCII digits only, a bounded number of them.

``str.isdigit()`` accepts ``²``, ``①`` and ``⁴`` (which ``int()`` then refuses), and ``int()`` accepts
Arabic-Indic digits, underscores, signs and spaces, and raises on more than 4,300 digits. Every number
that comes from an input (a bid raise, an event answer, a PIN digit, a seat, a script's argument, a wait)
goes through here instead: a text that is not a plain, short, ASCII number is simply not a number
(``None``), and the caller refuses it with its own one-line message.
"""

from __future__ import annotations

import math
import re

MAX_DIGITS = 9
"""Digits of a whole number typed at the unit (bids, deed and card numbers, seats): up to 999,999,999."""

MAX_WAIT_S = 86_400.0
"""The longest ``wait`` of a script or a setting in seconds (one day): longer is taken as a typo."""

_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})?|\.[0-9]{1,9}")


def is_digits(text: object, max_digits: int = MAX_DIGITS) -> bool:
    """Whether ``text`` is 1..``max_digits`` ASCII digits and nothing else (no sign, space or ``_``)."""
    return isinstance(text, str) and 1 <= len(text) <= max_digits and _DIGITS.fullmatch(text) is not None


def parse_count(text: object, max_digits: int = MAX_DIGITS) -> int | None:
    """``text`` as a whole number >= 0 if it is plain ASCII digits (at most ``max_digits``), else None."""
    return int(str(text)) if is_digits(text, max_digits) else None


def parse_int(text: object, max_digits: int = MAX_DIGITS * 2) -> int | None:
    """A whole number with an optional leading ``-`` (ASCII digits, at most ``max_digits``), else None."""
    if not isinstance(text, str):
        return None
    body = text[1:] if text.startswith("-") else text
    value = parse_count(body, max_digits)
    return None if value is None else (-value if text.startswith("-") else value)


def parse_seconds(text: object, limit: float = MAX_WAIT_S) -> float | None:
    """Seconds as plain ASCII decimals (``10``, ``0.5``), finite and at most ``limit``, else None.

    Refuses ``nan``, ``inf``, exponents (``1e308``), signs, underscores and non-ASCII digits."""
    if not isinstance(text, str) or _DECIMAL.fullmatch(text) is None:
        return None
    value = float(text)
    return value if math.isfinite(value) and value <= limit else None
