"""House rules you can see on the setup screen: each option row shows what it does to a game (its effect
lines), "estimating…" first, the estimate's words once it arrives, updated in place, in the UI's language,
for the players' count so far; the worker stops when the game starts. A stub estimator stands in for the
simulator, and one real but small run goes through ui/estimates.py's background process."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fixtures.estimates import SlowStub, StubEstimates
from test_setup import tap_card
from ui_driver import pump, wait_for

from ui.estimates import Estimates
from ui.setup_effects import players_for, variant_of

pytestmark = pytest.mark.ui
REAL_DEADLINE_S = 120.0  # a fresh interpreter and a few games on a busy machine


def _show(screen: Any, name: str) -> Any:
    """Turn to option ``name``'s page and let its effect lines be asked for (the frame after); its row."""
    row = screen.show_option(name)
    pump(2)
    return row


def _use(app: Any, estimator: Any) -> Any:
    """Give the setup screen ``estimator`` and show it again; returns the screen."""
    screen = app.screen("setup")
    screen.effects.close()
    screen.effects.factory = lambda: estimator
    app.render(app.controller.view)
    pump(2)
    return screen


def test_an_option_shows_estimating_then_its_effects_in_place(fresh_session: Any) -> None:
    stub = SlowStub()
    screen = _use(fresh_session, stub)
    row = _show(screen, "auction")  # on by default: its line says what turning it off does
    assert row.effect.text == "estimating\u2026"
    label = row.effect
    assert ("ultimate-uk", 4, {"auction": False}) in stub.requests  # before any card: max_players (4)
    assert screen._effects_ev is not None  # the clock collects it
    stub.release()
    wait_for(lambda: "longer" in row.effect.text, timeout=5.0)
    assert row.effect.text.split("\n") == ["games 12 % longer", "first player wins 3 points more often",
                                           "M250 less money on the table at the end"]
    assert row.effect is label  # the same label, its text changed
    assert _show(screen, "auction") is row  # no row rebuilt
    wait_for(lambda: screen._effects_ev is None, timeout=5.0)  # idle: the clock's interval stopped


def test_a_number_at_its_default_and_the_players_limit_show_no_line(fresh_session: Any) -> None:
    screen = _use(fresh_session, StubEstimates())
    assert _show(screen, "start_money").effect is None  # 1,500: the default, nothing to say
    assert _show(screen, "max_players").effect is None  # who may sit, not how a game goes
    assert _show(screen, "auction").effect.text.startswith("games 12 % longer")


def test_the_effects_are_for_the_cards_tapped_so_far(fresh_session: Any) -> None:
    stub = StubEstimates()
    _use(fresh_session, stub)
    tap_card(fresh_session, "BB000001")
    tap_card(fresh_session, "BB000002")
    pump(2)
    assert stub.requests[-1][1] == 2


def test_estimates_for_a_players_count_no_longer_shown_are_dropped(fresh_session: Any) -> None:
    stub = SlowStub()
    screen = _use(fresh_session, stub)
    _show(screen, "auction")
    assert ("ultimate-uk", 4, (("auction", False),)) in stub.waiting
    tap_card(fresh_session, "BB000001")
    tap_card(fresh_session, "BB000002")
    pump(2)
    assert stub.waiting == {("ultimate-uk", 2, (("auction", False),))}  # only the count shown is computed


@pytest.mark.parametrize(("lang", "words"), [("en", "games 12 % longer"), ("ru", "партии на 12 % длиннее"),
                                             ("ja", "12%")])
def test_the_effect_lines_are_in_the_ui_language(fresh_session: Any, lang: str, words: str) -> None:
    screen = _use(fresh_session, StubEstimates())
    fresh_session.set_language(lang)
    pump(2)
    assert words in _show(screen, "auction").effect.text
    pending = _use(fresh_session, SlowStub())
    assert _show(pending, "auction").effect.text == fresh_session.t("effect.pending", lang)
    fresh_session.set_language("en")


def test_the_worker_stops_when_the_setup_screen_is_left(fresh_session: Any) -> None:
    stub = SlowStub()
    screen = _use(fresh_session, stub)
    assert screen._effects_ev is not None
    screen.release()
    assert stub.closed and screen._effects_ev is None


def test_a_real_small_estimate_arrives_on_the_screen_and_a_request_takes_a_few_ms(fresh_session: Any,
                                                                                 tmp_path: Path) -> None:
    estimates = Estimates(tmp_path, games=20)
    seconds: list[float] = []
    request = estimates.request

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return request(*args, **kwargs)
        finally:
            seconds.append(time.perf_counter() - start)

    estimates.request = timed  # type: ignore[method-assign]
    screen = _use(fresh_session, estimates)
    row = _show(screen, "auction")
    assert row.effect.text == "estimating\u2026"
    try:
        wait_for(lambda: row.effect.text != "estimating\u2026", timeout=REAL_DEADLINE_S)
    finally:
        screen.effects.close()
    assert row.effect.text  # its words: effects or "no clear change"
    first, later = seconds[0], seconds[1:]
    print(f"request on the UI thread: first {1000 * first:.1f} ms (the engine's hash, the worker's start), "
          f"then {', '.join(f'{1000 * s:.2f}' for s in later)} ms")
    assert first < 0.5 and later and max(later) < 0.02, seconds  # a tap is never delayed


def test_which_option_set_a_row_is_estimated_with() -> None:
    assert variant_of("classic-uk", "free_parking_jackpot", False) == {"free_parking_jackpot": True}
    assert variant_of("classic-uk", "free_parking_jackpot", True) == {"free_parking_jackpot": True}
    assert variant_of("ultimate-uk", "auction", True) == {"auction": False}
    assert variant_of("ultimate-uk", "start_money", 1500) is None
    assert variant_of("ultimate-uk", "start_money", 2000) == {"start_money": 2000}
    assert variant_of("ultimate-uk", "max_players", 6) is None
    assert variant_of("ultimate-uk", "no_such_option", True) is None
    preset = variant_of("classic-uk", "second_text", False)
    assert preset is not None and preset["second_text"] is True and len(preset) > 1  # the values it sets


def test_the_players_count_is_the_cards_tapped_or_the_limit() -> None:
    assert players_for(0, 4, 4) == 4
    assert players_for(1, 4, 4) == 2
    assert players_for(3, 4, 4) == 3
    assert players_for(0, 6, 4) == 4  # the simulator's baseline (the defaults) seats at most 4
    assert players_for(0, 8, 8) == 8
