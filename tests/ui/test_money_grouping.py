"""ui/money.py keeps only each language's grouping (symbol, group sizes) and lets go of Babel's locale data;
its digits must stay those of Babel's ``format_decimal``."""

from __future__ import annotations

import babel.localedata
from babel.numbers import format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from ui.i18n import LANGUAGES
from ui.money import MINUS, format_amount, group_digits


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(LANGUAGES))
def test_grouping_is_babels(amount: int, lang: str) -> None:
    """Every language groups every amount as Babel does, and signs a negative amount with the minus."""
    expected = format_decimal(amount, locale=lang, group_separator=True)
    assert group_digits(amount, lang) == expected
    assert format_amount(-amount, lang) == (f"{MINUS}{expected}" if amount else expected)


def test_babels_locale_data_is_let_go() -> None:
    """Once a language's grouping is read, Babel's locale data caches are empty again."""
    from ui import money

    money._grouping.cache_clear()
    for lang in LANGUAGES:
        group_digits(1500, lang)
    assert not babel.localedata._cache and not babel.localedata._dict_cache
