"""The board as the board: the ring layout for any count divisible by 4, touching a space, redrawing only the
spaces that changed, and the classic game's houses, hotel and mortgage marks when the view carries them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest
from fixtures.views import OWNERS, board, board_view
from ui_driver import pump

from engine.banker.viewmodel import SpaceView
from ui.touch.widgets.board import ring_depths, ring_rects, side_of

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("count", [36, 40, 12, 8])
def test_the_ring_puts_every_space_on_the_edge_in_board_order_without_overlap(count: int) -> None:
    width, height = 800.0, 400.0
    dx, dy = ring_depths(count, width, height)
    rects = ring_rects(count, width, height, dx, dy)
    assert len(rects) == count
    per_side = count // 4
    assert rects[0][:2] == (width - dx, 0.0)  # GO bottom-right
    for pos, (x, y, w, h) in enumerate(rects):
        assert x >= 0 and x + w <= width + 1e-6 and y >= 0 and y + h <= height + 1e-6
        on_edge = x == 0 or y == 0 or abs(x + w - width) < 1e-6 or abs(y + h - height) < 1e-6
        assert on_edge, pos
        for other in rects[pos + 1:]:
            ox = min(x + w, other[0] + other[2]) - max(x, other[0])
            oy = min(y + h, other[1] + other[3]) - max(y, other[1])
            assert ox <= 1e-6 or oy <= 1e-6, (pos, rects.index(other))
        if pos % per_side == 0:
            assert side_of(pos, count) == "corner" and w == dx and h == dy
        else:
            assert w * h < dx * dy  # corners are bigger
    # neighbours touch: the ring is walked in board order
    for a, b in zip(rects, rects[1:] + rects[:1], strict=True):
        gap_x = max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2])
        gap_y = max(a[1], b[1]) - min(a[1] + a[3], b[1] + b[3])
        assert gap_x <= 1e-6 and gap_y <= 1e-6


def test_a_count_not_divisible_by_4_is_refused() -> None:
    with pytest.raises(ValueError, match="multiple of 4"):
        ring_rects(38, 800, 400, 100, 60)


def open_board(app: Any, view: Any) -> Any:
    app.overlay = None
    app.render(view)
    app.show_screen("board")
    pump(3)
    return app.screen("board")


def test_touching_a_space_shows_it_in_the_centre_with_labels(ui_app: Any) -> None:
    ui_app.set_language("en")
    screen = open_board(ui_app, board_view())
    board_widget = screen.ids.board
    assert len(board_widget.cells) == 36
    owned = next(c for c in board_widget.cells if c.deed == 10)  # p2 at level 3
    screen.on_space(int(owned.position))
    pump(2)
    assert screen.ids.owner.text == "Owner: Bob"
    assert (screen.ids.level_key.text, screen.ids.level.text) == ("Rent level", "3 of 5")
    assert screen.ids.rent_key.text == "Rent now" and screen.ids.rent.text.startswith("M")
    assert screen.ids.price_key.text == "Price"
    assert owned.level_label.text == "3" and owned.owned
    free = next(c for c in board_widget.cells if c.deed == 16)
    screen.on_space(int(free.position))
    pump(2)
    assert screen.ids.owner.text == "For sale: the Bank owns it" and screen.ids.rent.text == ""
    assert not free.owned and free.level_label.text == ""


def test_only_the_spaces_that_changed_are_redrawn(ui_app: Any) -> None:
    view = board_view()
    screen = open_board(ui_app, view)
    board_widget = screen.ids.board
    before = board_widget.updates
    ui_app.render(view)  # the same view again: nothing to redraw
    pump(1)
    assert board_widget.updates == before
    owners = {**OWNERS, 16: ("p4", 1)}
    ui_app.render(replace(view, board=board(owners)))  # one deed bought
    pump(1)
    assert board_widget.updates == before + 1
    assert board_widget.cell_for_deed(16).owned


@dataclass(frozen=True, slots=True)
class ClassicSpace(SpaceView):
    """A space of the classic game, as the banker's view may carry it."""

    houses: int = 0
    hotel: bool = False
    mortgaged: bool = False


def test_houses_hotel_and_mortgage_are_drawn_when_the_view_carries_them(ui_app: Any) -> None:
    from ui_driver import SHOTS, screenshot

    spaces = list(board(OWNERS))
    marks = {1: {"houses": 3}, 2: {"hotel": True}, 9: {"mortgaged": True}}
    classic = tuple(ClassicSpace(**{**{f: getattr(s, f) for f in SpaceView.__slots__}, **marks.get(s.deed or 0, {})})
                    for s in spaces)
    screen = open_board(ui_app, replace(board_view(), board=classic))
    cells = {c.deed: c for c in screen.ids.board.cells if c.deed}
    assert cells[1].houses == 3 and cells[1].house_label.text == "3"
    assert cells[2].hotel and cells[2].house_label.text == ui_app.t("board.hotel_mark")
    assert cells[9].mortgaged and not cells[10].mortgaged
    kinds = {kind for c in cells.values() for kind, _, _ in c.marks()}
    assert {"band", "owner", "houses", "hotel", "mortgaged"} <= kinds
    screenshot(SHOTS / "board_classic_marks.png")
    ui_app.render(board_view())  # an Ultimate view (no such fields): no marks
    pump(2)
    assert not cells[1].houses and not cells[2].hotel and not cells[9].mortgaged
