"""A card enrolled with a number the edition in play lacks is refused like an unknown card, nothing changed.

The card registry takes the numbers of every edition (reader/registry.py: deeds 1..28 and event cards 1..32
for the classic box), so an installation that enrolled a classic box can start an Ultimate Banking game,
whose deeds are 1..22 and event cards 1..23 (engine/editions/board-ultimate.toml): its deed 25 or event 30
must not reach the gestures (a deed 25 used to raise KeyError in the view).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.tapscript import ManualClock
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal
from reader.registry import CardRegistry


@pytest.fixture
def banker(tmp_path: Path) -> Banker:
    registry = CardRegistry.in_memory()
    for uid, kind, value in [("0A000001", "player", 1), ("0A000002", "player", 2), ("0A000003", "deed", 22),
                             ("0A000019", "deed", 25), ("0A000020", "event", 30), ("0A000021", "event", 23)]:
        registry.enroll(uid, kind, value)
    journal = Journal.open(tmp_path / "bb.sqlite3")
    b = Banker(JournalStore(journal, "ultimate-uk", {}), registry, ManualClock(), seed_source=lambda: 1)
    b.tap("0A000001")
    b.tap("0A000002")
    b.press("ok")
    assert b.view.phase == "play"
    return b


@pytest.mark.parametrize("uid", ["0A000019", "0A000020"])
def test_a_number_the_edition_lacks_is_refused(banker: Banker, uid: str) -> None:
    before = banker.view
    reaction = banker.tap(uid)
    assert reaction.error == "error.unknown_card" and dict(reaction.view.prompt.params) == dict(before.prompt.params)
    assert banker.view.state == before.state == "idle" and reaction.events == ()


@pytest.mark.parametrize(("uid", "state"), [("0A000003", "deed"), ("0A000021", "event_card")])
def test_the_editions_own_numbers_still_work(banker: Banker, uid: str, state: str) -> None:
    assert banker.tap(uid).error is None
    assert banker.view.state == state
