"""The dice pad is one shared handler module (engine/banker/gestures/dice.py) serving both rulesets the same
way (docs/flows.md "The unit keeps the tokens": two touches on the 1..6 pad, or Roll; a pad answer that is not
1..6 or ``roll`` is ``error.bad_die`` and changes nothing).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.binding import handler_functions
from engine.banker.gestures import SHARED_HANDLERS, dice
from engine.banker.machine import Banker
from engine.banker.plugins import ruleset_part
from engine.banker.tapscript import CardTable, ManualClock, parse, run_script
from engine.events import DiceRolled
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

PAD = ("die_partial", "add_die", "dice_complete", "can_roll", "do_roll")
EDITIONS = {"ultimate": "ultimate-uk", "classic": "classic-us"}
SETUP = ("# source: docs/flows.md\ncard 000000A1 player 1\ncard 000000A2 player 2\ntap 000000A1\ntap 000000A2\n"
         "choose option=positions:on\npress ok\n")


def started(tmp_path: Path, ruleset: str, seed: int = 7, name: str = "bb") -> Banker:
    """A banker over a fresh journal ``name`` with two players, the unit keeping the tokens."""
    cards = CardTable()
    store = JournalStore(Journal.open(tmp_path / f"{name}.sqlite3"), EDITIONS[ruleset])
    banker = Banker(store, cards, ManualClock(), seed_source=lambda: seed)
    run_script(parse(SETUP).steps, banker, ManualClock(), cards.enroll)
    assert banker.game is not None and banker.game.edition.ruleset == ruleset
    return banker


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_the_pad_handlers_are_the_shared_ones(ruleset: str) -> None:
    """No plug-in defines its own pad handler, and both plug-ins' rows name the shared ones."""
    _, handlers = ruleset_part(ruleset)
    own = handler_functions(handlers)
    assert not set(PAD) & set(own)
    shared = handler_functions(SHARED_HANDLERS)
    assert all(shared[name].__module__ == dice.__name__ for name in PAD)


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_two_touches_roll_those_dice(ruleset: str, tmp_path: Path) -> None:
    banker = started(tmp_path, ruleset)
    first = banker.choose("2")
    assert first.error is None and first.events == () and banker.gesture.choices == [2]
    second = banker.choose("3")
    (rolled,) = [e for e in second.events if isinstance(e, DiceRolled)]
    assert (rolled.player, rolled.die1, rolled.die2, rolled.start, rolled.end) == ("p1", 2, 3, 0, 5)


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_a_bad_pad_answer_is_refused_and_changes_nothing(ruleset: str, tmp_path: Path) -> None:
    banker = started(tmp_path, ruleset)
    assert banker.game is not None
    before = len(banker.game.events)
    for answer in ("7", "0", "x" * 60):
        reaction = banker.choose(answer)
        assert reaction.error == "error.bad_die" and reaction.events == ()
        assert reaction.params["value"] == answer[:40]  # a long answer is cut to 40 characters
    banker.choose("4")
    reaction = banker.choose("roll")  # Roll is the whole roll: not after a first die
    assert reaction.error == "error.bad_die" and banker.gesture.choices == [4]
    assert len(banker.game.events) == before


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_the_units_roll_is_seeded(ruleset: str, tmp_path: Path) -> None:
    """Roll: the same seed source, game and event count give the same two dice."""
    rolls = []
    for name in ("one", "two"):
        banker = started(tmp_path, ruleset, 7, name)
        reaction = banker.choose("roll")
        (rolled,) = [e for e in reaction.events if isinstance(e, DiceRolled)]
        assert 1 <= rolled.die1 <= 6 and 1 <= rolled.die2 <= 6 and rolled.player == "p1"
        rolls.append((rolled.die1, rolled.die2))
    assert rolls[0] == rolls[1]
