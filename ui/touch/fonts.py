"""Fonts: Kivy's Roboto covers Latin (Romanian too) and Cyrillic; Japanese needs a CJK font.

We look for IPA Gothic (Debian ``fonts-ipafont-gothic``) or Noto Sans CJK (``fonts-noto-cjk``) and
register the first found as :data:`CJK_FONT`. :func:`font_for` names the font a language is drawn with.
When Japanese is chosen and no CJK font is installed, :func:`missing_font_message` says what to install.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

UI_FONT = "Roboto"
"""Kivy's bundled default font (Latin, Cyrillic, Romanian ș ț)."""
UI_FAMILY = "BoardBankUI"
"""The font name every label uses (``ui/kv/widgets.kv``); :func:`use_language` points it at Roboto or CJK."""
CJK_FONT = "BoardBankCJK"
"""The name the CJK font is registered under."""

CJK_CANDIDATES: tuple[str, ...] = (
    "/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf",  # proportional: Latin and Cyrillic read better
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKjp-Regular.otf",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
)
"""Where Debian/Raspberry Pi OS (and a few other systems) put a Japanese-capable font."""

NEEDS_CJK: frozenset[str] = frozenset({"ja"})


class FontError(OSError):
    """A font file that exists but cannot be registered."""


def find_cjk_font(candidates: tuple[str, ...] | None = None) -> Path | None:
    """The first installed CJK font file; ``BOARDBANK_CJK_FONT`` (a path) is tried first."""
    override = os.environ.get("BOARDBANK_CJK_FONT")
    paths = ((override,) if override else ()) + (candidates if candidates is not None else CJK_CANDIDATES)
    for candidate in paths:
        path = Path(candidate)
        if path.is_file():
            return path
    return None


_registered: dict[str, Path] = {}


def register_fonts(candidates: tuple[str, ...] | None = None) -> Path | None:
    """Register the CJK font with Kivy when one is installed; return its path (None: no CJK font)."""
    if CJK_FONT in _registered:
        return _registered[CJK_FONT]
    path = find_cjk_font(candidates)
    if path is None:
        return None
    from kivy.core.text import LabelBase

    try:
        LabelBase.register(CJK_FONT, str(path))
    except (OSError, ValueError) as exc:
        raise FontError(f"cannot register the CJK font {path}: {exc}") from exc
    _registered[CJK_FONT] = path
    log.info("CJK font registered: %s", path)
    return path


def _roboto() -> tuple[str, str]:
    from kivy import kivy_data_dir

    fonts = Path(kivy_data_dir) / "fonts"
    return str(fonts / "Roboto-Regular.ttf"), str(fonts / "Roboto-Bold.ttf")


def use_language(lang: str) -> str:
    """Point :data:`UI_FAMILY` at the font ``lang`` needs; returns the file used.

    Labels resolve their font file at every render, so re-rendering them after this switches fonts.
    """
    from kivy.core.text import LabelBase

    cjk = register_fonts() if lang in NEEDS_CJK else None
    if cjk is not None:
        LabelBase.register(UI_FAMILY, str(cjk), fn_bold=str(cjk))
        return str(cjk)
    regular, bold = _roboto()
    LabelBase.register(UI_FAMILY, regular, fn_bold=bold)
    return regular


def font_for(lang: str) -> str:
    """The registered font name to draw ``lang`` with (Roboto if the CJK font is missing)."""
    if lang in NEEDS_CJK and CJK_FONT in _registered:
        return CJK_FONT
    return UI_FONT


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds Chinese/Japanese/Korean characters (kana, kanji, full-width forms)."""
    return any(0x2E80 <= ord(ch) <= 0x9FFF or 0xF900 <= ord(ch) <= 0xFAFF or 0xFF00 <= ord(ch) <= 0xFFEF
               for ch in text)


def font_for_text(text: str) -> str:
    """The font to draw ``text`` with: the CJK font if it holds CJK characters (and one is registered),
    else Roboto. A Japanese name shows in a Russian UI, and Cyrillic keeps Roboto's shapes in Japanese."""
    if CJK_FONT in _registered and has_cjk(text):
        return CJK_FONT
    return UI_FONT


def missing_font_message(lang: str) -> str | None:
    """A start-up message (English: the missing font could not draw Japanese) or None if all is well."""
    if lang not in NEEDS_CJK or find_cjk_font() is not None:
        return None
    return ("Japanese needs a CJK font and none is installed: "
            "run `sudo apt-get install fonts-ipafont-gothic` (or fonts-noto-cjk), "
            "or set BOARDBANK_CJK_FONT=/path/to/font.ttf. Japanese text will show as empty boxes.")


NOTDEF_PROBE = "\U0010fffd"
"""A private-use character no UI font has: fonts draw it as their "missing glyph" box."""
_drawable: dict[tuple[str, str], bool] = {}


def _pixels(char: str, font: str) -> bytes:
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=char, font_name=font, font_size=24)
    label.refresh()
    texture = label.texture
    return bytes(texture.pixels) if texture is not None else b""


def can_draw(text: str) -> bool:
    """Whether the font :func:`font_for_text` picks for ``text`` has a glyph for each of its characters
    (an emoji in Roboto or IPA Gothic would show as an empty box). Whitespace is always drawable."""
    font = font_for_text(text)
    return all(char_drawable(ch, font) for ch in set(text) if not ch.isspace())


def char_drawable(char: str, font: str) -> bool:
    """Whether ``font`` (a registered font name) draws ``char`` with a glyph of its own."""
    key = (font, char)
    if key not in _drawable:
        if ord(char) < 0x250:  # Latin, Latin-1 and Latin Extended: every UI font has them
            _drawable[key] = True
        else:
            _drawable[key] = _pixels(char, font) != _pixels(NOTDEF_PROBE, font)
    return _drawable[key]


def undrawable(text: str) -> str:
    """The characters of ``text`` the UI cannot draw, in order, each once ("" when all can be drawn)."""
    font = font_for_text(text)
    seen: list[str] = []
    for ch in text:
        if not ch.isspace() and ch not in seen and not char_drawable(ch, font):
            seen.append(ch)
    return "".join(seen)
