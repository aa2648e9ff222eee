"""No two colour sets look the same to a colour-blind player: the board and a printed page are rendered, each
set's swatch is found in the pixels, deuteranomaly, protanomaly and tritanomaly are simulated (severity 100,
``colorspacious``) and any two sets whose simulated colours are closer than ``CONFUSABLE_DE`` (CAM02-UCS)
must show different marks (ui/setmarks.py). Screenshots land in ``out/screenshots/colours/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from colourvision import INK_SHARE, close_pairs, confusions, swatch
from fixtures.views import board_view, table_view
from ui_driver import SHOTS, pump, screenshot

from ui.setmarks import MARKS, PATTERNS, SetMark, mark_of, pattern_shapes

pytestmark = pytest.mark.ui


def board_swatches(app: Any, shot: Path) -> tuple[dict[str, tuple[float, float, float]], dict[str, object]]:
    """Each set's swatch colour on the board in ``shot`` and the mark its bands show (None: a band with no
    mark drawn, or one whose pixels show no ink)."""
    import numpy as np
    from PIL import Image

    image = np.asarray(Image.open(shot).convert("RGB"))
    height = image.shape[0]
    colours: dict[str, tuple[float, float, float]] = {}
    marks: dict[str, object] = {}
    for cell in app.screen("board").ids.board.cells:
        if not cell.set_colour or cell.houses or cell.hotel:
            continue
        x, y, w, h = (round(v) for v in cell.band_rect)
        pixels = image[height - (y + h):height - y, x:x + w].reshape(-1, 3)
        rgb, ink = swatch(pixels)
        colours.setdefault(cell.set_colour, rgb)
        drawn = cell.drawn_mark if ink >= INK_SHARE else None
        mark = (drawn.letters, drawn.pattern) if drawn is not None else None
        marks[cell.set_colour] = mark if marks.get(cell.set_colour, mark) == mark else None
    return colours, marks


@pytest.mark.parametrize("lang", ("en", "ru", "ja"))
def test_no_two_sets_on_the_board_look_alike_to_a_colour_blind_player(fresh_session: Any, lang: str) -> None:
    app = fresh_session
    app.set_language(lang)
    app.overlay = None
    app.render(board_view())
    app.show_screen("board")
    pump(3)
    shot = screenshot(SHOTS / "colours" / f"board-{lang}.png")
    colours, marks = board_swatches(app, shot)
    app.set_language("en")
    assert sorted(colours) == sorted(MARKS)
    assert close_pairs(colours), "the simulation finds no close pair: the check would prove nothing"
    assert not confusions(colours, marks)


def test_the_check_fails_when_the_marks_are_removed(fresh_session: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the marks, red and green (deuteranomaly) and brown and red (protanomaly) are told apart by
    nothing."""
    import ui.touch.widgets.board as board_module

    monkeypatch.setattr(board_module, "draw_mark", lambda *a, **k: False)
    app = fresh_session
    app.overlay = None
    app.render(board_view("ultimate-us"))
    app.show_screen("board")
    pump(3)
    for cell in app.screen("board").ids.board.cells:
        cell._arrange()
    pump(2)
    colours, marks = board_swatches(app, screenshot(SHOTS / "colours" / "board-unmarked.png"))
    found = confusions(colours, marks)
    assert any("deuteranomaly: green and red" in f for f in found), found
    assert any("protanomaly: brown and red" in f for f in found), found


def test_a_deed_card_on_the_tray_shows_its_sets_mark(fresh_session: Any) -> None:
    from ui.touch.widgets import palette
    from ui.touch.widgets.tray import CardButton

    for name in MARKS:
        button = CardButton(stripe=palette.deed_rgba(name), text="Deed", size=(120, 60))
        assert button.set_colour == name and len(button._mark.children) > 4
    plain = CardButton(stripe=palette.TOKENS["red"], text="Ann", size=(96, 60))
    assert plain.set_colour == "" and not plain._mark.children
    app = fresh_session
    app.overlay = None
    app.render(table_view())
    pump(3)
    tray = app.root.ids.tray
    deeds = [b for b in tray.ids.rv.layout_manager.children if isinstance(b, CardButton) and b.set_colour]
    assert app.show_tray and deeds
    screenshot(SHOTS / "colours" / "tray.png")


def test_every_set_has_a_mark_of_its_own_in_every_edition() -> None:
    from engine.editions import load_edition
    from ui.printing.content import editions

    assert len({m.letters for m in MARKS.values()}) == len(MARKS)
    assert len({m.pattern for m in MARKS.values()}) == len(MARKS)
    assert all(m.pattern in PATTERNS for m in MARKS.values())
    for edition_id in editions():
        edition = load_edition(edition_id)
        sets = {d.colour for d in edition.deeds.values() if d.kind not in ("railroad", "utility")}
        assert all(mark_of(s) is not None for s in sets), (edition_id, sets)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_pattern_draws_inside_its_rect(pattern: str) -> None:
    shapes = pattern_shapes(pattern, (10.0, 20.0, 50.0, 14.0), 7.0)
    assert shapes
    for kind, v in shapes:
        if kind == "line":
            xs, ys = v[0::2], v[1::2]
        elif kind == "rect":
            xs, ys = (v[0], v[0] + v[2]), (v[1], v[1] + v[3])
        else:
            xs, ys = (v[0] - v[2], v[0] + v[2]), (v[1] - v[2], v[1] + v[2])
        assert all(10.0 - 1e-6 <= x <= 60.0 + 1e-6 for x in xs) and all(20.0 - 1e-6 <= y <= 34.0 + 1e-6 for y in ys)


def test_no_mark_for_a_railroad_a_utility_or_a_corner() -> None:
    assert mark_of("railroad") is None and mark_of("utility") is None and mark_of(None) is None
    assert mark_of("Light blue") == SetMark("LB", "rings")



def test_the_set_mark_badge_draws_a_set_and_nothing_for_a_railroad(ui_app: Any) -> None:
    from ui.touch.widgets.setmark import SetMarkBadge

    badge = SetMarkBadge(colour="green", size=(40, 30))
    assert len(badge._group.children) > 6
    badge.colour = "railroad"
    assert not badge._group.children


def test_attach_mark_puts_one_mark_on_a_widget_and_replaces_it(ui_app: Any) -> None:
    from ui.touch.widgets.fitlabel import FitButton
    from ui.touch.widgets.setmark import attach_mark

    button = FitButton(text="Park Lane", size=(200, 60))
    attach_mark(button, "dark_blue")
    drawn = len(button._set_mark_group.children)
    assert drawn > 6 and button.padding[0] > 20
    attach_mark(button, "dark_blue")
    assert len(button._set_mark_group.children) == drawn and button.canvas.after.children.count(
        button._set_mark_group) == 1
    attach_mark(button, None)
    assert not button._set_mark_group.children
