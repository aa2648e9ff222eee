"""The lean table's rule table per options (engine/rulesets/classic/rules.py ``rules_for``): the same
commands as ``RULES``, the wrappers left out only where their options leave them idle, and the same
refusals as ``Game`` when those options are on."""

from __future__ import annotations

import pytest

from engine import commands as c
from engine.editions import load_edition
from engine.game import Game
from engine.rulesets.classic import rent
from engine.rulesets.classic.options import Options
from engine.rulesets.classic.rules import RULES, rules_for
from engine.rulesets.classic.table import SimTable

US = load_edition("classic-us")


@pytest.mark.parametrize("options", [{}, {"second_text": True}, {"positions": True},
                                     {"positions": True, "build_before_roll": True}])
def test_the_table_of_any_options_has_every_command(options: dict[str, object]) -> None:
    assert rules_for(Options.from_mapping(options)).keys() == RULES.keys()


def test_default_options_run_the_bare_rules_and_both_options_the_full_table() -> None:
    assert rules_for(Options())[c.PayRent] == (rent.check_rent, rent.do_rent)
    assert RULES[c.PayRent] != (rent.check_rent, rent.do_rent)
    both = rules_for(Options.from_mapping({"positions": True, "build_before_roll": True}))
    assert {cls: len(rule) for cls, rule in both.items()} == {cls: len(rule) for cls, rule in RULES.items()}
    assert both[c.PayRent][0] is not rent.check_rent and both[c.PayRent][1] is not rent.do_rent


@pytest.mark.parametrize("options", [{}, {"positions": True}, {"second_text": True}])
def test_the_lean_table_refuses_as_the_game(options: dict[str, object]) -> None:
    """A landing command off the lander's square: refused alike by the lean table and ``Game`` (with
    ``positions`` for standing elsewhere), accepted alike otherwise."""
    start = c.StartGame(tuple(c.PlayerSpec(p, p, "") for p in ("p1", "p2")), options, 3)
    lean, full = SimTable(US), Game(US)
    lean.apply(start)
    full.apply(start)
    keys = []
    for cmd in (c.BuyDeed("p1", 39), c.DeclineDeed("p1", 1), c.BuyDeed("p2", 3), c.PassGo("p1")):
        assert lean.check(cmd) == full.check(cmd), cmd
        keys.append(getattr(lean.check(cmd), "key", None))
    assert ("not_on_square" in keys) == bool(options.get("positions"))
