"""Every tap script of both rulesets told: each money entry's sentence says its amount in en, ru and ja, and
its receipt comes to that amount (the table-driven check over every money event the scripted games make)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine import events as ev
from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, parse_file, run_script
from engine.receipts import money_of, walk
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal
from ui.story.names import Names
from ui.story.receipts import receipt_text
from ui.story.sentences import sentence

TAPS = Path(__file__).parents[1] / "engine" / "taps"
SCRIPTS = [(p, "ultimate-uk") for p in sorted(TAPS.glob("*.tap"))] + \
    [(p, "classic-us") for p in sorted((TAPS / "classic").glob("*.tap"))] + \
    [(p, "classic-us" if p.stem.startswith("classic") else "ultimate-uk") for p in sorted((TAPS / "positions").glob("*.tap"))]
RULES: Counter[str] = Counter()


def play(path: Path, edition: str, tmp_path: Path) -> Banker:
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal, edition), cards, clock, seed_source=lambda: 7)
    run_script(parse_file(path).steps, banker, clock, cards.enroll)
    return banker


@pytest.mark.parametrize(("path", "edition"), SCRIPTS, ids=[f"{p.parent.name}/{p.stem}" for p, _ in SCRIPTS])
def test_each_money_entry_of_a_scripted_game_is_told_and_explained(path: Path, edition: str, tmp_path: Path) -> None:
    game = play(path, edition, tmp_path).game
    if game is None:
        pytest.skip("the script starts no game")
    names = {lang: Names.from_game(game, lang) for lang in ("en", "ru", "ja")}
    for event, made in walk(game.edition, game.events):
        amount = money_of(event)
        for lang, n in names.items():
            text = sentence(event, n, made)
            if isinstance(event, ev.PlayerBankrupt):  # all the cash, and the Bank's share beside it
                assert n.money(event.paid) in text and (not event.covered or n.money(event.covered) in text), text
            elif amount is not None:
                assert n.money(amount) in text, (lang, event, text)
            if made is not None:
                assert "receipt." not in receipt_text(made, n)
        if amount:
            assert made is not None, f"no receipt for {event}"
            assert made.amount == amount, (event, made)
            RULES[made.rule] += 1


def test_the_scripts_explain_many_kinds_of_amount() -> None:
    if not RULES:
        pytest.skip("run with the scripted games")
    print(sorted(RULES))
    assert len(RULES) >= 15, RULES
