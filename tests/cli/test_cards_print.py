"""``boardbank cards print``: printable card sets (ui/cli/cards_print.py, ui/printing/).

The page counts follow from the sheet sizes of ui/printing/layout.py (12 deeds, 10 cards, 10 bank cards to
an A4 page; 8 bank cards to a Letter page) and the editions' data (engine/editions/: 28 classic deeds and
32 Chance and Community Chest cards, 22 Ultimate Banking deeds and 23 event cards). The deed's text is
read back from the PDF with pypdf.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from ui.cli.console import main
from ui.printing.layout import SIZES_MM, grid

MM = 72 / 25.4


def _text(out: Path, page: int) -> str:
    """The text of a page, no-break spaces (kept inside amounts) read as spaces."""
    return PdfReader(out).pages[page].extract_text().replace("\u00a0", " ").replace("\u202f", " ")


def _print(tmp_path: Path, *args: str) -> tuple[int, Path]:
    out = tmp_path / "cards.pdf"
    status = main(["cards", "print", *args, "--out", str(out)])
    return status, out


@pytest.mark.parametrize(("edition", "paper", "pages"), [
    ("classic-us", "a4", 3 + 4 + 1),
    ("ultimate-uk", "a4", 2 + 3 + 1),
    ("ultimate-uk", "letter", 2 + 3 + 2),
])
def test_page_count(tmp_path: Path, edition: str, paper: str, pages: int) -> None:
    status, out = _print(tmp_path, "--edition", edition, "--paper", paper)
    assert status == 0
    reader = PdfReader(out)
    assert len(reader.pages) == pages
    width, height = (float(v) / MM for v in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == ((210, 297) if paper == "a4" else (216, 279))


def test_classic_deed_text(tmp_path: Path) -> None:
    """Deed 1 of classic-us (docs/rules-classic.md, the 40 spaces): Mediterranean Avenue, rent 2, 10, 30,
    90, 160, 250, houses 50, mortgage 30."""
    status, out = _print(tmp_path, "--edition", "classic-us")
    assert status == 0
    text = _text(out, 0)
    first = text.split("deed 1")[0]
    for expected in ("TITLE DEED", "Mediterranean Avenue", "Rent", "M2", "With 1 house", "M10", "With 4 houses",
                     "M160", "With a hotel", "M250", "Houses cost M50 each", "Mortgage value M30"):
        assert expected in first, expected


def test_russian_and_japanese_text(tmp_path: Path) -> None:
    """Russian names with money in thousands of rubles; Japanese words in the CJK font."""
    status, out = _print(tmp_path, "--edition", "classic-ru")
    assert status == 0
    first = _text(out, 0).split("deed 1")[0]
    for expected in ("Житная улица", "250 тыс. ₽", "Залог: 30 тыс. ₽"):
        assert expected in first, expected
    status, out = _print(tmp_path, "--edition", "classic-uk", "--lang", "ja")
    assert status == 0
    first = _text(out, 0).split("deed 1")[0]
    for expected in ("権利書", "Old Kent Road", "家賃", "M250", "抵当額 M30"):
        assert expected in first, expected


def test_ultimate_deed_and_cards(tmp_path: Path) -> None:
    """An Ultimate Banking deed has its price and five rent levels (docs/rules.md 1.8: Old Kent Road 60;
    70, 130, 220, 370, 750); its event cards follow, then the bank cards."""
    status, out = _print(tmp_path, "--edition", "ultimate-uk")
    assert status == 0
    pages = [_text(out, i) for i in range(len(PdfReader(out).pages))]
    first = pages[0].split("deed 1")[0]
    for expected in ("Old Kent Road", "Price", "M60", "Rent, level 1", "M70", "Rent, level 5", "M750"):
        assert expected in first, expected
    assert "STARGAZING" in pages[2] and "event 1" in pages[2]
    assert "Player 8" in pages[-1] and "Banker" in pages[-1]


def test_cards_fit_the_paper() -> None:
    """Every sheet leaves at least 10 mm around its cards for the crop marks."""
    for paper, (w, h) in {"a4": (210, 297), "letter": (215.9, 279.4)}.items():
        for kind, (cw, ch) in SIZES_MM.items():
            cols, rows, left, bottom = grid(paper, kind)
            assert cols >= 2 and rows >= 4
            assert left / MM >= 10 and bottom / MM >= 10
            assert left / MM + cols * cw <= w - 10 and bottom / MM + rows * ch <= h - 10


@pytest.mark.parametrize("args", [
    ["--edition", "monopoly-mars"],
    ["--edition", "classic-us", "--lang", "de"],
    ["--edition", "classic-us", "--paper", "a3"],
    ["--lang", "en"],
    ["extra", "--edition", "classic-us"],
])
def test_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    out = tmp_path / "cards.pdf"
    with pytest.raises(SystemExit) as exc:
        status = main(["cards", "print", *args, "--out", str(out)])
        raise SystemExit(status)
    assert exc.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boardbank cards: "), lines
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["cards.txt", "missing/cards.pdf", "."])
def test_bad_out(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    status = main(["cards", "print", "--edition", "classic-us", "--out", str(tmp_path / name)])
    assert status == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_pages_render(tmp_path: Path) -> None:
    """pdftoppm renders every page (the fonts are embedded and the file is whole)."""
    status, out = _print(tmp_path, "--edition", "ultimate-ru", "--paper", "letter")
    assert status == 0
    subprocess.run(["pdftoppm", "-r", "30", "-png", str(out), str(tmp_path / "page")], check=True, timeout=60)
    assert len(list(tmp_path.glob("page-*.png"))) == len(PdfReader(out).pages)
