"""Japanese text on a Kivy label: line breaks between CJK characters, and Latin/Cyrillic runs in Roboto.

Kivy breaks lines only at spaces, so a Japanese prompt (which has none) runs to the edge and is cut in the
middle of whatever is there. :func:`wrap` breaks it the way Japanese is set: between phrases (BudouX's model of
Japanese phrases: never inside a word such as ルーブル or 銀行), never before closing punctuation (。、）」：…)
nor after an opening one (（「), and at spaces in Latin or Cyrillic words; only a phrase wider than a whole line
is broken between its characters. The CJK font draws Cyrillic with full-width spacing (Е к а т е р и н а), so
:func:`markup` puts every non-CJK run of a mixed text in Roboto.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

log = logging.getLogger(__name__)

NO_BREAK_BEFORE = frozenset("。、，．・：；！？）」』】〕〉》ー…‥ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々〜),.:;!?%」")
"""Characters a line never starts with (Japanese kinsoku shori, and ASCII closers)."""
NO_BREAK_AFTER = frozenset("（「『【〔〈《(")
"""Characters a line never ends with."""


def is_cjk(ch: str) -> bool:
    """Whether ``ch`` is a CJK character or full-width form (kana, kanji, punctuation)."""
    code = ord(ch)
    return 0x2E80 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF or 0x3000 <= code <= 0x303F


@cache
def _phrase_parser() -> Any:
    """BudouX's Japanese phrase parser (its model is read on the first Japanese text wrapped), or None."""
    try:
        import budoux
    except ImportError:  # pragma: no cover - a kiosk without it breaks between characters, as before
        log.warning("budoux is not installed: Japanese lines break between any two characters")
        return None
    return budoux.load_default_japanese_parser()


@lru_cache(maxsize=256)
def phrases(text: str) -> tuple[str, ...]:
    """``text`` cut into Japanese phrases (BudouX); a text without CJK characters is one phrase. Remembered
    for the last 256 texts: BudouX takes ~3 ms for a 40-character prompt here, and a fit wraps a text at each
    font size it tries."""
    parser = _phrase_parser() if needs_own_layout(text) else None
    return (text,) if parser is None else tuple(piece for piece in parser.parse(text) if piece)


def is_katakana(ch: str) -> bool:
    """Whether ``ch`` is a katakana letter or the long-vowel mark (a loanword such as ルーブル)."""
    return 0x30A1 <= ord(ch) <= 0x30FC


def units(text: str) -> list[str]:
    """``text`` cut into the pieces a line may break between: Japanese phrases, and Latin or Cyrillic words
    (a space stays at the end of its word); closing punctuation stays with what it closes."""
    pieces: list[str] = []
    for phrase in phrases(text):
        for i, word in enumerate(re.findall(r"\S+\s*|\s+", phrase)):
            inside = i > 0 and is_cjk(word[0])  # a particle after a Latin word (Railroad は) stays with it
            if pieces and (inside or word.isspace() or word[0] in NO_BREAK_BEFORE or pieces[-1][-1] in NO_BREAK_AFTER):
                pieces[-1] += word
            else:
                pieces.append(word)
    return pieces


def char_units(text: str) -> list[str]:
    """``text`` cut between any two CJK characters (a phrase wider than a line), with the same rules for
    punctuation and spaces."""
    pieces: list[str] = []
    word = ""
    for ch in text:
        if is_cjk(ch):
            if word:
                pieces.append(word)
                word = ""
            katakana_run = pieces and is_katakana(ch) and is_katakana(pieces[-1][-1])  # ルーブル stays whole
            if pieces and (ch in NO_BREAK_BEFORE or pieces[-1][-1] in NO_BREAK_AFTER or katakana_run):
                pieces[-1] += ch
            else:
                pieces.append(ch)
        elif ch == " ":
            word += ch
            pieces.append(word)
            word = ""
        else:
            if (not word and pieces and pieces[-1][-1] in NO_BREAK_AFTER) or (not word and pieces and ch in NO_BREAK_BEFORE and not pieces[-1].endswith(" ")):
                word = pieces.pop()
            word += ch
    if word:
        pieces.append(word)
    return pieces


def wrap(text: str, width: float, measure: Callable[[str], float]) -> str:
    """``text`` with line breaks so that no line is wider than ``width`` (by ``measure``, in pixels): between
    phrases (:func:`units`), and between the characters of a phrase wider than a line; a Latin word wider than
    a whole line stands on its own line. Existing line breaks stay."""
    out_lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for phrase in units(paragraph):
            parts = [phrase] if measure(phrase.rstrip()) <= width else char_units(phrase)
            for piece in parts:
                if line and measure((line + piece).rstrip()) > width:
                    out_lines.append(line.rstrip())
                    line = piece
                else:
                    line += piece
        out_lines.append(line.rstrip())
    return "\n".join(out_lines)


def needs_own_layout(text: str) -> bool:
    """Whether ``text`` holds CJK characters (its lines and fonts are then laid out here, not by Kivy)."""
    return any(is_cjk(ch) for ch in text)


def has_non_cjk_letters(text: str) -> bool:
    """Whether ``text`` mixes in Cyrillic (or other non-Latin-1 alphabetic) letters the CJK font spaces out."""
    return any(ch.isalpha() and not is_cjk(ch) and ord(ch) >= 0x250 for ch in text)


def escape(text: str) -> str:
    """``text`` safe inside Kivy markup."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


def markup(text: str, latin_font: str) -> str:
    """Kivy markup of ``text`` with each run of non-CJK letters in ``latin_font`` (spaces join runs)."""
    out: list[str] = []
    run = ""
    for ch in text:
        if is_cjk(ch) or ch == "\n" or (not ch.isalpha() and not run):
            if run:
                out.append(f"[font={latin_font}]{escape(run)}[/font]")
                run = ""
            out.append(escape(ch))
        else:
            run += ch
    if run:
        out.append(f"[font={latin_font}]{escape(run)}[/font]")
    return "".join(out)


def coloured_markup(text: str, latin_font: str, colour_hex: str) -> str:
    """:func:`markup` of ``text`` in the colour ``colour_hex`` (``#rrggbbaa``)."""
    return f"[color={colour_hex}]{markup(text, latin_font)}[/color]"
