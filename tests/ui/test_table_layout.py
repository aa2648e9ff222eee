"""Each ruleset's table on the 7-inch panel: only what the banker allows now is a button, at most six in the
row (the classic table offered fifteen at once); the rest stand behind their group's button, one touch away."""

from __future__ import annotations

from typing import Any

import pytest
from fixtures.classic_views import TABLE_ACTIONS
from ui_driver import pump, touch

from ui.touch.screens.grouped import BACK, GROUP_PREFIX, MAX_BUTTONS, table_buttons

pytestmark = pytest.mark.ui

CAPTIONS = {GROUP_PREFIX + "square": "Landed on…", GROUP_PREFIX + "in_jail": "In jail…", BACK: "Back"}


def test_the_classic_idle_table_folds_fifteen_actions_into_six_buttons() -> None:
    actions = [(t, t, True) for t in TABLE_ACTIONS]
    row = table_buttons(actions, "classic", None, CAPTIONS)
    assert len(row) <= MAX_BUTTONS, row
    shown = {t for t, _, _ in row}
    assert {"press_end_turn", "press_build", "press_trade"} <= shown
    square = table_buttons(actions, "classic", "square", CAPTIONS)
    assert [t for t, _, _ in square] == ["press_go", "press_jail", "press_income_tax", "press_luxury_tax",
                                         "press_chance", "press_chest", "press_jackpot", BACK]
    jail = table_buttons(actions, "classic", "in_jail", CAPTIONS)
    assert {t for t, _, _ in jail} == {"press_pay_fee", "press_roll_doubles", "press_roll_no_doubles",
                                      "press_use_card", BACK}
    every = {t for name in ("square", "in_jail") for t, _, _ in table_buttons(actions, "classic", name, CAPTIONS)}
    assert shown | every >= set(TABLE_ACTIONS)  # nothing the banker allows is out of reach


def test_a_few_actions_are_not_folded_and_a_group_of_one_is_the_action_itself() -> None:
    few = [("press_ok", "OK", True), ("press_cancel", "Cancel", True)]
    assert table_buttons(few, "classic", None, CAPTIONS) == few
    seven = [(f"press_{t}", t, True) for t in ("go", "end_turn", "build", "sell", "trade", "chance", "pay_fee")]
    row = table_buttons(seven, "classic", None, CAPTIONS)
    assert len(row) <= MAX_BUTTONS and ("press_pay_fee", "pay_fee", True) in row  # the jail group of one


def test_a_real_classic_table_shows_at_most_six_buttons_and_a_group_opens_and_closes(classic_session: Any) -> None:
    app = classic_session
    banker = app.session.banker
    for seat in (1, 2, 3):
        app.session.registry.enroll(f"000000A{seat}", "player", seat, replace=True)
        banker.tap(f"000000A{seat}")
    banker.press("ok")
    app.render(app.controller.view)
    pump(3)
    assert app.root.ids.sm.current == "table"
    screen = app.screen("table")
    row = screen.ids.actions
    shown = [b for b in row.children]
    view_actions = [t for t in app.controller.view.actions if t != "press_menu"]
    assert len(view_actions) > MAX_BUTTONS  # the banker allows many things at once in the classic game...
    assert len(shown) <= MAX_BUTTONS  # ...the table shows six
    touch(row.button_for(GROUP_PREFIX + "square"))
    pump(2)
    assert row.button_for("press_chance") is not None and row.button_for(BACK) is not None
    touch(row.button_for(BACK))
    pump(2)
    assert row.button_for("press_chance") is None and row.button_for("press_end_turn") is not None
