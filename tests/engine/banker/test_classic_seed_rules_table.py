"""The table's side of the seeds' remaining rules (docs/rules-classic.md 9, 10; docs/flows.md): the action
timer on screen with its warning before the timeout, and the lots dealt at the start shown per player."""

from __future__ import annotations

from pathlib import Path

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, parse, run_script
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

START = """
card 000000A1 player 1
card 000000A2 player 2
card 000000A3 player 3
tap 000000A1
tap 000000A2
tap 000000A3
choose option={option}:on
press ok
"""


def _banker(tmp_path: Path, option: str) -> tuple[Banker, ManualClock]:
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal, "classic-us"), cards, clock, seed_source=lambda: 7)
    run_script(parse(START.format(option=option)).steps, banker, clock, cards.enroll)
    return banker, clock


def test_the_timer_counts_down_warns_then_bankrupts(tmp_path: Path) -> None:
    """seed 002 l. 283: 90 s to roll; the view warns in the last 15 s; then TimeOut bankrupts the player."""
    banker, clock = _banker(tmp_path, "action_timers")
    timer = banker.view.timer
    assert timer is not None and (timer.action, timer.player, timer.warning) == ("roll", "p1", False)
    assert timer.seconds_left == 90
    clock.advance(76)
    banker.tick()
    timer = banker.view.timer
    assert timer is not None and timer.warning and timer.seconds_left == 14
    clock.advance(14)
    banker.tick()
    game = banker.game
    assert game is not None and "p1" in game.state.bankrupt
    timer = banker.view.timer
    assert timer is not None and (timer.player, timer.seconds_left, timer.warning) == ("p2", 90, False)


def test_no_timer_without_the_option(tmp_path: Path) -> None:
    banker, clock = _banker(tmp_path, "even_build")
    assert banker.view.timer is None
    clock.advance(1000)
    banker.tick()
    game = banker.game
    assert game is not None and not game.state.bankrupt


def test_the_dealt_lots_are_shown_until_the_first_command(tmp_path: Path) -> None:
    """seed 001 l. 123: every lot dealt at ✓; the view lists each player's deeds so the cards can be handed out."""
    banker, _clock = _banker(tmp_path, "deal_all_lots")
    dealt = dict(banker.view.dealt)
    assert sorted(dealt) == ["p1", "p2", "p3"]
    assert sorted(d for deeds in dealt.values() for d in deeds) == list(range(1, 29))
    assert [len(dealt[p]) for p in ("p1", "p2", "p3")] == [10, 9, 9]
    banker.press("end_turn")
    assert banker.view.dealt == ()
