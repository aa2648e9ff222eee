"""The phone page's board shows each colour set's mark (ui/setmarks.py, ui/share/marks.py) in the deed's
swatch, and a colour-blind player tells every set apart on it: the page is opened in headless Chromium at
360 px, each swatch is found in the screenshot, deuteranomaly, protanomaly and tritanomaly are simulated
(``colorspacious``, tests/ui/colourvision.py) and two sets whose simulated colours are close must show
different marks. Screenshots go to ``$BOARDBANK_SHARE_SHOTS`` (default: a temporary folder). The page's
Content-Security-Policy stays as strict as before: the marks are DOM-built SVG, no inline style, no data:
URI."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "ui"))
from browser import CHROMIUM
from colourvision import INK_SHARE, close_pairs, confusions, swatch
from sharekit import started, view
from test_share_browser import wait_page

from engine.banker.viewmodel import SpaceView
from ui.setmarks import MARKS
from ui.share import marks as share_marks
from ui.share.marks import BOX, STEP, marks_data, svg_shapes
from ui.share.server import SECURITY_HEADERS
from ui.share.share import page_html

ORDER = ("brown", "light_blue", "pink", "orange", "red", "yellow", "green", "dark_blue")
NAMES = ("Old Kent Road", "The Angel, Islington", "Pall Mall", "Bow Street", "Strand", "Leicester Square",
         "Regent Street", "Park Lane")


def marked_view() -> Any:
    """A table whose board holds two deeds of every colour set, a railroad and a utility, some owned."""
    spaces = []
    deed = 0
    for colour, name in zip(ORDER, NAMES, strict=True):
        for n in (1, 2):
            deed += 1
            spaces.append(SpaceView(len(spaces), "deed", f"{name} {n}", deed=deed, colour=colour, price=100 + deed,
                                    owner="p1" if deed % 3 == 0 else None, rent=10 if deed % 3 == 0 else None))
    spaces.append(SpaceView(len(spaces), "deed", "King's Cross Station", deed=deed + 1, colour="railroad", price=200))
    spaces.append(SpaceView(len(spaces), "deed", "Electric Company", deed=deed + 2, colour="utility", price=150))
    base = view(1)
    return type(base)(**{**{f: getattr(base, f) for f in base.__dataclass_fields__}, "board": tuple(spaces),
                         "seq": 1})


@pytest.fixture
def chromium() -> None:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("no chromium in CI: scripts/install-system-deps.sh test installs it")
        pytest.skip("no chromium (Debian: apt-get install chromium)")


@pytest.fixture
def fresh_page_html() -> Iterator[None]:
    page_html.cache_clear()
    share_marks.marks_json.cache_clear()
    yield
    page_html.cache_clear()
    share_marks.marks_json.cache_clear()


def page_swatches(shots: Path, name: str) -> tuple[dict[str, tuple[float, float, float]], dict[str, object],
                                                   dict[str, Any]]:
    """Open the page at 360 px, screenshot its board; each set's swatch colour, the mark it shows (None:
    none, or no ink in its pixels) and what the page says of itself (swatches, CSP violations)."""
    import numpy as np
    from browser import Browser
    from PIL import Image

    share = started()
    page = None
    try:
        page = Browser(share.url + "?lang=en")
        page.resize(360, 1500)
        wait_page(page, "document.body.dataset.live === 'yes'")
        page.evaluate("window.__csp = 0; document.addEventListener('securitypolicyviolation', "
                      "function () { window.__csp += 1; }); true")
        share.publish(1, (), marked_view())
        wait_page(page, "document.querySelectorAll('#board li').length === 18")
        page.evaluate("document.getElementById('board').scrollIntoView(); true")
        info = json.loads(page.evaluate(
            "JSON.stringify({csp: window.__csp, width: document.documentElement.scrollWidth, "
            "sw: Array.from(document.querySelectorAll('#board .sw')).map(function (e) { "
            "var r = e.getBoundingClientRect(); return {colour: e.dataset.colour || '', letters: "
            "e.dataset.letters || '', pattern: e.dataset.pattern || '', shapes: e.querySelectorAll('svg *').length, "
            "x: r.left, y: r.top, w: r.width, h: r.height, cls: e.className, ink: ml ? getComputedStyle(ml).color : '', "
            "back: getComputedStyle(e).backgroundColor}; })})".replace("var r =", "var ml = e.querySelector('.ml'), r =")))
        shot = shots / name
        page.screenshot(shot)
    finally:
        if page is not None:
            page.close()
        share.stop()
    image = np.asarray(Image.open(shot).convert("RGB"))
    colours: dict[str, tuple[float, float, float]] = {}
    marks: dict[str, object] = {}
    for sw in info["sw"]:
        colour = next((c[2:].replace("-", "_") for c in sw["cls"].split() if c.startswith("c-")), "")
        if colour not in MARKS:
            continue
        x, y, w, h = (round(sw[k]) for k in ("x", "y", "w", "h"))
        rgb, ink = swatch(image[y + 1:y + h - 1, x + 1:x + w - 1].reshape(-1, 3))
        colours.setdefault(colour, rgb)
        mark = (sw["letters"], sw["pattern"]) if sw["letters"] and ink >= INK_SHARE else None
        marks[colour] = mark if marks.get(colour, mark) == mark else None
    return colours, marks, info


def test_no_two_sets_on_the_phone_page_look_alike_to_a_colour_blind_player(
        tmp_path: Path, chromium: None, fresh_page_html: None) -> None:
    shots = Path(os.environ.get("BOARDBANK_SHARE_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    colours, marks, info = page_swatches(shots, "share-marks-360-en.png")
    assert sorted(colours) == sorted(MARKS)
    assert close_pairs(colours), "the simulation finds no close pair: the check would prove nothing"
    assert not confusions(colours, marks)
    assert all(m is not None for m in marks.values()), marks
    assert info["csp"] == 0 and info["width"] <= 360, info
    for sw in info["sw"]:
        if sw["letters"]:
            assert sw["w"] >= 28 and sw["h"] >= 22 and sw["shapes"] > 0, sw
            assert contrast(sw["ink"], sw["back"]) >= 4.5, sw


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two CSS ``rgb(r, g, b)`` colours."""
    def lum(css: str) -> float:
        parts = [int(v) / 255 for v in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_phone_check_fails_when_the_marks_are_removed(
        tmp_path: Path, chromium: None, fresh_page_html: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the marks, red and green (deuteranomaly) and brown and red (protanomaly) are told apart by
    nothing on the page."""
    monkeypatch.setattr(share_marks, "marks_data", lambda: {"box": list(BOX), "line": 1, "sets": {}})
    colours, marks, _info = page_swatches(tmp_path, "share-unmarked.png")
    found = confusions(colours, marks)
    assert any("deuteranomaly: green and red" in f for f in found), found
    assert any("protanomaly: brown and red" in f for f in found), found


def test_the_page_carries_every_sets_mark_and_the_csp_is_unchanged() -> None:
    page_html.cache_clear()
    html = page_html("en").decode()
    start = html.index('<script type="application/json" id="marks">') + len('<script type="application/json" id="marks">')
    data = json.loads(html[start:html.index("</script>", start)])
    assert data == json.loads(json.dumps(marks_data()))
    assert {k: (v["letters"], v["pattern"]) for k, v in data["sets"].items()} == {
        k: (m.letters, m.pattern) for k, m in MARKS.items()}
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "style-src 'self';" in csp and "img-src 'self';" in csp
    assert "unsafe-inline" not in csp and "data:" not in csp


@pytest.mark.parametrize("pattern", sorted({m.pattern for m in MARKS.values()}))
def test_the_phone_patterns_draw_inside_the_swatch_with_svgs_origin_at_the_top(pattern: str) -> None:
    w, h = BOX
    shapes = svg_shapes(pattern)
    assert shapes
    for s in shapes:
        if s[0] == "line":
            assert all(0 <= v <= w + 0.01 for v in s[1::2][:2]) and all(0 <= v <= h + 0.01 for v in s[2::2][:2])
        elif s[0] == "rect":
            assert s[1] >= 0 and s[2] >= -0.01 and s[1] + s[3] <= w + 0.01 and s[2] + s[4] <= h + 0.01
        else:
            assert 0 < s[1] < w and 0 < s[2] < h and 0 < s[3] < STEP
    if pattern == "diagonal":  # rising to the right: a larger x is higher up, a smaller SVG y
        x1, y1, x2, y2 = shapes[len(shapes) // 2][1:]
        assert (x2 - x1) * (y2 - y1) < 0
