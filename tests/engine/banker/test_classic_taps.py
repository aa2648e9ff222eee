"""Every classic tap script (tests/engine/taps/classic/) played through a real Banker over a journal on disk.

Each script names its rule source (``# source:`` docs/rules-classic.md N); after every step the engine's
invariants must hold (docs/rules-classic.md 11), and every ``expect`` of the script must hold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, Step, parse_file, run_script
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

TAPS = sorted((Path(__file__).parents[1] / "taps" / "classic").glob("*.tap"))


def play(path: Path, tmp_path: Path, edition: str = "classic-us") -> Banker:
    script = parse_file(path)
    assert script.sources and all("rules-classic.md" in s or "rules.md" in s for s in script.sources), \
        f"{path.name} must name its rule source with '# source: docs/rules-classic.md N'"
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal, edition), cards, clock, seed_source=lambda: 7)

    def healthy(step: Step, reaction: object) -> None:
        game = banker.game
        if game is not None:
            assert game.invariants() == [], f"{path.name} line {step.line}: {game.invariants()}"

    run_script(script.steps, banker, clock, cards.enroll, on_step=healthy)
    return banker


def test_there_is_a_script_per_gesture() -> None:
    names = {p.stem for p in TAPS}
    for gesture in ("buy_decline", "rent", "utility", "build", "sell", "mortgage", "tax", "cards", "jail_card",
                    "trade", "jail", "debt", "bankrupt_bank", "short_game", "time_limit", "whole_game"):
        assert gesture in names, f"no tests/engine/taps/classic/{gesture}.tap"


@pytest.mark.parametrize("path", TAPS, ids=[p.stem for p in TAPS])
def test_classic_script(path: Path, tmp_path: Path) -> None:
    play(path, tmp_path)
