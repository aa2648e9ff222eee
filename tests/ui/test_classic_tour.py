"""The screenshot tour of the classic screens (tests/ui/classic_tour.tap) stays a valid game: played through a
real banker its ``expect`` lines hold and the game ends (docs/rules-classic.md 2-9), so
``boardbank run --script tests/ui/classic_tour.tap --screenshots DIR`` shows what its comments say."""

from __future__ import annotations

from pathlib import Path

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, parse_file, run_script
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

TOUR = Path(__file__).with_name("classic_tour.tap")


def test_the_tour_plays_to_the_end(tmp_path: Path) -> None:
    script = parse_file(TOUR)
    assert any("rules-classic.md" in s for s in script.sources)
    journal = Journal.open(tmp_path / "tour.sqlite3")
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal, "classic-uk"), cards, clock, seed_source=lambda: 7)
    states: set[str] = set()
    run_script(script.steps, banker, clock, cards.enroll, on_step=lambda step, reaction: states.add(banker.view.state))
    assert banker.view.phase == "over"
    assert {"build", "own", "tax", "dice", "trade", "trade_open", "debt"} <= states, states
    journal.close()
