"""Whole games played by touches alone (tests/ui/touch_player_steps.py): Ultimate Banking (ultimate-uk),
the classic game (classic-us, with two players counting: Count it's questions), and the classic game where the unit keeps the tokens (``--option
positions=on``), each from setup to the standings, on the app started as ``boardbank run`` starts it, its
banker's clock running with the frames. Every touch is a mouse's down, hold and up through the window at a
random moment; a drawn, enabled button that does not act fails the game (a dead button). Each game also
opens the board, the menu (PIN prompt) and cycles the languages once from the table, and touches every kind
of button its screens showed, or says which kinds it did not reach."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from test_classic_game import steps as classic_steps
from touch_player import run_frames
from touch_player_steps import POLICIES, TouchGame, kind_of

from engine.banker.tapscript import Choose, Expect, Press, parse_file
from engine.receipts import money_of
from engine.records import event_to_record
from ui.countit import scores_text
from ui.story.names import Names

pytestmark = pytest.mark.ui
HERE = Path(__file__).parent
TAPS = HERE.parents[1] / "tests" / "engine" / "taps"

MUST_TOUCH = {"bar:board_button", "bar:menu_button", "bar:lang_button", "board:back", "menu:mute",
              "menu:lang_ru", "menu:lang_ro", "menu:lang_ja", "menu:lang_en", "menu:FitButton", "setup:press_ok",
              "setup:SetupLangButton"}
"""Kinds every game touches (the bar's probe and the start); each game adds its own (a fuller list of what
the screens showed and no game touched is printed: the scripts do not reach every kind)."""


def probe_bar(game: TouchGame) -> None:
    """From the table: open the board and go back, open the menu's PIN prompt and cancel, and turn the
    language four times round to where it was."""
    app = game.app
    game.touch(app.root.ids.board_button)
    assert app.root.ids.sm.current == "board"
    game.touch(game.find(lambda b: b is app.screen("board").ids.back.__self__, "the board's back button"))
    assert app.root.ids.sm.current == "table"
    game.touch(app.root.ids.menu_button)
    assert app.root.ids.sm.current == "menu"
    menu = app.screen("menu").ids
    if app.session.banker.state_name == "pin":  # a PIN is set: one key, then back
        pad = menu.pin_pad.ids.grid.__self__
        game.touch(game.find(lambda b: b.parent is pad and b.text == "1", "the PIN pad's 1"))
        game.touch(game.find(lambda b: getattr(b, "text", "") == app.t("nav.back"), "the menu's back button"))
    else:  # the menu: sound off and on, Russian and back to English, Close
        for name in ("mute", "mute", "lang_ru", "lang_ro", "lang_ja", "lang_en"):
            game.touch(game.find(lambda b, n=name: b is menu[n].__self__, name))
        game.touch(game.find(lambda b: kind_of(app, b) == "menu:FitButton", "the menu's Close"))
    assert app.root.ids.sm.current == "table"
    start = app.lang
    for _ in range(4):
        game.touch(app.root.ids.lang_button)
    assert app.lang == start


def play(app: Any, script: list[Any], seed: int, counting: bool = False) -> TouchGame:
    """Play ``script``'s steps by touches; the bar is probed once, the first time the table is idle after
    a third of the game. ``counting``: Count it's questions answered by each of the touch player's policies
    in turn (tests/ui/touch_player_steps.py)."""
    game = TouchGame(app, seed)
    game.policies = iter(POLICIES * 100) if counting else None
    probed = False
    try:
        if app.root.ids.sm.current == "setup":  # the setup's own language buttons: Russian, then English
            setup = app.screen("setup")
            for lang in ("ru", "en"):
                game.touch(game.find(lambda b, la=lang: kind_of(app, b) == "setup:SetupLangButton" and b.lang == la,
                                     f"the setup's {lang} button"))
            assert app.lang == "en" and setup is app.screen("setup")
        for number, step in enumerate(script, start=1):
            line = step[2] if isinstance(step, tuple) else getattr(step, "line", number)
            try:
                game.play(step)
            except AssertionError as exc:
                raise AssertionError(f"line {line}: {exc}") from exc
            if not isinstance(step, Expect):
                game.look()
            if not probed and number > len(script) // 3 and app.root.ids.sm.current == "table" and \
                    app.session.banker.state_name == "idle":
                probe_bar(game)
                probed = True
        assert probed, "the table was never idle after the first third: the bar was not probed"
        run_frames(2)
        game.look()
    finally:
        game.close()
    return game


def report(game: TouchGame, started: float) -> str:
    """The numbers of a game (printed with -s; shown when a test fails)."""
    holds = sorted({t.hold for t in game.finger.touches})
    frames = [t.frames for t in game.finger.touches]
    return (f"{len(game.finger.touches)} touches (holds {holds}), acted within {max(frames)} frames at most, "
            f"{game.finger.hops} buttons moved before they stood still, {len(game.touched)} kinds touched, screens {sorted(game.screens)}, {time.monotonic() - started:.1f} s")


def untouched(game: TouchGame) -> dict[str, set[str]]:
    """Kinds of live buttons a screen showed that the game never touched."""
    return {screen: kinds - game.touched for screen, kinds in game.seen.items() if kinds - game.touched}


def test_ultimate_game_by_touches_alone(installation: Any) -> None:
    started = time.monotonic()
    app = installation.start("--edition", "ultimate-uk")
    game = play(app, list(parse_file(HERE / "game.tap").steps), seed=11)
    print(report(game, started), sorted(game.touched), "\nnot touched:", untouched(game))
    assert app.session.banker.view.phase == "over" and app.root.ids.sm.current == "standings"
    assert {"setup", "table", "board", "menu", "event", "auction", "debt", "standings"} <= game.screens
    assert game.touched >= ULTIMATE_TOUCHED, sorted(ULTIMATE_TOUCHED - game.touched)


ULTIMATE_TOUCHED = MUST_TOUCH | {"tray:player", "tray:deed", "tray:event", "event:ChoiceButton",
                                 "auction:bid_large"}
CLASSIC_TOUCHED = MUST_TOUCH | {"tray:player", "tray:deed", "build:StreetButton", "dice:ChoiceButton", "trade:cash_left",
                                "trade:KeyButton", "auction:bid_small"}
POSITIONS_TOUCHED = MUST_TOUCH | {"tray:player", "tray:event", "board:FitButton", "board:press_ok", "board:press_decline",
                                  "debt:press_bankrupt"}


def test_classic_game_with_two_counters_by_touches_alone(installation: Any) -> None:
    """The whole classic game, with Count it: Ana and Boris chosen by their "counts" toggles on the setup
    screen, every question answered on the question screen in turn right, wrong then right, wrong twice,
    Skip and by the timeout (change questions among them); the journal is the same game's without counting
    (played through ``boardbank headless``), and the standings screen shows the scores. (One game for both:
    every screen and button of the game uncounted is reached too, and CI pays for one whole game.)"""
    started = time.monotonic()
    app = installation.start("--edition", "classic-us")
    script = classic_steps(HERE / "classic_game.tap")
    start = next(i for i, s in enumerate(script) if isinstance(s, Press) and s.button == "ok")
    script.insert(start, Choose(script[start].line, "count=1,2"))
    game = play(app, script, seed=12, counting=True)
    print(report(game, started), sorted(game.touched), "\nnot touched:", untouched(game), "\nanswered:", game.answered)
    banker = app.session.banker
    assert banker.view.phase == "over" and app.root.ids.sm.current == "standings"
    assert {"setup", "table", "board", "menu", "build", "dice", "debt", "auction", "trade", "question",
            "standings"} <= game.screens
    assert game.touched >= CLASSIC_TOUCHED | COUNT_TOUCHED, sorted(CLASSIC_TOUCHED | COUNT_TOUCHED - game.touched)
    assert {p for _, p in game.answered} == set(POLICIES), game.answered
    assert "change" in {rule for rule, _ in game.answered}, "a change question was asked"
    assert sum(money_of(e) is not None for e in banker.game.events) > 20
    events = [_plain(event_to_record(e)) for e in banker.game.events]
    assert events == _uncounted_events(HERE / "classic_game.tap"), "the same journal as the game uncounted"
    scores = banker.view.scores
    right = sum(p in ("right", "wrong_right") for _, p in game.answered)
    assert [s.player for s in scores] == ["p1", "p2"] and sum(s.right for s in scores) == right
    assert sum(s.answered for s in scores) == right + sum(p == "wrong_wrong" for _, p in game.answered)
    shown = scores_text(scores, Names.from_view(banker.view, "en", app.presenter.tr))
    assert shown in [getattr(w, "text", "") for w in app.screen("standings").walk()]


COUNT_TOUCHED = {"question:press_skip", "question:KeyButton"}
"""Count it's buttons: Skip, the question's keypad (the "counts" toggles are the setup's only way to the
counters, which the scores show)."""


def test_classic_positions_game_by_touches_alone(installation: Any) -> None:
    started = time.monotonic()
    app = installation.start("--edition", "classic-us", "--option", "positions=on")
    game = play(app, list(parse_file(TAPS / "positions" / "classic_whole_game.tap").steps), seed=13)
    print(report(game, started), sorted(game.touched), "\nnot touched:", untouched(game))
    assert app.session.banker.view.phase == "over" and app.root.ids.sm.current == "standings"
    assert {"setup", "table", "board", "menu", "auction", "debt", "standings"} <= game.screens
    assert game.touched >= POSITIONS_TOUCHED, sorted(POSITIONS_TOUCHED - game.touched)


TOUR_TOUCHED = MUST_TOUCH | {"tray:player", "tray:deed", "tray:event", "mortgage:press_cancel", "tax:ChoiceButton",
                             "dice:ChoiceButton", "debt:press_bankrupt"}


def test_classic_tour_by_touches_alone(installation: Any) -> None:
    """tests/ui/classic_tour.tap: building by deed cards, a mortgage looked at, a physical Community Chest
    card, Income Tax with its choice, a utility's dice, a deal, a debt, the bankruptcies."""
    started = time.monotonic()
    app = installation.start("--edition", "classic-us")
    game = play(app, classic_steps(HERE / "classic_tour.tap"), seed=14)
    print(report(game, started), sorted(game.touched), "\nnot touched:", untouched(game))
    assert app.session.banker.view.phase == "over" and app.root.ids.sm.current == "standings"
    assert {"setup", "table", "board", "menu", "build", "mortgage", "card", "tax", "dice", "trade", "debt",
            "standings"} <= game.screens
    assert game.touched >= TOUR_TOUCHED, sorted(TOUR_TOUCHED - game.touched)


def test_nearest_railroad_card_by_touches_alone(installation: Any) -> None:
    """tests/ui/touch_player_nearest.tap: the Chance card's "which Chance square?" answers (a screen that
    rebuilt them at every tick of the clock on main), a purchase, the tax choice, the mortgage screen."""
    app = installation.start("--edition", "classic-us")
    game = TouchGame(app, seed=15)
    try:
        for step in classic_steps(HERE / "touch_player_nearest.tap"):
            game.play(step)
            game.look()
    finally:
        game.close()
    assert {"card:ChoiceButton", "tax:ChoiceButton", "mortgage:press_cancel"} <= game.touched, sorted(game.touched)
    assert {"card", "tax", "mortgage"} <= game.screens


def _uncounted_events(script: Path) -> list[Any]:
    """The events of ``script`` played through ``boardbank headless`` without counting (``touch N`` as the tap
    of deed N's card, what the build screen's touch does), the start's deck and seed left out."""
    import argparse
    import io
    import json
    import tempfile

    from ui.cli.headless import Headless
    from ui.compose import build

    with tempfile.TemporaryDirectory() as folder:
        args = argparse.Namespace(db=str(Path(folder) / "plain.sqlite3"), reader=None, edition="classic-us",
                                  option=[])
        built = build(args, default_readers=[], manual_clock=True)
        out = io.StringIO()
        try:
            h = Headless(built, out)
            for n, text in enumerate(script.read_text(encoding="utf-8").splitlines(), start=1):
                words = text.split()
                h.handle_line(f"tap 000001{int(words[1]):02X}" if words[:1] == ["touch"] else text, n)
        finally:
            built.close()
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    return [_plain(e["event"]) for e in lines if e["type"] == "event"]


def _plain(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in ("deck", "seed")}
