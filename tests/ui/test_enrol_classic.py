"""Enrolment on the setup screen walks the box of the game's edition (ui/touch/screens/enrol.py): the
classic box has 28 title deeds and 32 Chance and Community Chest cards (engine/editions/board-classic.toml),
Ultimate Banking's 22 deeds and 23 event cards; the mock deck of the card tray is the same box."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from ui_driver import touch, wait_for

from engine.banker.plugins import ruleset_part
from engine.errors import EditionError
from reader.registry import CardRegistry
from ui.touch.screens.enrol import Enrolment, box_size, enrol_mock_deck


def test_box_sizes_of_the_editions() -> None:
    assert box_size("classic-us") == box_size("classic-ru") == (28, 32)
    assert box_size("ultimate-uk") == (22, 23)
    assert box_size(None) == box_size("monopoly-mars") == (22, 23)  # unknown: the box as before


def test_classic_enrolment_plan() -> None:
    names = {("deed", 28): "Boardwalk"}
    enrolment = Enrolment(CardRegistry.in_memory(), names, players=2, edition="classic-us")
    plan = enrolment.guide.plan
    assert plan == (("player", 1), ("player", 2), *(("deed", n) for n in range(1, 29)),
                    *(("event", n) for n in range(1, 33)), ("banker", None))
    for _ in range(2 + 27):
        enrolment.skip()
    key, params = enrolment.prompt()
    assert key == "enroll.tap_deed" and dict(params) == {"kind": "deed", "value": 28, "name": "Boardwalk"}


def test_classic_mock_deck_is_the_classic_box() -> None:
    registry = CardRegistry.in_memory()
    assert enrol_mock_deck(registry, 3, "classic-uk") == 3 + 28 + 32 + 1
    assert registry.holder("deed", 28) == "DD00001C" and registry.holder("event", 32) == "EE000020"


def classic_banker_missing() -> bool:
    """Whether the classic ruleset has no banker gestures yet (then the app cannot run a classic game)."""
    try:
        ruleset_part("classic")
    except EditionError:
        return True
    return False


@pytest.mark.ui
def test_setup_enrolment_walks_the_views_edition(fresh_session: Any) -> None:
    """The setup screen's Enrol button builds the walk from the edition the banker's view names: with a
    classic edition the deeds 23..28 and event cards 24..32 are asked for after Ultimate Banking's."""
    app = fresh_session
    touch(app.screen("setup").ids.enrol)
    assert app.enrolment is None  # the ultimate-uk mock deck is complete
    app.presenter.view = dataclasses.replace(app.presenter.view, edition="classic-us")
    app.start_enrolment()
    assert app.enrolment is not None
    assert app.enrolment.guide.plan == (*(("deed", n) for n in range(23, 29)),
                                        *(("event", n) for n in range(24, 33)))
    app.stop_enrolment()


@pytest.mark.ui
@pytest.mark.skipif(classic_banker_missing(), reason="the classic ruleset has no banker gestures yet")
def test_classic_box_enrolled_from_the_setup_screen(classic_session: Any) -> None:
    app = classic_session
    registry = app.session.registry
    assert registry.holder("deed", 28) is not None and registry.holder("event", 32) is not None  # mock deck
    registry.forget(registry.holder("deed", 28))
    registry.forget(registry.holder("event", 32))
    touch(app.screen("setup").ids.enrol)
    assert app.enrolment is not None
    key, params = app.enrolment.prompt()
    assert key == "enroll.tap_deed" and dict(params)["value"] == 28 and dict(params)["name"] == "Boardwalk"
    before = len(registry)
    app.tap_blank_card()
    wait_for(lambda: len(registry) == before + 1)
    key, params = app.enrolment.prompt()
    assert key == "enroll.tap_event" and dict(params)["value"] == 32
    app.tap_blank_card()
    wait_for(lambda: len(registry) == before + 2)
    assert registry.holder("deed", 28) is not None and registry.holder("event", 32) is not None
    assert app.enrolment is None  # the box is complete
