"""A whole game through the screen: cards tapped on the on-screen tray (mock reader), buttons and choices
touched with real touches, from enrolment to the final standings. After every step the balances shown
on the table are compared with the engine's, and the script's own ``expect`` lines are checked. The app
runs as ``boardbank run`` does on an installation file, and is quit and started again in the middle."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from ui_driver import SHOTS, pump, screenshot, touch, type_text, wait_for

from engine.banker.tapscript import (
    Alias,
    Card,
    Choose,
    Expect,
    Press,
    Tap,
    Wait,
    check_expectation,
    parse_file,
)

pytestmark = pytest.mark.ui
GAME = Path(__file__).with_name("game.tap")


def tap_on_tray(app: Any, card_uid: str) -> None:
    """Scroll the tray to the card and touch it; the tap comes back from the mock reader."""
    tray = app.root.ids.tray
    assert card_uid in tray.uids(), f"card {card_uid} is not on the tray"
    tray.scroll_to_card(card_uid)
    pump(3)
    button = tray.button_for(card_uid)
    assert button is not None, f"card {card_uid} is not in sight on the tray"
    before = app.controller.handled
    touch(button)
    wait_for(lambda: app.controller.handled > before, timeout=5)
    pump(1)


def press_on_screen(app: Any, button: str, value: str | None) -> None:
    """Touch the button that sends ``press_<button>`` on the current screen."""
    screen = app.root.ids.sm.current_screen
    if button == "bid":
        assert app.root.ids.sm.current == "auction"
        widget = screen.ids.bid_large if value == "100" else screen.ids.bid_small
        assert value in ("20", "100"), f"the screen raises by 20 or 100, not {value}"
    elif button == "menu":
        widget = app.root.ids.menu_button
    else:
        group = screen.group_of(f"press_{button}") if hasattr(screen, "group_of") else None
        if group is not None:  # behind its group's button (the table's layout): open it, as a person would
            touch(screen.ids.actions.button_for(f"group:{group}"))
            pump(2)
        widget = screen.ids.actions.button_for(f"press_{button}")
        assert widget is not None, f"no {button!r} button on the {app.root.ids.sm.current} screen"
    touch(widget)


def choose_on_screen(app: Any, value: str) -> None:
    """Touch the event card's choice ``value``; on the setup screen, type a name or touch a colour chip."""
    if app.root.ids.sm.current == "setup":
        kind, _, rest = value.partition("=")
        seat, _, text = rest.partition(":")
        row = app.screen("setup").seat_rows[int(seat)]
        assert kind in ("name", "token"), f"the script's setup answers are names and colours, not {value!r}"
        if kind == "name":
            type_text(row.name_input, text)
        else:
            touch(row.chip_for(text))
        return
    assert app.root.ids.sm.current == "event"
    buttons = [b for b in app.screen("event").ids.choices.children if getattr(b, "value", None) == value]
    assert buttons, f"no choice {value!r} on the event screen"
    touch(buttons[0])


def play_step(app: Any, step: object, choose: Callable[[Any, str], None] = choose_on_screen) -> None:
    """One line of a tap script done on the screen as a person would: a card enrolled, a card tapped on the
    tray, a button pressed, an answer given (``choose``: the ruleset's way of answering), time passing."""
    if isinstance(step, Card):
        app.session.registry.enroll(step.uid, step.kind, step.value, replace=True)
        app.render(app.controller.view)
        pump(1)
    elif isinstance(step, Tap):
        tap_on_tray(app, step.uid)
    elif isinstance(step, Press):
        press_on_screen(app, step.button, step.value)
    elif isinstance(step, Choose):
        choose(app, step.value)
    elif isinstance(step, Wait):
        app.test_clock.advance(step.seconds)
        app._tick(0.0)
        pump(2)


def assert_standings_shown(app: Any, standings: Sequence[Any]) -> None:
    """The standings screen shows every total as digits, the unit once under the table, and the winner's
    total as money in the banner."""
    rows = app.screen("standings").ids.rows.children
    shown = {label.text for row in rows for label in row.children if hasattr(label, "text")}
    for standing in standings:
        assert app.presenter.amount(standing.total) in shown
    caption = app.t("standings.amounts", unit=app.presenter.money_unit())
    assert caption in {child.text for child in rows if hasattr(child, "text")}
    assert app.presenter.money(standings[0].total) in app.screen("standings").ids.winner.text


def shown_balances(app: Any) -> dict[str, str]:
    """Player id -> the balance text on the table's tiles."""
    table = app.screen("table")
    return {p.id: table.tile_for(p.id).balance_text for p in app.controller.view.players}


def restart_point(app: Any, number: int, total: int, done: int, restarts: int) -> bool:
    """Whether to quit and start again now: after the ``done``-th of ``restarts`` equal parts of the game,
    on the table with nothing under way."""
    return done < restarts and number >= total * (done + 1) // (restarts + 1) and \
        app.root.ids.sm.current == "table" and app.session.banker.state_name == "idle"


def test_whole_game_from_enrolment_to_standings(installation: Any) -> None:
    """The whole game, quit and started again in the middle with ``--edition classic-us``: the Ultimate game
    comes back as it was (its table, its Location button, no Build), the notice says --edition was not obeyed."""
    app = installation.start()
    script = parse_file(GAME)
    last_error: str | None = None
    shots = SHOTS / "game"
    screens_seen: set[str] = set()
    checked = 0
    for number, step in enumerate(script.steps, start=1):
        if isinstance(step, Alias):
            continue
        if restart_point(app, number, len(script.steps), installation.restarts, 1):
            before = app.session.banker.view
            installation.restart("--edition", "classic-us")  # the same app, a new session on the file
            view = app.session.banker.view
            assert (view.edition, view.seq, view.players) == (before.edition, before.seq, before.players)
            assert app.root.ids.sm.current == "table" and app.presenter.ruleset == "ultimate"
            assert "press_location" in view.actions and "press_build" not in view.actions
            assert app.session.asked == "classic-us"  # said on the screen and on stderr (ui/touch/app.py)
            assert app.root.ids.toast.text == app.t("info.resumed_other", game=1, asked=app.edition_name("classic-us"),
                                                    edition=app.edition_name("ultimate-uk"))
        banker = app.session.banker
        play_step(app, step)
        if isinstance(step, Tap | Press | Choose):
            last_error = app.controller.last_reaction.error
            assert app.controller.last_reaction.view == banker.view
        if isinstance(step, Expect):
            check_expectation(step, banker.view, last_error)
            continue
        if app.root.ids.sm.current not in screens_seen or number == len(script.steps):
            screenshot(shots / f"{number:03d}-{app.root.ids.sm.current}.png")
        screens_seen.add(app.root.ids.sm.current)
        if app.root.ids.sm.current == "table":
            view = banker.view
            assert shown_balances(app) == {p.id: app.presenter.money(p.balance) for p in view.players}, \
                f"line {step.line}: the table does not show the engine's balances"
            checked += 1
    banker = app.session.banker
    assert installation.restarts == 1
    assert banker.view.phase == "over"
    assert app.root.ids.sm.current == "standings"
    assert_standings_shown(app, banker.view.standings)
    assert {"setup", "table", "event", "auction", "debt", "standings"} <= screens_seen
    assert checked >= 15
