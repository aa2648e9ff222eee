"""The simulator's lean table (engine/rulesets/classic/table.py) and its sender (sim_send.py) take no
shortcut past a rule: a command checked and then applied is checked again once anything else was applied;
the light events carry the events' own fields (that they fold to the state ``Game`` folds:
test_classic_sim.py); the play's hot path (``send_kept``) carries only the commands whose rules change no
building, holder or mortgage."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from engine import commands as c
from engine import events as ev
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.rulesets.classic import sim_send
from engine.rulesets.classic.sim import ClassicRunner
from engine.rulesets.classic.table import SimTable, light
from engine.sim.results import derive_seed

US = load_edition("classic-us")
START = c.StartGame(tuple(c.PlayerSpec(p, p, "") for p in ("p1", "p2")), {}, 3)


def test_a_checked_command_is_checked_again_after_another_command() -> None:
    """``check`` accepts p1's end of turn; once that turn has ended (another command applied), applying
    the very same command object is refused, as it would be unchecked."""
    table = SimTable(US)
    table.apply(START)
    end = c.EndTurn(table.state.turn or "")
    assert table.check(end) is None
    table.apply(end)  # the turn passes: the same command is now the wrong player's
    with pytest.raises(IllegalCommand) as refused:
        table.apply(end)
    assert refused.value.key == "not_your_turn"


def test_a_refused_check_leaves_nothing_to_skip() -> None:
    """A check that refuses leaves the next apply of that command to check again (and refuse)."""
    table = SimTable(US)
    table.apply(START)
    other = "p2" if table.state.turn == "p1" else "p1"
    wrong = c.EndTurn(other)
    assert table.check(wrong) is not None
    with pytest.raises(IllegalCommand):
        table.apply(wrong)


def test_light_events_have_the_events_own_fields() -> None:
    """A light event is the event's fields but the journal's two (``seq``, ``command``), in order."""
    for cls in (ev.TurnEnded, ev.RentPaid, ev.SalaryPaid):
        names = [f.name for f in fields(cls)]
        assert names[:2] == ["seq", "command"]
        assert list(light(cls)._fields) == names[2:]


@pytest.mark.skipif(not sim_send.__file__.endswith(".py"), reason="a compiled runner's methods cannot be spied on")
def test_the_hot_path_carries_only_commands_that_change_no_holding() -> None:
    """Every command the play sends through ``send_kept`` is of ``_KEEPS`` (whose rules a test in
    test_classic_sim.py holds to changing no building, holder or mortgage), over whole games."""
    kinds: set[str] = set()
    for i in range(3):
        runner = ClassicRunner(US, 4, derive_seed(5, i), check_invariants=False)
        kept = runner.send_kept

        def spy(cmd: Any, kept: Any = kept) -> Any:
            assert type(cmd) in sim_send._KEEPS, cmd
            kinds.add(type(cmd).__name__)
            return kept(cmd)

        runner.send_kept = spy  # type: ignore[method-assign]
        runner.play()
    assert kinds == {"PassGo", "PayRent", "EndTurn"}
