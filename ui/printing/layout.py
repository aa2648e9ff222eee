"""Card faces drawn at real size on A4 or Letter pages with ReportLab.

Sizes (millimetres; print at 100 %, no "fit to page"):

* title deeds 54 × 64 (2⅛ × 2½ in), 12 to a page;
* Chance, Community Chest and event cards 82.5 × 47.6 (3¼ × 1⅞ in), 10 to a page;
* bank cards 85.6 × 54, the ISO/IEC 7810 ID-1 size of a bank card, 10 to an A4 page, 8 to a Letter page.

Cards touch each other, so one cut serves two cards: a hairline outlines each card and crop marks in the
margins continue every cut line. The place of the 25 mm NFC sticker (NTAG213) is a dashed circle: in the
middle of a deed (the sticker goes on the back, behind it, so the rents stay readable) and in the free
right-hand part of the other cards. Each card also names its role as ``cards enroll`` does (``deed 3``).

Fonts: DejaVu Sans (Debian ``fonts-dejavu-core``) for Latin and Cyrillic, the CJK font the touch screen
uses (:func:`ui.touch.fonts.find_cjk_font`, IPA Gothic) for Japanese.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor, black, white
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from ui.printing.content import CardFace
from ui.setmarks import pattern_shapes
from ui.touch.fonts import find_cjk_font

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
"""Paper sizes in points."""

SIZES_MM: dict[str, tuple[float, float]] = {"deed": (54.0, 64.0), "event": (82.5, 47.6), "bank": (85.6, 54.0)}
"""Card width × height in millimetres, by sheet kind."""

STICKER_MM = 25.0
"""The diameter of the NFC sticker (NTAG213, 25 mm)."""
MIN_MARGIN_MM = 10.0
"""The least margin around the cards (crop marks and the page note live there)."""

DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
GREY = HexColor("#9A9A9A")
LIGHT = HexColor("#C8C8C8")
NO_LINE_START = frozenset("。、，．）」』】！？・ーっゃゅょャュョ%％")
"""Characters a Japanese line never begins with (they stay at the end of the line before)."""
DECK_COLOURS = {"chance": HexColor("#E8731A"), "chest": HexColor("#1D6FB8"), "": HexColor("#6B3FA0")}


class PrintError(OSError):
    """A font the set needs that is not installed, or a file that cannot be written."""


@dataclass(frozen=True, slots=True)
class Fonts:
    """The registered ReportLab font names for the text and the bold text, and whether lines break
    between any two characters (Japanese) rather than at spaces."""

    regular: str
    bold: str
    any_break: bool


def register_fonts(lang: str) -> Fonts:
    """Register the fonts ``lang`` is printed with; :class:`PrintError` names the missing package."""
    if lang == "ja":
        path = find_cjk_font()
        if path is None:
            raise PrintError("no CJK font for Japanese: install fonts-ipafont-gothic")
        if path.suffix.lower() not in (".ttf",):
            raise PrintError(f"the CJK font {path} is not a TrueType file ReportLab can embed")
        if "BBCJK" not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont("BBCJK", str(path)))
        return Fonts("BBCJK", "BBCJK", True)
    regular, bold = DEJAVU_DIR / "DejaVuSans.ttf", DEJAVU_DIR / "DejaVuSans-Bold.ttf"
    if not (regular.is_file() and bold.is_file()):
        raise PrintError(f"no DejaVu Sans in {DEJAVU_DIR}: install fonts-dejavu-core")
    if "BBSans" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("BBSans", str(regular)))
        pdfmetrics.registerFont(TTFont("BBSans-Bold", str(bold)))
    return Fonts("BBSans", "BBSans-Bold", False)


def wrap(text: str, font: str, size: float, width: float, any_break: bool) -> list[str]:
    """``text`` broken into lines no wider than ``width`` points (at spaces, or anywhere for Japanese)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        units = list(paragraph) if any_break else paragraph.split(" ")
        sep = "" if any_break else " "
        line = ""
        for unit in units:
            candidate = f"{line}{sep}{unit}" if line else unit
            keep = any_break and unit in NO_LINE_START  # kinsoku: 。、） never begin a line
            if line and not keep and pdfmetrics.stringWidth(candidate, font, size) > width:
                lines.append(line)
                line = unit
            else:
                line = candidate
        lines.append(line)
    return lines


def grid(paper: str, kind: str) -> tuple[int, int, float, float]:
    """(columns, rows, left, bottom) of one sheet of ``kind`` cards on ``paper``, centred, in points."""
    page_w, page_h = PAPERS[paper]
    w, h = (v * mm for v in SIZES_MM[kind])
    cols = int((page_w - 2 * MIN_MARGIN_MM * mm) // w)
    rows = int((page_h - 2 * MIN_MARGIN_MM * mm) // h)
    return cols, rows, (page_w - cols * w) / 2, (page_h - rows * h) / 2


class SheetWriter:
    """Draws card faces on the pages of one PDF file (``paper`` ``a4`` or ``letter``)."""

    def __init__(self, path: Path, paper: str, fonts: Fonts, note: Callable[[int, int], str]) -> None:
        self.canvas = Canvas(str(path), pagesize=PAPERS[paper])
        self.paper = paper
        self.fonts = fonts
        self.note = note
        self.pages = 0

    def sheets(self, kind: str, faces: Sequence[CardFace]) -> None:
        """As many pages of ``kind`` cards as ``faces`` need."""
        cols, rows, left, bottom = grid(self.paper, kind)
        per_page = cols * rows
        for start in range(0, len(faces), per_page):
            self._page(kind, faces[start:start + per_page], cols, rows, left, bottom)

    def _page(self, kind: str, faces: Sequence[CardFace], cols: int, rows: int, left: float, bottom: float) -> None:
        c = self.canvas
        w, h = (v * mm for v in SIZES_MM[kind])
        top = bottom + rows * h
        used_rows = (len(faces) + cols - 1) // cols
        for i, face in enumerate(faces):
            col, row = i % cols, i // cols
            x, y = left + col * w, top - (row + 1) * h
            c.saveState()
            c.translate(x, y)
            DRAWERS[kind](c, face, w, h, self.fonts)
            c.restoreState()
        self._crop_marks(left, top, w, h, min(cols, len(faces)), used_rows)
        self.pages += 1
        self._note(self.note(self.pages, 0))
        c.showPage()

    def _note(self, text: str) -> None:
        """The page's note in its top margin, on one or two lines as wide as the page allows."""
        c = self.canvas
        page_w, page_h = PAPERS[self.paper]
        width = page_w - 2 * MIN_MARGIN_MM * mm
        size, lines = _fit(lambda s: wrap(text, self.fonts.regular, s, width, self.fonts.any_break),
                           (6, 5.5, 5), 2 * 6 * 1.2, 1.2)
        c.setFont(self.fonts.regular, size)
        c.setFillColor(GREY)
        y = page_h - 4 * mm
        for line in lines[:2]:
            c.drawCentredString(page_w / 2, y, line)
            y -= size * 1.15

    def _crop_marks(self, left: float, top: float, w: float, h: float, cols: int, rows: int) -> None:
        c = self.canvas
        c.setStrokeColor(black)
        c.setLineWidth(0.3)
        gap, length = 1.5 * mm, 4 * mm
        bottom, right = top - rows * h, left + cols * w
        for i in range(cols + 1):
            x = left + i * w
            c.line(x, top + gap, x, top + gap + length)
            c.line(x, bottom - gap, x, bottom - gap - length)
        for j in range(rows + 1):
            y = top - j * h
            c.line(left - gap, y, left - gap - length, y)
            c.line(right + gap, y, right + gap + length, y)

    def save(self) -> None:
        """Write the file."""
        self.canvas.save()


# -- one card -----------------------------------------------------------------------------------------
def _outline(c: Canvas, w: float, h: float, radius: float = 0.0) -> None:
    c.setStrokeColor(LIGHT)
    c.setLineWidth(0.25)
    if radius:
        c.roundRect(0, 0, w, h, radius, stroke=1, fill=0)
    else:
        c.rect(0, 0, w, h, stroke=1, fill=0)


def _sticker(c: Canvas, cx: float, cy: float, fonts: Fonts, label: bool) -> None:
    r = STICKER_MM * mm / 2
    c.setStrokeColor(LIGHT)
    c.setLineWidth(0.5)
    c.setDash(2, 2)
    c.circle(cx, cy, r, stroke=1, fill=0)
    c.setDash()
    c.line(cx - 1.5 * mm, cy, cx + 1.5 * mm, cy)
    c.line(cx, cy - 1.5 * mm, cx, cy + 1.5 * mm)
    if label:
        c.setFillColor(LIGHT)
        c.setFont(fonts.regular, 5)
        c.drawCentredString(cx, cy - r + 2 * mm, "NFC")


def _role(c: Canvas, face: CardFace, w: float, fonts: Fonts) -> None:
    c.setFillColor(GREY)
    c.setFont(fonts.regular, 4.5)
    c.drawRightString(w - 2.5 * mm, 1.6 * mm, face.role)


def _fit(lines_of: Callable[[float], list[str]], sizes: Sequence[float], room: float, leading: float) -> tuple[float, list[str]]:
    """The largest size among ``sizes`` whose lines fit in ``room`` points at ``leading`` × size."""
    for size in sizes:
        lines = lines_of(size)
        if len(lines) * size * leading <= room:
            return size, lines
    return sizes[-1], lines_of(sizes[-1])


MARK_STRIP_MM = 3.4
"""The height of the strip at the bottom of a deed's band that shows its colour set's pattern and letters."""
MARK_STEP_MM = 1.6
"""Millimetres between two repeats of a set's pattern on paper."""


def _set_mark(c: Canvas, face: CardFace, x: float, y: float, w: float, h: float, fonts: Fonts) -> None:
    """The colour set's pattern across the strip (x, y, w, h points) and its letters at the strip's left on
    a plate of the band's colour, so the set is known by more than its colour."""
    mark = face.mark
    if mark is None:
        return
    ink = white if face.dark_band else black
    c.saveState()
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    c.setLineWidth(0.45)
    for kind, v in pattern_shapes(mark.pattern, (x, y, w, h), MARK_STEP_MM * mm):
        if kind == "line":
            c.line(*v)
        elif kind == "disc":
            c.circle(v[0], v[1], v[2], stroke=0, fill=1)
        elif kind == "ring":
            c.circle(v[0], v[1], v[2], stroke=1, fill=0)
        elif kind == "rect":
            c.rect(*v, stroke=0, fill=1)
    size = 7.0
    text_w = pdfmetrics.stringWidth(mark.letters, fonts.bold, size)
    c.setFillColor(HexColor(face.band))
    c.rect(x, y, text_w + 2 * mm, h, stroke=0, fill=1)
    c.setFillColor(ink)
    c.setFont(fonts.bold, size)
    c.drawString(x + 1 * mm, y + (h - size * 0.72) / 2, mark.letters)
    c.restoreState()


def draw_deed(c: Canvas, face: CardFace, w: float, h: float, fonts: Fonts) -> None:
    """A title deed: the band with its name, the table of rents, the lines under it."""
    _outline(c, w, h)
    _sticker(c, w / 2, h / 2 - 3 * mm, fonts, label=False)
    inset = 2.5 * mm
    band_h = 14 * mm
    band_top = h - inset
    c.setStrokeColor(black)
    c.setLineWidth(0.6)
    c.setFillColor(HexColor(face.band) if face.band else white)
    c.rect(inset, band_top - band_h, w - 2 * inset, band_h, stroke=1, fill=1)
    ink = white if face.dark_band else black
    if face.mark is not None:
        _set_mark(c, face, inset, band_top - band_h, w - 2 * inset, MARK_STRIP_MM * mm, fonts)
    c.setFillColor(ink)
    c.setFont(fonts.regular, 5)
    c.drawCentredString(w / 2, band_top - 2.6 * mm, face.header)
    inner = w - 2 * inset - 2 * mm
    size, title = _fit(lambda s: wrap(face.title, fonts.bold, s, inner, fonts.any_break), (8.5, 7.5, 6.5, 5.5),
                       band_h - 4 * mm, 1.15)
    c.setFont(fonts.bold, size)
    y = band_top - 3.2 * mm - size * 1.05
    for line in title[:2]:
        c.drawCentredString(w / 2, y, line)
        y -= size * 1.15
    c.setFillColor(black)
    y = band_top - band_h - 3.2 * mm
    row_size = 6.2
    for label, amount in face.rows:
        c.setFont(fonts.regular, row_size)
        c.drawString(inset + 1 * mm, y, label)
        c.drawRightString(w - inset - 1 * mm, y, amount)
        y -= row_size * 1.3
    room = y - 3.6 * mm + 5
    size, lines = _fit(lambda s: [ln for text in face.lines for ln in wrap(text, fonts.regular, s, inner, fonts.any_break)],
                       (5.6, 5.2, 4.8, 4.4, 4.0), room, 1.2)
    c.setFont(fonts.regular, size)
    y -= 1.0 * mm
    for line in lines:
        c.drawCentredString(w / 2, y, line)
        y -= size * 1.2
    _role(c, face, w, fonts)


def _text_block(c: Canvas, face: CardFace, x: float, top: float, width: float, room: float, fonts: Fonts,
                title_sizes: Sequence[float], body_sizes: Sequence[float]) -> None:
    title_size, title = _fit(lambda s: wrap(face.title, fonts.bold, s, width, fonts.any_break), title_sizes,
                             room * 0.45, 1.15)
    body_room = room - len(title) * title_size * 1.15 - 2 * mm
    body_size, body = _fit(lambda s: [ln for t in face.lines for ln in wrap(t, fonts.regular, s, width, fonts.any_break)],
                           body_sizes, body_room, 1.25)
    y = top - title_size
    c.setFillColor(black)
    c.setFont(fonts.bold, title_size)
    for line in title:
        c.drawString(x, y, line)
        y -= title_size * 1.15
    y -= 2 * mm - title_size * 0.15 + body_size * 0.1
    c.setFont(fonts.regular, body_size)
    for line in body:
        y -= body_size
        c.drawString(x, y, line)
        y -= body_size * 0.25


def draw_event(c: Canvas, face: CardFace, w: float, h: float, fonts: Fonts) -> None:
    """A Chance, Community Chest or event card: its deck above its title and text; the sticker right."""
    _outline(c, w, h)
    pad = 3.5 * mm
    circle_x = w - pad - STICKER_MM * mm / 2
    _sticker(c, circle_x, h / 2, fonts, label=True)
    c.setFillColor(DECK_COLOURS.get(face.deck, DECK_COLOURS[""]))
    c.rect(0, h - 2.2 * mm, w, 2.2 * mm, stroke=0, fill=1)
    c.setFont(fonts.bold, 7)
    c.drawString(pad, h - pad - 5.5, face.header.upper() if not fonts.any_break else face.header)
    width = w - 2 * pad - STICKER_MM * mm - 2 * mm
    _text_block(c, face, pad, h - pad - 9, width, h - pad - 9 - 4 * mm, fonts, (9.5, 8.5, 7.5, 6.5), (7, 6.5, 6, 5.5, 5))
    _role(c, face, w, fonts)


def draw_bank(c: Canvas, face: CardFace, w: float, h: float, fonts: Fonts) -> None:
    """A bank card (a player's, or the banker's): its name big on the left, the sticker right."""
    _outline(c, w, h, radius=3.18 * mm)
    pad = 5 * mm
    _sticker(c, w - pad - STICKER_MM * mm / 2, h / 2, fonts, label=True)
    c.setFillColor(HexColor("#1F7A4D") if face.kind == "player" else HexColor("#7A1F2B"))
    c.rect(0, h - 9 * mm, w, 5 * mm, stroke=0, fill=1)
    c.setFillColor(white)
    c.setFont(fonts.bold, 7.5)
    c.drawString(pad, h - 7.5 * mm, face.header)
    width = w - 2 * pad - STICKER_MM * mm - 3 * mm
    _text_block(c, face, pad, h - 13 * mm, width, h - 20 * mm, fonts, (16, 14, 12, 10), (7,))
    _role(c, face, w, fonts)


DRAWERS: dict[str, Callable[[Canvas, CardFace, float, float, Fonts], None]] = {
    "deed": draw_deed, "event": draw_event, "bank": draw_bank,
}

