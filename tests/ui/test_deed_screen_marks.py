"""The deed screens show the colour set's mark (ui/setmarks.py) wherever they draw a deed's colour: the
mortgage card's band, the auctioned deed's band, the dice screen's title, the debt screen's deed buttons and
the trade's deed chips (docs/accessibility.md). A screenshot of each lands in ``out/screenshots/colours/``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fixtures.views import SCREENS
from ui_driver import SHOTS, pump, screenshot

from ui.setmarks import MARKS

pytestmark = pytest.mark.ui


def marked(widget: Any) -> list[tuple[str, Any]]:
    """(colour, widget) of every widget under ``widget`` that draws a set's mark with attach_mark."""
    found = []
    for w in widget.walk():
        group = getattr(w, "_set_mark_group", None)
        if group is not None and group.children and getattr(w, "_set_mark_colour", "") in MARKS:
            found.append((w._set_mark_colour, w))
    return found


def dice_on_a_colour_set() -> Any:
    """The dice screen with a deed of a colour set selected (Pall Mall, deed 7 of the classic UK board)."""
    view = SCREENS["classic_dice"]()
    return replace(view, selected_deed=7)


CASES = {
    "mortgage": ("mortgage", lambda: SCREENS["classic_mortgage"]()),
    "auction": ("auction", lambda: SCREENS["auction"]()),
    "dice": ("dice", dice_on_a_colour_set),
    "debt": ("debt", lambda: SCREENS["classic_debt"]()),
    "trade": ("trade", lambda: SCREENS["classic_trade"]()),
}


@pytest.mark.parametrize("case", CASES)
def test_a_deed_screen_shows_the_sets_mark_where_it_draws_the_deeds_colour(ui_app: Any, case: str) -> None:
    screen_name, make = CASES[case]
    view = make()
    ui_app.overlay = None
    ui_app.render(view)
    ui_app.render(view)
    pump(3)
    screen = ui_app.screen(screen_name)
    found = marked(screen)
    screenshot(SHOTS / "colours" / f"screen-{case}.png")
    board = {s.deed: s.colour for s in view.board if s.deed is not None}
    assert found, f"{case}: no set mark drawn"
    for colour, widget in found:
        assert widget.get_root_window() is not None and widget.width > 0
        assert colour in board.values()
    # the mark is the deed's own: the letters' strip sits at the widget's left edge, inside it
    for _colour, widget in found:
        x = min(i.pos[0] for i in widget._set_mark_group.children if hasattr(i, "pos"))
        assert abs(x - widget.x) < 1


def test_no_mark_where_the_deed_is_no_colour_set(ui_app: Any) -> None:
    """The dice screen of a utility and the classic game's hotel auction show no set mark."""
    for screen_name, key in (("dice", "classic_dice"), ("auction", "classic_auction")):
        view = SCREENS[key]()
        ui_app.overlay = None
        ui_app.render(view)
        pump(2)
        assert not marked(ui_app.screen(screen_name)), key


def test_the_mark_follows_the_deed_shown(ui_app: Any) -> None:
    """The next deed shown replaces the mark: the mortgage card of Mayfair (dark blue) draws its mark, the
    card of the Electric Company next (a utility) none."""
    for key, expected in (("classic_mortgage", ["dark_blue"]), ("classic_lift", []), ("classic_mortgage",
                                                                                         ["dark_blue"])):
        ui_app.overlay = None
        ui_app.render(SCREENS[key]())
        pump(2)
        assert [c for c, _ in marked(ui_app.screen("mortgage"))] == expected, key


def test_the_board_centre_shows_the_mark_of_the_deed_a_token_landed_on(ui_app: Any) -> None:
    """The unit keeps the tokens: the deed the roll landed on (the view's selected deed) is shown in the
    board's centre with its set's mark; a railroad, or no deed, shows none."""
    base = SCREENS["classic_board"]()
    deeds = {s.colour: s.deed for s in reversed(base.board) if s.deed is not None}
    players = tuple(replace(p, position=5) for p in base.players)
    for colour, expected in (("green", ["green"]), ("railroad", []), (None, [])):
        view = replace(base, players=players, positions=True, roller="p3",
                       selected_deed=deeds[colour] if colour else None)
        ui_app.overlay = None
        ui_app.render(view)
        ui_app.show_screen("board")
        pump(2)
        screen = ui_app.screen("board")
        if colour:
            screen.touched = -1
        screenshot(SHOTS / "colours" / f"screen-board-centre-{colour}.png")
        assert [c for c, _ in marked(screen.ids.space_name.parent)] == expected, colour
