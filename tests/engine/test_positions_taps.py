"""Every tap script in tests/engine/taps/positions/ (the unit keeps the tokens) played through a real Banker
over a journal on disk; each names its rule source, and after every step the engine's invariants hold and
the journal's replay equals the live state (docs/flows.md "The unit keeps the tokens")."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, Step, parse, parse_file, run_script
from engine.game import Game
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

TAPS = sorted((Path(__file__).parent / "taps" / "positions").glob("*.tap"))


def play(path: Path, tmp_path: Path, edition: str | None = None) -> Banker:
    script = parse_file(path)
    assert script.sources, f"{path.name} must name its rule source with '# source:'"
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock = ManualClock()
    cards = CardTable()
    if edition is None and path.stem.startswith("classic_"):
        edition = "classic-us"
    store = JournalStore(journal) if edition is None else JournalStore(journal, edition)
    banker = Banker(store, cards, clock, seed_source=lambda: 7)

    def healthy(step: Step, reaction: object) -> None:
        game = banker.game
        if game is not None:
            assert game.invariants() == [], f"{path.name} line {step.line}: {game.invariants()}"
            assert Game.replay(game.edition, game.events).state == game.state

    run_script(script.steps, banker, clock, cards.enroll, on_step=healthy)
    return banker


def test_there_are_scripts() -> None:
    assert len(TAPS) >= 2


@pytest.mark.parametrize("path", TAPS, ids=[p.stem for p in TAPS])
def test_positions_tap_script(path: Path, tmp_path: Path) -> None:
    banker = play(path, tmp_path)
    assert banker.game is not None and banker.game.state.options.positions


def test_a_power_cut_after_the_roll_resumes_the_landing(tmp_path: Path) -> None:
    """docs/flows.md "Across a power cut": the landing of a roll is engine state, so a unit switched off right
    after the journal's commit resumes with the buy (or the rent) due, the tokens where they were."""
    script = parse(
        "# source: docs/flows.md\ncard 000000A1 player 1\ncard 000000A2 player 2\ntap 000000A1\ntap 000000A2\n"
        "choose option=positions:on\npress ok\nchoose 2\nchoose 3\nexpect state buy\n")
    journal = Journal.open(tmp_path / "bb.sqlite3")
    cards = CardTable()
    banker = Banker(JournalStore(journal), cards, ManualClock(), seed_source=lambda: 7)
    run_script(script.steps, banker, ManualClock(), cards.enroll)
    again = Banker(JournalStore(journal), cards, ManualClock(), seed_source=lambda: 7)  # the power came back
    assert again.state_name == "buy" and again.gesture.player == "p1" and again.gesture.deed == 3
    assert [p.position for p in again.view.players] == [5, 0]
    assert again.press("ok").error is None and again.game is not None and again.game.state.owner[3] == "p1"
