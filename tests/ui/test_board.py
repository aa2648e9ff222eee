"""The board as the board: the ring layout for any count divisible by 4, touching a space, redrawing only the
spaces that changed, and the classic game's houses, hotel and mortgage marks when the view carries them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fixtures.views import OWNERS, board, board_view
from ui_driver import pump

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


def test_houses_hotel_and_mortgage_are_drawn_when_the_view_carries_them(ui_app: Any) -> None:
    """docs/rules-classic.md 6, 7: 1-4 houses as green blocks on the band, a hotel as one red block, a
    mortgaged deed greyed and struck through; the classic disc shows no rent level."""
    from fixtures.classic_views import board_view as classic_board
    from ui_driver import SHOTS, screenshot

    ui_app.set_language("en")
    screen = open_board(ui_app, classic_board())
    cells = {c.deed: c for c in screen.ids.board.cells if c.deed}
    marks = {deed: [kind for kind, _, _ in cell.marks()] for deed, cell in cells.items()}
    assert marks[1].count("houses") == 4 and "hotel" not in marks[1]  # Old Kent Road: four houses
    assert marks[2].count("hotel") == 1 and "houses" not in marks[2]  # Whitechapel Road: a hotel
    assert marks[25].count("houses") == 2 and marks[4].count("houses") == 3
    assert "mortgaged" in marks[22] and cells[22].level_label.text == ""  # the stroke says it, no letter
    assert "mortgaged" not in marks[4] and cells[4].level_label.text == ""  # no level number in the classic disc
    assert not [k for k in marks[27] if k in ("houses", "hotel")]  # an unbuilt street
    for cell in (cells[1], cells[4], cells[23]):  # blocks stand on the colour band, inside the space
        bx, by, bw, bh = cell.band_rect
        for x, y, w, h in cell.house_rects:
            assert bx - 0.5 <= x and x + w <= bx + bw + 0.5 and by - 0.5 <= y and y + h <= by + bh + 0.5
    screen.on_space(int(cells[1].position))
    pump(2)
    assert (screen.ids.level_key.text, screen.ids.level.text) == ("Buildings", "4 houses")
    screen.on_space(int(cells[2].position))
    pump(2)
    assert screen.ids.level.text == "a hotel"
    screenshot(SHOTS / "board_classic_marks.png")
    ui_app.render(board_view())  # an Ultimate view: no marks, the level in the disc again
    pump(2)
    cells = {c.deed: c for c in screen.ids.board.cells if c.deed}
    assert len(screen.ids.board.cells) == 36
    assert not cells[1].house_rects and not cells[2].hotel and not cells[22].mortgaged
    assert cells[10].level_label.text == "3"


def test_tokens_stand_on_their_squares_when_the_view_gives_positions(ui_app: Any) -> None:
    """The hook for the mode where the unit keeps the tokens: a disc with the player's initial on its
    square, side by side when they share one; none when the view gives no positions."""
    from fixtures.classic_views import board_view as classic_board

    from ui.touch.widgets.board import TokenDot

    view = classic_board()
    where = {"p1": 1, "p2": 1, "p3": 24, "p4": 10}
    placed = tuple(replace(p, position=where[p.id]) for p in view.players)
    screen = open_board(ui_app, replace(view, players=placed, positions=True))
    board_widget = screen.ids.board
    dots = [w for w in board_widget.children if isinstance(w, TokenDot)]
    assert sorted(d.text for d in dots) == ["A", "B", "Е", "山"]
    cells = board_widget.cells
    for dot, (_, player) in zip(sorted(dots, key=lambda d: d.text), sorted(
            (p.name[:1], p) for p in placed), strict=True):
        cell = cells[where[player.id]]
        assert cell.collide_point(*dot.center), (dot.text, player.id)
    same = [d for d in dots if cells[1].collide_point(*d.center)]
    assert len(same) == 2 and same[0].pos != same[1].pos
    ui_app.render(replace(view, players=placed))  # the table moves the tokens: none drawn
    pump(2)
    assert not [w for w in board_widget.children if isinstance(w, TokenDot)]


@pytest.mark.parametrize("lang", ("en", "ru", "ro", "ja"))
def test_a_mortgaged_deed_is_marked_by_a_drawn_stroke_no_letter(ui_app: Any, lang: str) -> None:
    """The mortgage mark was a letter from the catalog, and the Russian «З» reads as the digit 3: in every
    language a mortgaged deed is struck through and greyed, with no letter or digit in its owner mark."""
    from fixtures.classic_views import board_view as classic_board

    ui_app.set_language(lang)
    screen = open_board(ui_app, classic_board())
    mortgaged = [c for c in screen.ids.board.cells if c.deed and c.mortgaged]
    ui_app.set_language("en")
    assert mortgaged
    for cell in mortgaged:
        assert "mortgaged" in [kind for kind, _, _ in cell.marks()]
        assert not any(ch.isalnum() for ch in cell.level_label.text), (lang, cell.deed, cell.level_label.text)


def test_every_square_shows_its_short_name_on_two_lines_at_most(ui_app: Any) -> None:
    """The editions' ``[short_names]`` (engine/editions/*.toml) are the board's labels; the centre says the
    whole name. ``Pennsylvania Railroad`` and ``Pennsylvania Avenue`` were both ``Pennsylvani…``."""
    from dataclasses import replace

    from fixtures.classic_views import board_view as classic_board

    ui_app.set_language("en")
    screen = open_board(ui_app, replace(classic_board(), edition="classic-us",
                                        board=_board_of("classic-us")))
    labels = {int(c.position): c.label for c in screen.ids.board.cells}
    assert labels[15].text == "Penn. RR" and labels[34].text == "Penn. Ave"
    for position, label in labels.items():
        assert not label.shorten, (position, label.text)
        assert label.texture_size[1] <= 2 * label.font_size * 1.3, (position, label.text)


def _board_of(edition: str) -> Any:
    from fixtures.classic_views import board

    return board({}, edition)
