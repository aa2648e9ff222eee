"""Money as the screen shows it, per UI language, with Babel's number formatting.

Amounts are ``int`` in the edition's money unit: M for ``currency="M"`` (shown ``M1,500`` in English,
``M1 500`` in Russian), thousands of rubles for ``currency="RUB_K"`` (shown ``1 500 тыс. ₽`` in
Russian). Only the digit grouping comes from Babel; the placement of the unit comes from the catalog
keys ``money.M`` and ``money.RUB_K``, so every language can say "thousand" its own way.
"""

from __future__ import annotations

from functools import cache

import babel.core
from babel.numbers import format_decimal

from ui.i18n import LANGUAGES, Translator

CURRENCIES: tuple[str, ...] = ("M", "RUB_K")
"""The money units the editions use (``Edition.currency``)."""

MINUS = "\u2212"  # the typographic minus sign; the default fonts and IPA Gothic have it


class MoneyError(ValueError):
    """An amount that is not an int, or an unknown currency or language."""


def group_digits(amount: int, lang: str) -> str:
    """``amount`` (a non-negative int) with the digit grouping of ``lang``: 1,500 / 1 500 / 1.500."""
    if lang not in LANGUAGES:
        raise MoneyError(f"expected a language among {LANGUAGES}, got {lang!r}")
    _load_locale(lang)
    return format_decimal(amount, locale=lang, group_separator=True)


@cache
def _load_locale(lang: str) -> None:
    """Have Babel load the number data of ``lang`` (once per language), then let go of Babel's global table.

    Babel reads its whole ``global.dat`` (about 2 MiB once unpickled: time zones, currencies, territories)
    to find a locale's parent while it loads the locale; formatting a number does not look at it again.
    Babel reads the table again by itself when it needs it (another language's first number), so it is
    dropped after each load (the kiosk's memory budget, bench/bench_memory.py)."""
    format_decimal(0, locale=lang)
    if hasattr(babel.core, "_global_data"):
        babel.core._global_data = None


def format_amount(amount: int, lang: str) -> str:
    """``amount`` (an int in money units) as digits alone, grouped for ``lang``, e.g. ``1,500`` or ``−100``:
    for a table that names the unit once."""
    digits = group_digits(abs(amount), lang)
    return f"{MINUS}{digits}" if amount < 0 else digits


def format_money(amount: int, currency: str, lang: str, translator: Translator | None = None) -> str:
    """``amount`` money units of ``currency`` as shown in ``lang``, e.g. ``M1,500`` or ``−M100``.

    ``amount`` is an int in the edition's unit (M, or thousands of rubles for RUB_K).
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise MoneyError(f"expected an int amount in money units, got {amount!r}")
    if currency not in CURRENCIES:
        raise MoneyError(f"expected a currency among {CURRENCIES}, got {currency!r}")
    tr = translator or _shared_translator()
    digits = group_digits(abs(amount), lang)
    text = tr.text(f"money.{currency}", lang, amount=digits)
    return f"{MINUS}{text}" if amount < 0 else text


_TRANSLATOR: list[Translator] = []


def _shared_translator() -> Translator:
    if not _TRANSLATOR:
        _TRANSLATOR.append(Translator("en"))
    return _TRANSLATOR[0]
