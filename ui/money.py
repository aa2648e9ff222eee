"""Money as the screen shows it, per UI language, with Babel's number formatting.

Amounts are ``int`` in the edition's money unit: M for ``currency="M"`` (shown ``M1,500`` in English,
``M1 500`` in Russian), thousands of rubles for ``currency="RUB_K"`` (shown ``1 500 тыс. ₽`` in
Russian). Only the digit grouping comes from Babel (CLDR's data, copied into :data:`GROUPING` for the UI's
languages); the placement of the unit comes from the catalog keys ``money.M`` and ``money.RUB_K``, so every
language can say "thousand" its own way.
"""

from __future__ import annotations

from functools import cache

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
    symbol, primary, secondary = _grouping(lang)
    digits = str(amount)
    if len(digits) <= primary:
        return digits
    groups = [digits[-primary:]]
    digits = digits[:-primary]
    while len(digits) > secondary:
        groups.append(digits[-secondary:])
        digits = digits[:-secondary]
    groups.append(digits)
    return symbol.join(reversed(groups))


GROUPING: dict[str, tuple[str, int, int]] = {
    "en": (",", 3, 3), "ru": ("\xa0", 3, 3), "ro": (".", 3, 3), "ja": (",", 3, 3)}
"""Each UI language's group separator and primary and secondary group sizes (digits): Babel's CLDR data
(:func:`babel_grouping`; a test checks that they are the same). Reading them from Babel at run time loaded
Babel's number and date modules, zoneinfo and a locale's whole data into the kiosk (~1 MiB,
bench/bench_memory.py) for these twelve values."""


def _grouping(lang: str) -> tuple[str, int, int]:
    """The group separator and the group sizes of ``lang``: :data:`GROUPING`, else Babel's."""
    return GROUPING.get(lang) or babel_grouping(lang)


@cache
def babel_grouping(lang: str) -> tuple[str, int, int]:
    """The group separator and the primary and secondary group sizes (digits) of ``lang``, from Babel.

    Only these three values are kept per language: Babel's whole locale data (~0.6-0.8 MiB each, plus
    'root') and its global table are let go once they are read (the kiosk's memory budget)."""
    import babel.core

    locale = babel.core.Locale.parse(lang)
    pattern = locale.decimal_formats[None]
    symbol = str(locale.number_symbols["latn"]["group"])
    primary, secondary = (int(size) for size in pattern.grouping)
    del locale, pattern
    _forget_babel_data()
    return symbol, primary, secondary


def _forget_babel_data() -> None:
    """Drop Babel's cached locale data and global table (Babel reads them again when it needs them)."""
    import babel.core
    import babel.localedata

    clear_caches = getattr(babel.localedata, "clear_caches", None)  # Babel >= 2.17
    if callable(clear_caches):
        clear_caches()
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
