"""Hypothesis: random streams of taps (known and unknown cards), presses, choices and waits never crash the
banker, never break an engine invariant, and a refused input never changes the game."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.banker.machine import Banker
from engine.banker.resume import LOCKED
from engine.banker.table import BUTTONS, BankerState
from engine.banker.tapscript import CardTable, ManualClock
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

KNOWN = {f"000000A{n}": ("player", n) for n in (1, 2, 3, 4)}
KNOWN |= {f"000001{n:02d}": ("deed", n) for n in range(1, 23)}
KNOWN |= {f"000002{n:02d}": ("event", n) for n in range(1, 24)}
KNOWN |= {"000000BB": ("banker", None), "000000A9": ("player", 9)}
UIDS = sorted(KNOWN)

tap = st.tuples(st.just("tap"), st.one_of(st.sampled_from(UIDS), st.sampled_from(["DEADBEEF", "0102030405"])))
tap_player = st.tuples(st.just("tap"), st.sampled_from(["000000A1", "000000A2", "000000A3"]))
tap_deed = st.tuples(st.just("tap"), st.sampled_from([u for u in UIDS if KNOWN[u][0] == "deed"]))
press_common = st.tuples(st.just("press"), st.sampled_from(["ok", "ok", "decline", "bid", "cancel", "end_turn", "draw"]),
                         st.sampled_from([None, "20", "100"]))
press = st.tuples(st.just("press"), st.sampled_from([*BUTTONS, "roll", "bogus"]),
                  st.sampled_from([None, "20", "100", "doubles", "x"]))
choose = st.tuples(st.just("choose"), st.sampled_from(
    ["1", "2", "3", "4", "1234", "p1", "p2", "p3", "p9", "brown", "dark_blue", "A", "D", "7", "22", "0",
     "timeout_s=5", "pin=1234", "nonsense"]))
wait = st.tuples(st.just("wait"), st.sampled_from([0.5, 3.0, 10.0, 11.0]))
restart = st.just(("restart",))  # the unit is switched off and on: a new Banker over the same journal
START = [("tap", "000000A1"), ("tap", "000000A2"), ("tap", "000000A3"), ("press", "ok", None)]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(tap, tap_player, tap_player, tap_deed, tap_deed, press_common, press, choose, wait,
                          restart),
                min_size=30, max_size=150), st.sampled_from([True, True, True, False]))
def test_random_inputs_never_break_the_game(ops: list[tuple[object, ...]], started: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.open(Path(tmp) / "bb.sqlite3")
        clock = ManualClock()
        cards = CardTable(dict(KNOWN))
        banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 3, timeout_s=10, auction_s=10)
        for op in ([*START] if started else []) + ops:
            if op[0] == "restart":
                # the unit resumes the game and what the players were in the middle of: the same engine
                # state, banker state and prompt (a game being set up after "new game" stays in setup)
                before_restart = (banker.game.state.snapshot() if banker.game else None, banker.state,
                                  banker.view.prompt, banker.seats)
                banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 3)
                after = (banker.game.state.snapshot() if banker.game else None, banker.state,
                         banker.view.prompt, banker.seats)
                if before_restart[1] in LOCKED:  # a restart locks the banker menu: the state under it
                    assert after[0] == before_restart[0] and after[1] not in LOCKED
                else:
                    assert after == before_restart
                continue
            game = banker.game
            before = game.state.snapshot() if game else None
            state_before = banker.state
            if op[0] == "tap":
                reaction = banker.tap(str(op[1]))
            elif op[0] == "press":
                reaction = banker.press(str(op[1]), op[2] if isinstance(op[2], str) else None)
            elif op[0] == "choose":
                reaction = banker.choose(str(op[1]))
            else:
                clock.advance(float(op[1]))  # type: ignore[arg-type]
                reaction = banker.tick()
            assert isinstance(banker.state, BankerState)
            if banker.game is not None:
                assert banker.game.invariants() == []
            if reaction.error is not None:
                assert reaction.events == ()
                assert banker.state is state_before
                if banker.game is game and game is not None:
                    assert game.state.snapshot() == before
            assert len({e.command for e in reaction.events}) <= 1 or reaction.events[0].command == 1
            assert reaction.view.state == banker.state.value
        journal.close()
