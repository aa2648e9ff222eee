"""A power cut right after a roll, in positions mode: between the roll's commit and the banker's record.

The record then predates the journal and is ignored, so the banker has only the journal to go on. Every
tap script in tests/engine/taps/positions/ is played through a Banker over a journal on disk; after each
input that rolled (its events hold ``DiceRolled``), the file is copied with SQLite's backup API, the
copy's banker record is deleted (what the cut leaves), and a new Banker resumes on the copy: it must ask
for what the live one asks for (the deed to buy, the rent, the card, the tax, the pot, a Location), with
the same lander. Source: docs/flows.md "Across a power cut" and "The unit keeps the tokens".
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, Step, parse_file, run_script
from engine.events import DiceRolled
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

TAPS = sorted((Path(__file__).parent / "taps" / "positions").glob("*.tap"))


def _edition(path: Path) -> str:
    return "classic-us" if path.stem.startswith("classic_") else "ultimate-uk"


@pytest.mark.parametrize("path", TAPS, ids=[p.stem for p in TAPS])
def test_a_cut_right_after_a_roll_resumes_what_the_square_asks_for(path: Path, tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    journal = Journal.open(db)
    cards, clock = CardTable(), ManualClock()
    banker = Banker(JournalStore(journal, _edition(path)), cards, clock, seed_source=lambda: 7)
    cuts: list[tuple[int, str, object, Path]] = []

    def after(step: Step, reaction: object) -> None:
        if not any(isinstance(e, DiceRolled) for e in getattr(reaction, "events", ())):
            return
        copy = tmp_path / f"cut-{step.line}.sqlite3"
        with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
            src.backup(dst)
            dst.execute("DELETE FROM banker_record")
        cuts.append((step.line, banker.state_name, banker.view.prompt, copy))

    run_script(parse_file(path).steps, banker, clock, cards.enroll, on_step=after)
    journal.close()
    landings = [c for c in cuts if c[1] != "idle"]
    assert landings, f"{path.name}: no roll landed on a square that asks for something"
    for line, state, prompt, copy in cuts:
        with Journal.open(copy) as reopened:
            resumed = Banker(JournalStore(reopened, _edition(path)), cards, ManualClock(), seed_source=lambda: 7)
            assert (resumed.state_name, resumed.view.prompt) == (state, prompt), f"{path.name} line {line}"
