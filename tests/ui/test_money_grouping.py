"""ui/money.py keeps only each language's grouping (symbol, group sizes): a table of Babel's values for the UI's
languages, read from Babel (letting go of its locale data) for any other; its digits must stay those of
Babel's ``format_decimal``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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

    money.babel_grouping.cache_clear()
    for lang in LANGUAGES:
        money.babel_grouping(lang)
    assert not babel.localedata._cache and not babel.localedata._dict_cache


def test_the_grouping_table_is_babels_for_every_language_of_the_ui() -> None:
    from ui import money

    assert set(money.GROUPING) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert money.GROUPING[lang] == money.babel_grouping(lang), lang


def test_amounts_are_grouped_without_loading_babel() -> None:
    """The table's languages need none of Babel's modules (its number and date modules, zoneinfo: ~1 MiB in
    the kiosk, bench/bench_memory.py)."""
    script = ("import sys; from ui.money import format_amount; "
              "print([format_amount(1234567, lang) for lang in ('en', 'ru', 'ro', 'ja')], "
              "sorted(m for m in sys.modules if m.split('.')[0] in ('babel', 'zoneinfo')))")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", script], cwd=root, env=dict(os.environ, PYTHONPATH=str(root)),
                         capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    assert out == "['1,234,567', '1\\xa0234\\xa0567', '1.234.567', '1,234,567'] []", out
