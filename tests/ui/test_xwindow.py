"""A short game of each ruleset in the real window under Xvfb, clicked by xdotool as a finger would (press,
80 ms, release) while the app runs its own loop: two bank cards registered and the game started on the
setup screen, two purchases and a rent with the on-screen tray's cards (the mock reader), the classic turn
ended by its button, an auction (Ultimate) and a house built on the Build screen (classic); the outcome read from the journal with ``boardbank replay DB --json``. Each test starts
its own Xvfb on a free display and stops it (tests/ui/xwindow.py); skipped only where Xvfb or xdotool is
missing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from xwindow import XApp, missing_tools, wait_until

pytestmark = [pytest.mark.ui, pytest.mark.skipif(bool(missing_tools()),
                                                 reason=f"no {' '.join(missing_tools())} (apt-get install xvfb "
                                                        "xauth xdotool)")]


def card(kind: str, value: int) -> tuple[str, int]:
    """The tray's card of a role, e.g. ``card("player", 1)``."""
    return kind, value


def trigger(name: str) -> Callable[[dict[str, Any]], bool]:
    """The button that sends ``press_<name>``."""
    return lambda b: b.get("trigger") == f"press_{name}"


@pytest.fixture
def xapp(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[XApp]:
    app = XApp(tmp_path, "--edition", request.param, "--lang", "en")
    try:
        yield app
    finally:
        app.close()


def start_two_players(app: XApp) -> None:
    """Register bank cards 1 and 2 by their tray cards and start the game."""
    app.act(card("player", 1), "bank card 1")
    app.act(card("player", 2), "bank card 2")
    app.act(trigger("ok"), "Start")
    wait_until(lambda: app.screen()["screen"] == "table", 10, "the table")


def player(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(state["players"][seat - 1])


@pytest.mark.parametrize("xapp", ["ultimate-uk"], indirect=True)
def test_an_ultimate_game_clicked_in_the_real_window(xapp: XApp) -> None:
    """Two purchases, a rent, and an auction: seat 2 declines deed 3, seat 1 bids the step (20) with a
    touch of their card and wins when the 10 s countdown runs out."""
    start_two_players(xapp)
    for deed, seat in ((1, 1), (2, 2)):  # deed card, buyer's card, OK
        xapp.act(card("deed", deed), f"deed {deed}")
        xapp.act(card("player", seat), f"bank card {seat}")
        xapp.act(trigger("ok"), "OK")
    xapp.act(card("deed", 1), "deed 1")  # bank card 2 lands on deed 1: the rent
    xapp.act(card("player", 2), "bank card 2")
    xapp.act(card("deed", 3), "deed 3")
    xapp.act(card("player", 2), "bank card 2")
    xapp.act(trigger("decline"), "Decline")
    wait_until(lambda: xapp.screen()["screen"] == "auction", 10, "the auction screen")
    xapp.act(card("player", 1), "bank card 1")  # a bid of the step
    wait_until(lambda: xapp.screen()["state"] == "auction_won", 30, "the auction's countdown")
    xapp.act(card("player", 1), "bank card 1")  # the winner confirms
    state = xapp.replay()
    owners = {d["deed"]: d["owner"] for d in state["deeds"]}
    first, second = player(state, 1), player(state, 2)
    shown = (owners, first["balance"], second["balance"])
    assert (owners[1], owners[2], owners[3]) == ("p1", "p2", "p1"), shown
    assert first["balance"] + second["balance"] == 2 * 1500 - 60 - 60 - 20, shown  # the bid went to the Bank
    assert second["balance"] < 1500 - 60, shown  # the rent


@pytest.mark.parametrize("xapp", ["classic-us"], indirect=True)
def test_a_classic_game_clicked_in_the_real_window(xapp: XApp) -> None:
    """The brown set bought by seat 1, a house built on the Build screen's street tile, the turn ended, and
    seat 2 pays the rent."""
    start_two_players(xapp)
    for deed in (1, 2):
        xapp.act(card("deed", deed), f"deed {deed}")
        xapp.act(card("player", 1), "bank card 1")
        xapp.act(trigger("ok"), "OK")
    xapp.act(card("player", 1), "bank card 1")
    xapp.act(trigger("build"), "Build")
    wait_until(lambda: xapp.screen()["screen"] == "build", 10, "the build screen")
    xapp.act(lambda b: b.get("deed") == 1 and "card" not in b, "the street tile of deed 1")
    xapp.act(trigger("ok"), "OK")
    xapp.act(trigger("end_turn"), "End turn")
    xapp.act(card("deed", 1), "deed 1")  # the second player lands on it: the rent
    xapp.act(card("player", 2), "bank card 2")
    state = xapp.replay()
    deeds = {d["deed"]: d for d in state["deeds"]}
    first, second = player(state, 1), player(state, 2)
    shown = (deeds[1], first["balance"], second["balance"])
    assert (deeds[1]["owner"], deeds[2]["owner"], deeds[1]["level"]) == ("p1", "p1", 1), shown
    assert first["balance"] + second["balance"] == 2 * 1500 - 60 - 60 - 50, shown  # a house: 50
    assert second["balance"] < 1500, shown
