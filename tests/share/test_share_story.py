"""The phone page says each payment with the story module's sentence and explains it with its receipt (the
rule, the arithmetic and where the rule is written), through ui/share/told.py: a scripted classic game's rents
and an Ultimate game's payments, as the page's stream would send them, in en, ru and ja."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import events as ev
from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, parse_file, run_script
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal
from ui.share.render import event_message
from ui.story.names import Names

TAPS = Path(__file__).parents[1] / "engine" / "taps"


def play(path: Path, edition: str, tmp_path: Path) -> Banker:
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(Journal.open(tmp_path / "bb.sqlite3"), edition), cards, clock,
                    seed_source=lambda: 7)
    run_script(parse_file(path).steps, banker, clock, cards.enroll)
    return banker


@pytest.mark.parametrize("lang", ["en", "ru", "ja"])
@pytest.mark.parametrize(("script", "edition"), [("classic/rent.tap", "classic-us"), ("classic/utility.tap", "classic-us"),
                                                 ("rent.tap", "ultimate-uk")])
def test_each_rent_on_the_page_is_the_story_sentence_with_its_receipt(script: str, edition: str, lang: str,
                                                                      tmp_path: Path) -> None:
    banker = play(TAPS / script, edition, tmp_path)
    game, view = banker.game, banker.view
    assert game is not None
    names = Names.from_view(view, lang)
    rents = [e for e in game.events if isinstance(e, ev.RentPaid)]
    assert rents, "the script pays no rent"
    for event in rents:
        said = event_message(event, view, lang, game.events)
        assert said["kind"] == "rent"
        assert names.money(event.amount) in said["text"], said
        assert names.player(event.payer) in said["text"] and names.player(event.owner) in said["text"], said
        # the receipt is the story's: the rule's arithmetic and its source, not the entry's bare figures
        assert names.money(event.amount) in said["receipt"] or str(event.amount) in said["receipt"], said
        assert ".md" in said["receipt"] or "seed" in said["receipt"], said
        assert "receipt." not in said["receipt"] and "story." not in said["text"], said
