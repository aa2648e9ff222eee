"""Translations: gettext catalogs (``ui/locale/<lang>/LC_MESSAGES/boardbank.po``), the single source.

A catalog is read with Babel once per content of its ``.po`` and compiled into a ``.mo`` in the user's cache
folder named by the ``.po``'s SHA-256 (``$BOARDBANK_CACHE`` or platformdirs' cache dir); later runs read that
``.mo`` with the standard library's ``gettext``, without importing ``babel.messages`` (~30 modules with ``email``,
``babel.dates``; the kiosk's memory budget). A changed ``.po`` has another hash, so a stale ``.mo`` is never read.

Message ids are keys such as ``prompt.tap_buyer``; the English catalog holds the English text. A message
may hold ``{name}`` placeholders filled from keyword parameters. Nothing here imports Kivy, so the
screens' text logic is testable without a window; the app binds its ``lang`` property to
:meth:`Translator.set_language`.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import logging
import os
import struct
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

from ui.paths import cache_dir

LANGUAGES: tuple[str, ...] = ("en", "ru", "ro", "ja")
"""The user-interface languages, in the order the language picker shows them."""

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "boardbank"

log = logging.getLogger(__name__)


class I18nError(LookupError):
    """A language or catalog that does not exist, or a catalog that cannot be read."""


def catalog_path(lang: str) -> Path:
    """The ``.po`` file of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def load_catalog(lang: str) -> Mapping[str, str]:
    """The catalog of ``lang`` as a key -> text mapping (untranslated entries are left out), read once."""
    return _read_catalog(lang)


@cache
def native_name(lang: str) -> str:
    """The name of ``lang`` in that language (its catalog's ``lang.<lang>``: the language pickers' buttons).

    The catalog is read for it and not kept unless the UI speaks ``lang``: the pickers no longer hold all
    four catalogs (~0.15 MiB each, bench/bench_memory.py)."""
    return _read_catalog(lang).get(f"lang.{lang}", lang)


def _read_catalog(lang: str) -> Mapping[str, str]:
    """Read the catalog of ``lang`` into a key -> text mapping (untranslated entries are left out)."""
    if lang not in LANGUAGES:
        raise I18nError(f"expected a language among {LANGUAGES}, got {lang!r}")
    path = catalog_path(lang)
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise I18nError(f"cannot read the {lang} catalog {path}: {exc}") from exc
    compiled = compiled_path(lang, source)
    try:
        return _read_mo(compiled.read_bytes())
    except (OSError, ValueError):
        pass
    log.info("compiling the %s catalog %s into %s (read with Babel)", lang, path, compiled)
    return _compile(lang, path, source, compiled)


def compiled_path(lang: str, source: bytes) -> Path:
    """Where the ``.mo`` compiled from ``source`` (the bytes of the ``.po`` of ``lang``) is kept."""
    digest = hashlib.sha256(source).hexdigest()[:20]
    return cache_dir() / "locale" / f"{DOMAIN}-{lang}-{digest}.mo"


def _compile(lang: str, path: Path, source: bytes, compiled: Path) -> Mapping[str, str]:
    """Parse ``source`` with Babel, write its ``.mo`` to ``compiled`` (atomically; best effort), return it."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    try:
        catalog = read_po(io.BytesIO(source), locale=lang, domain=DOMAIN)
    except ValueError as exc:
        raise I18nError(f"cannot read the {lang} catalog {path}: {exc}") from exc
    messages: dict[str, str] = {}
    for message in catalog:
        if message.id and isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            messages[message.id] = message.string
    try:
        compiled.parent.mkdir(parents=True, exist_ok=True)
        tmp = compiled.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=True)
        tmp.replace(compiled)
    except OSError as exc:
        log.warning("cannot keep the compiled %s catalog in %s: %s", lang, compiled, exc)
    return messages


def _read_mo(data: bytes) -> dict[str, str]:
    """The messages of a GNU ``.mo`` file (as Babel writes it), read by the standard library's
    :class:`gettext.GNUTranslations`; the header entry and plural forms left out.

    Raises ValueError for anything that is not such a file."""
    try:
        catalog = gettext.GNUTranslations(io.BytesIO(data))._catalog  # type: ignore[attr-defined]  # its parsed messages, key -> text
    except (OSError, struct.error, UnicodeDecodeError, IndexError, ValueError) as exc:
        raise ValueError(f"not a readable .mo file: {exc}") from exc
    return {key: text for key, text in catalog.items() if isinstance(key, str) and key and text}


class _Params(dict[str, object]):
    """Format parameters where a missing one shows as an em dash instead of failing."""

    def __missing__(self, key: str) -> str:
        log.debug("translation parameter %r missing", key)
        return "\u2014"


class Translator:
    """Looks keys up in the current language, falling back to English, then to the key itself.

    A missing key is logged once (the catalog test makes sure none is missing for keys in our code;
    keys coming from the banker at run time may still be new).
    """

    def __init__(self, lang: str = "en") -> None:
        self._lang = "en"
        self._listeners: list[Callable[[str], None]] = []
        self._missing: set[tuple[str, str]] = set()
        self.set_language(lang)

    @property
    def lang(self) -> str:
        """The current language code (one of :data:`LANGUAGES`)."""
        return self._lang

    def set_language(self, lang: str) -> None:
        """Switch language; listeners are told (the app re-renders every screen)."""
        load_catalog(lang)  # raises I18nError for a bad language before anything changes
        if lang == self._lang and self._listeners:
            return
        self._lang = lang
        for listener in list(self._listeners):
            listener(lang)

    def on_change(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(lang)`` after every language switch."""
        self._listeners.append(listener)

    def has(self, key: str, lang: str | None = None) -> bool:
        """Whether ``key`` is translated in ``lang`` (default: the current language)."""
        return key in load_catalog(lang or self._lang)

    def __call__(self, key: str, **params: object) -> str:
        """The text of ``key`` in the current language with ``params`` filled in."""
        return self.text(key, self._lang, **params)

    def text(self, key: str, lang: str, **params: object) -> str:
        """The text of ``key`` in ``lang``; English or the key itself when missing (logged once)."""
        template = load_catalog(lang).get(key)
        if template is None:
            if (lang, key) not in self._missing:
                self._missing.add((lang, key))
                log.warning("no %s translation for %r", lang, key)
            template = load_catalog("en").get(key, key)
        if not params and "{" not in template:
            return template
        try:
            return template.format_map(_Params(params))
        except (IndexError, ValueError) as exc:
            log.warning("translation %r (%s) does not fit its parameters %r: %s", key, lang, params, exc)
            return template
