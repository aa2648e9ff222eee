"""Every tap script in tests/engine/taps/ played through a real Banker over a journal on disk.

Each script names its rule source (``# source:``); after every command the engine's invariants must hold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker import Banker
from engine.banker_store import JournalStore
from engine.journal import Journal
from engine.tapscript import CardTable, ManualClock, Step, parse_file, run_script

TAPS = sorted((Path(__file__).parent / "taps").glob("*.tap"))


def play(path: Path, tmp_path: Path) -> Banker:
    script = parse_file(path)
    assert script.sources, f"{path.name} must name its rule source with '# source:'"
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock = ManualClock()
    cards = CardTable()
    banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 7)

    def healthy(step: Step, reaction: object) -> None:
        game = banker.game
        if game is not None:
            assert game.invariants() == [], f"{path.name} line {step.line}: {game.invariants()}"

    run_script(script.steps, banker, clock, cards.enroll, on_step=healthy)
    return banker


def test_there_are_scripts() -> None:
    assert len(TAPS) >= 12


@pytest.mark.parametrize("path", TAPS, ids=[p.stem for p in TAPS])
def test_script(path: Path, tmp_path: Path) -> None:
    play(path, tmp_path)
