"""A whole classic game through the touch screen (docs/rules-classic.md 1, 3-9): cards tapped on the
on-screen tray (mock reader), buttons, streets, deeds, dice totals and the trade's keypad touched with real
touches. After every step the balances on the table, and the houses, hotels and mortgages on the board,
are compared with the engine's state, and the script's ``expect`` lines are checked.

``tests/ui/classic_game.tap`` is a tap script with one more verb, ``touch N``: touch deed N's button on the
screen shown (a street on the build screen, a deed on the debt screen)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_game import assert_standings_shown, play_step, press_on_screen, restart_point, shown_balances
from ui_driver import SHOTS, pump, screenshot, touch, type_text, wait_for

from engine.banker.tapparse import parse_line
from engine.banker.tapscript import Alias, Choose, Expect, Press, Tap, check_expectation

pytestmark = pytest.mark.ui
GAME = Path(__file__).with_name("classic_game.tap")
TOUCH = re.compile(r"\s*touch (\d+)\s*(#.*)?$")


def steps(path: Path) -> list[Any]:
    """The script's steps; ``touch N`` becomes ``("touch", N, line)``."""
    aliases: dict[str, str] = {}
    out: list[Any] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        m = TOUCH.match(line)
        if m:
            out.append(("touch", int(m.group(1)), number))
            continue
        step = parse_line(line, number, aliases)
        if step is not None:
            out.append(step)
    return out


def touch_deed(app: Any, deed: int) -> None:
    """Touch deed ``deed``'s button on the build or debt screen."""
    name = app.root.ids.sm.current
    grid = app.screen(name).ids.streets if name == "build" else app.screen(name).ids.deeds
    buttons = [b for b in grid.children if int(getattr(b, "deed", 0)) == deed]
    assert buttons, f"no button of deed {deed} on the {name} screen"
    touch(buttons[0])


def choose_on_screen(app: Any, value: str) -> None:
    """A name typed on the setup screen, an option's stepper, a dice total, or cash on the trade keypad."""
    current = app.root.ids.sm.current
    if current == "setup":
        kind, _, rest = value.partition("=")
        if kind == "option":  # what the option's stepper sends
            name, _, option = rest.partition(":")
            app.screen("setup").send_option(name, option)
            pump(2)
            return
        seat, _, text = rest.partition(":")
        assert kind == "name", value
        type_text(app.screen("setup").seat_rows[int(seat)].name_input, text)
        return
    if current == "dice":
        buttons = [b for b in app.screen("dice").ids.totals.children if b.value == value]
        assert buttons, f"no total {value} on the dice screen"
        touch(buttons[0])
        return
    assert current == "trade" and value.startswith("cash="), (current, value)
    seat, _, amount = value.removeprefix("cash=").partition(":")
    screen = app.screen("trade")
    trade = app.presenter.view.trade
    index = 0 if trade.first.player == f"p{seat}" else 1
    touch((screen.ids.cash_left, screen.ids.cash_right)[index])
    grid = screen.ids.keypad.ids.grid
    for digit in amount:
        touch(next(k for k in grid.children if k.text == digit))
    touch(screen.ids.keypad.ok_button())


def board_matches_engine(app: Any) -> list[str]:
    """Every deed whose houses, hotel or mortgage on the board differ from the engine's state."""
    state = app.session.banker.game.state
    board = app.screen("board")
    board.render(app.presenter)
    wrong = []
    for cell in board.ids.board.cells:
        if not cell.deed:
            continue
        level = state.level.get(int(cell.deed), 0)
        want = (level if level < 5 else 0, level == 5, int(cell.deed) in state.mortgaged)
        got = (int(cell.houses), bool(cell.hotel), bool(cell.mortgaged))
        if want != got:
            wrong.append(f"deed {cell.deed}: board shows {got}, the engine has {want}")
        if cell.mortgaged and ("mortgaged" not in [kind for kind, _, _ in cell.marks()] or cell.level_label.text):
            wrong.append(f"deed {cell.deed}: no drawn mortgage mark (or a letter in it)")
    return wrong


KIOSK_ENV = Path(__file__).parents[2] / "hardware" / "kiosk" / "boardbank.env"


def kiosk_args() -> list[str]:
    """The kiosk's ``BOARDBANK_ARGS`` (hardware/kiosk/boardbank.env) with the mock reader for its readers."""
    import shlex

    line = next(x for x in KIOSK_ENV.read_text().splitlines() if x.startswith("BOARDBANK_ARGS="))
    args = shlex.split(shlex.split(line.partition("=")[2])[0])
    return [a for i, a in enumerate(args) if a != "--reader" and (i == 0 or args[i - 1] != "--reader")]


RESTARTS: tuple[tuple[str, ...] | None, ...] = ((), ("--edition", "ultimate-uk"), None)
"""The game is quit and started again three times: with no --edition, with --edition ultimate-uk (as the
kiosk's file passed before), and with the kiosk's own arguments (None)."""


def assert_the_classic_table_is_back(app: Any, before: Any) -> None:
    """After a restart: the same classic game on the classic table, and its Build gesture accepted."""
    view = app.session.banker.view
    assert (view.edition, view.seq, view.players) == (before.edition, before.seq, before.players)
    assert app.root.ids.sm.current == "table" and app.presenter.ruleset == "classic"
    assert "press_location" not in view.actions
    press_on_screen(app, "build", None)
    wait_for(lambda: app.controller.last_reaction is not None)
    assert app.controller.last_reaction.error is None, app.controller.last_reaction.params
    assert app.session.banker.state_name in ("action", "build")
    press_on_screen(app, "cancel", None)
    assert app.session.banker.state_name == "idle" and app.session.banker.view.seq == before.seq


def test_a_classic_game_from_registration_to_the_last_player_standing(installation: Any) -> None:
    """The whole classic game, quit and started again three times (:data:`RESTARTS`): each time the classic
    game comes back with its table and gestures, whatever --edition says."""
    app = installation.start("--edition", "classic-us")
    last_error: str | None = None
    shots = SHOTS / "classic_game"
    seen: set[str] = set()
    checked = 0
    script = steps(GAME)
    for number, step in enumerate(script, start=1):
        line = step[2] if isinstance(step, tuple) else step.line
        if isinstance(step, Alias):
            continue
        if restart_point(app, number, len(script), installation.restarts, len(RESTARTS)):
            before = app.session.banker.view
            again = RESTARTS[installation.restarts]
            installation.restart(*(kiosk_args() if again is None else again))  # the same app, a new session
            assert_the_classic_table_is_back(app, before)
        banker = app.session.banker
        if isinstance(step, tuple):
            touch_deed(app, step[1])
        else:
            play_step(app, step, choose_on_screen)
        if isinstance(step, Tap | Press | Choose | tuple):
            wait_for(lambda: app.controller.last_reaction is not None)
            last_error = app.controller.last_reaction.error
            assert last_error is None, f"line {line}: {last_error} {app.controller.last_reaction.params}"
        if isinstance(step, Expect):
            check_expectation(step, banker.view, last_error)
            continue
        current = app.root.ids.sm.current
        if current not in seen or number == len(script):
            screenshot(shots / f"{number:03d}-{current}.png")
        seen.add(current)
        if banker.game is not None and banker.view.phase != "setup":
            assert board_matches_engine(app) == [], f"line {line}"
        if current == "table":
            view = banker.view
            assert shown_balances(app) == {p.id: app.presenter.money(p.balance) for p in view.players}, \
                f"line {line}: the table does not show the engine's balances"
            checked += 1
        if current == "build":
            build = banker.view.building
            assert app.screen("build").ids.total.text == app.t("build.total", amount=app.presenter.money(build.total))
        if current == "debt":
            debt = banker.view.debt
            assert app.presenter.money(debt.short) in app.screen("debt").ids.prompt.text, f"line {line}"
    banker = app.session.banker
    assert installation.restarts == len(RESTARTS)
    assert banker.view.phase == "over"
    assert app.root.ids.sm.current == "standings"
    assert_standings_shown(app, banker.view.standings)
    assert {"setup", "table", "build", "dice", "debt", "auction", "trade", "standings"} <= seen, seen
    assert checked >= 15
