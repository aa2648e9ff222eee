"""The Build screen's street tiles ("Baltic Avenue · house +M50") take a finger's press of any length (a quick
tap, 80 ms, 300 ms, 1 s) at any moment while the banker's clock runs: each press builds one house, on the
street pressed (docs/rules-classic.md 6; the tile does what tapping the street's deed card does)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from finger import clock_running, frames_until, tap
from ui_driver import pump

pytestmark = pytest.mark.ui


def to_build(app: Any) -> Any:
    """A classic game of two; player 1 owns the brown set (Mediterranean and Baltic Avenue, deeds 1 and 2)
    and opens Build: the build screen shows both streets. Returns the app."""
    registry = app.session.registry
    for uid, kind, value in (("000000A1", "player", 1), ("000000A2", "player", 2), ("00000101", "deed", 1),
                             ("00000102", "deed", 2)):
        registry.enroll(uid, kind, value, replace=True)
    controller = app.controller
    for uid in ("000000A1", "000000A2"):
        controller.tap(uid)
    controller.press("ok")
    for deed in ("00000101", "00000102"):  # player 1 buys both brown streets
        controller.tap(deed)
        controller.tap("000000A1")
        controller.press("ok")
    controller.tap("000000A1")
    controller.press("build")
    assert controller.view.state == "build", controller.view.state
    pump(2)
    return app


def street(app: Any, deed: int) -> Any:
    """The build screen's tile of ``deed`` as it stands now."""
    return next(b for b in app.screen("build").ids.streets.children if int(b.deed) == deed)


def houses(app: Any, deed: int) -> int:
    """The buildings on ``deed`` in the banker's view."""
    return int(next(s for s in app.controller.view.board if s.deed == deed).houses)


def test_every_press_on_a_street_builds_one_house_there(classic_session: Any) -> None:
    app = to_build(classic_session)
    rng = random.Random(3)
    with clock_running(app):
        for hold, deed in ((0.0, 1), (0.08, 2), (0.3, 1), (1.0, 2)):  # evenly: one street, then the other
            before = houses(app, deed)
            tap(lambda d=deed: street(app, d), hold_s=hold, rng=rng)
            assert frames_until(lambda d=deed, b=before: houses(app, d) > b, 2.0), \
                f"a {hold * 1000:.0f} ms press on deed {deed} built nothing"
            assert houses(app, deed) == before + 1
    assert app.controller.view.state == "build"
    assert tuple(app.controller.view.building.steps) == (1, 2, 1, 2)


def test_each_street_tile_carries_its_sets_mark_not_its_colour_alone(classic_session: Any) -> None:
    """A colour-blind player tells the sets apart on the Build screen too: each tile has its set's letters and
    pattern (ui/setmarks.py), drawn once and not again on a redraw that changes nothing."""
    from ui.setmarks import mark_of

    app = to_build(classic_session)
    for deed in (1, 2):
        tile = street(app, deed)
        colour = next(s.colour for s in app.controller.view.board if s.deed == deed)
        assert mark_of(colour) is not None
        assert tile._set_mark_colour == colour
        assert len(tile._set_mark_group.children) > 2  # the strip, its pattern and its letters
    group = street(app, 1)._set_mark_group
    drawn = list(group.children)
    app.screen("build").render(app.presenter)  # a tick's redraw: the same mark, nothing drawn again
    assert list(group.children) == drawn
