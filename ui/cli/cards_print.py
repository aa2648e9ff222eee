"""``boardbank cards print --edition ID [--lang L] [--paper a4|letter] --out FILE.pdf``: a printable card set.

The PDF holds the edition's title deeds, its Chance and Community Chest cards (Ultimate Banking: its event
cards) and the bank cards of players 1..8 with the banker card, at real size (:mod:`ui.printing.layout`),
in the language ``--lang`` (default: the edition's), amounts as that language shows money.

Every argument is checked before anything is written: a bad one is one line on stderr and exit status 2;
the file appears only whole (written next to it, then renamed over ``--out``). The installation file is
not opened.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from engine.editions import list_editions, load_edition
from engine.errors import EditionError
from ui.i18n import LANGUAGES, Translator

PAPER_CHOICES = ("a4", "letter")


class PrintRequestError(ValueError):
    """An argument of ``cards print`` that cannot be used."""


def check_request(args: argparse.Namespace) -> tuple[str, str, str, Path]:
    """(edition id, language, paper, output path) of ``args``, or :class:`PrintRequestError`."""
    edition_id = getattr(args, "edition", None)
    if not edition_id:
        raise PrintRequestError(f"expected --edition ID, one of {', '.join(list_editions())}")
    try:
        edition = load_edition(edition_id)
    except EditionError as exc:
        raise PrintRequestError(str(exc)) from None
    lang = getattr(args, "lang", None) or edition.language
    if lang not in LANGUAGES:
        raise PrintRequestError(f"expected --lang among {', '.join(LANGUAGES)}, got {lang!r}")
    paper = (getattr(args, "paper", None) or "a4").lower()
    if paper not in PAPER_CHOICES:
        raise PrintRequestError(f"expected --paper a4 or letter, got {paper!r}")
    out = getattr(args, "out", None)
    if not out:
        raise PrintRequestError("expected --out FILE.pdf")
    path = Path(out)
    if path.suffix.lower() != ".pdf":
        raise PrintRequestError(f"expected --out to name a .pdf file, got {out!r}")
    if path.is_dir():
        raise PrintRequestError(f"--out {out!r} is a directory, expected a file name")
    if not path.parent.is_dir():
        raise PrintRequestError(f"--out {out!r}: no directory {str(path.parent)!r}")
    if getattr(args, "args", None):
        raise PrintRequestError(f"cards print takes no words, got {' '.join(args.args)!r}")
    return edition.id, lang, paper, path


def write_card_set(edition_id: str, lang: str, paper: str, path: Path) -> int:
    """Write the card set PDF to ``path`` (atomically); return its page count."""
    from ui.printing.content import CardSet
    from ui.printing.layout import SheetWriter, register_fonts

    tr = Translator(lang)
    cards = CardSet(load_edition(edition_id), lang, tr)
    fonts = register_fonts(lang)
    faces = cards.faces()
    fd, tmp_name = tempfile.mkstemp(prefix=".cards-", suffix=".pdf", dir=str(path.parent))
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        def note(page: int, _total: int) -> str:
            return tr.text("print.page_note", lang, edition=edition_id, page=page)

        writer = SheetWriter(tmp, paper, fonts, note)
        for kind in ("deed", "event", "bank"):
            writer.sheets(kind, faces[kind])
        writer.save()
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return writer.pages


def print_main(args: argparse.Namespace) -> int:
    """``cards print``: 0 written, 2 refused (nothing written)."""
    try:
        edition_id, lang, paper, path = check_request(args)
    except PrintRequestError as exc:
        sys.stderr.write(f"boardbank cards: {exc}\n")
        return 2
    try:
        from ui.printing.layout import PrintError
    except ImportError as exc:
        sys.stderr.write(f"boardbank cards: printing needs ReportLab (pip install 'boardbank[print]'): {exc}\n")
        return 2
    try:
        pages = write_card_set(edition_id, lang, paper, path)
    except (PrintError, OSError) as exc:
        sys.stderr.write(f"boardbank cards: cannot write {path}: {exc}\n")
        return 2
    sys.stdout.write(f"wrote {path}: {pages} pages of {edition_id} cards in {lang} on {paper}\n")
    return 0
