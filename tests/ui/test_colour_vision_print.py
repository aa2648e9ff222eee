"""The printed deeds tell their colour sets apart without colour: a page of deeds is printed, rendered with
pdftoppm, each set's band is found in the pixels, the three common colour-vision deficiencies are simulated
(``colourvision``) and any two sets that look alike must print different marks (a pattern strip and letters
at the bottom of the band). The pages land in ``out/screenshots/colours/``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from colourvision import INK_SHARE, close_pairs, confusions, swatch
from ui_driver import SHOTS

from ui.cli.cards_print import write_card_set
from ui.printing.content import card_set
from ui.printing.layout import MARK_STRIP_MM, SIZES_MM, grid

DPI = 100
MM = 72 / 25.4

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")


def printed_swatches(edition: str, lang: str, out: Path, shot: str = "") -> tuple[dict[str, tuple[float, float, float]],
                                                                   dict[str, object]]:
    """Each set's band colour on the deed pages, as printed and rendered, and its mark (None: no ink in the
    band's mark strip of one of its deeds)."""
    import numpy as np
    from PIL import Image

    pdf = out / f"{edition}-{lang}.pdf"
    write_card_set(edition, lang, "a4", pdf)
    cols, rows, left, bottom = grid("a4", "deed")
    cards = card_set(edition, lang)
    faces = cards.faces()["deed"]
    pages = (len(faces) + cols * rows - 1) // (cols * rows)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-f", "1", "-l", str(pages), "-png", str(pdf), str(out / "page")],
                   check=True, timeout=60)
    images = [np.asarray(Image.open(png).convert("RGB")) for png in sorted(out.glob("page-*.png"))]
    (SHOTS / "colours").mkdir(parents=True, exist_ok=True)
    shutil.copy(sorted(out.glob("page-*.png"))[-1], SHOTS / "colours" / f"print-{edition}-{lang}{shot}.png")
    scale = DPI / 72
    w, h = (v * MM for v in SIZES_MM["deed"])
    top = bottom + rows * h
    colours: dict[str, tuple[float, float, float]] = {}
    marks: dict[str, object] = {}
    inset, band_h = 2.5 * MM, 14 * MM
    for n, face in enumerate(faces):
        colour = next((d.colour for d in cards.edition.deeds.values() if f"deed {d.number}" == face.role), "")
        if face.band.upper() == "#FFFFFF":
            continue
        page, i = divmod(n, cols * rows)
        image = images[page]
        page_h = image.shape[0]
        col, row = i % cols, i // cols
        x, y = left + col * w, top - (row + 1) * h
        strip_bottom, strip_top = y + h - inset - band_h, y + h - inset - band_h + MARK_STRIP_MM * MM
        x0, x1 = int((x + inset + 1) * scale), int((x + w - inset - 1) * scale)
        y0, y1 = int(page_h - (strip_top - 0.5) * scale), int(page_h - (strip_bottom + 0.5) * scale)
        rgb, ink = swatch(image[y0:y1, x0:x1].reshape(-1, 3))
        colours.setdefault(colour, rgb)
        drawn = (face.mark.letters, face.mark.pattern) if face.mark is not None and ink >= INK_SHARE else None
        marks[colour] = drawn if marks.get(colour, drawn) == drawn else None
    return colours, marks


@pytest.mark.parametrize(("edition", "lang"), [("ultimate-uk", "en"), ("classic-ru", "ru"), ("ultimate-us", "ja")])
def test_no_two_printed_sets_look_alike_to_a_colour_blind_player(tmp_path: Path, edition: str, lang: str) -> None:
    colours, marks = printed_swatches(edition, lang, tmp_path)
    assert len(colours) >= 4, colours
    assert close_pairs(colours), "the simulation finds no close pair: the check would prove nothing"
    assert not confusions(colours, marks)


def test_the_printed_check_fails_when_the_marks_are_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.printing.layout as layout

    monkeypatch.setattr(layout, "_set_mark", lambda *a, **k: None)
    colours, marks = printed_swatches("ultimate-uk", "en", tmp_path, "-unmarked")
    assert confusions(colours, marks)
