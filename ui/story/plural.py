"""Counted words through the catalogs: gettext plural entries (``msgid_plural``) chosen by the language's
CLDR plural rule as Babel states it for gettext (Russian: 1 дом, 2 дома, 5 домов, 21 дом; Romanian: 1 casă,
2 case, 20 de case; Japanese: one form).

The forms are read from the ``.mo`` that :mod:`ui.i18n` compiles from the ``.po`` (its ``Plural-Forms``
header is Babel's rule for the language), with the standard library's :class:`gettext.GNUTranslations`;
when that file cannot be kept, the ``.po`` is read with Babel instead.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable
from functools import cache

from ui.i18n import DOMAIN, catalog_path, compiled_path, load_catalog


@cache
def _plural(lang: str) -> Callable[[str, int], str]:
    """``(key, n) -> form`` for ``lang`` (the key itself when the catalog has no such entry)."""
    load_catalog(lang)  # compiles the .mo when it is not in the cache yet
    source = catalog_path(lang).read_bytes()
    try:
        translations = gettext.GNUTranslations(io.BytesIO(compiled_path(lang, source).read_bytes()))
        return lambda key, n: translations.ngettext(key, key, n)
    except (OSError, ValueError):
        pass
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(source), locale=lang, domain=DOMAIN)
    rule = gettext.c2py(catalog.plural_expr)

    def form(key: str, n: int) -> str:
        message = catalog.get(key)
        if message is None or not isinstance(message.string, tuple):
            return key
        strings = message.string
        return strings[min(rule(n), len(strings) - 1)] or key

    return form


def ngettext(key: str, count: int, lang: str) -> str:
    """The form of plural entry ``key`` for ``count`` in ``lang``, with ``{count}`` filled in (digits)."""
    return _plural(lang)(key, count).replace("{count}", str(count))
