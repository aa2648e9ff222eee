"""The classic simulator: whole games by the rules, determinism, counts, the lean table, the CLI flags."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.editions import load_edition
from engine.game import Game
from engine.rulesets.classic.sim import ClassicRunner
from engine.sim.runner import derive_seed, run_sim
from ui.cli import main as cli_main

US = load_edition("classic-us")
TIMING = ("seconds", "commands_per_second", "rolls_per_second")


def _without_timing(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in TIMING}


def test_games_end_by_bankruptcy_or_cap_without_violations() -> None:
    """Every game ends (last player standing) or reaches the cap; the invariants hold after every command."""
    report = run_sim(US, 4, 40, seed=3)
    assert report.invariant_violations == 0, report.problems
    assert report.completed + report.capped == 40
    assert report.completed >= 30
    assert sum(report.landings) + report.in_jail == report.rolls


def test_runs_are_deterministic_apart_from_timing() -> None:
    a = run_sim(US, 3, 15, seed=7, clock=iter(range(10**6)).__next__, check_invariants=False, check_end=True)
    b = run_sim(US, 3, 15, seed=7, check_invariants=False, check_end=True)
    assert _without_timing(a.as_dict()) == _without_timing(b.as_dict())
    assert _without_timing(run_sim(US, 3, 15, seed=8).as_dict()) != _without_timing(a.as_dict())


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_lean_table_plays_the_same_game_as_the_journaled_game(seed: int) -> None:
    """The simulator's lean table and ``Game`` give the same game, command for command."""
    lean = ClassicRunner(US, 4, derive_seed(seed, 0), check_invariants=False)
    full = ClassicRunner(US, 4, derive_seed(seed, 0), game=Game(US), check_invariants=False)
    a, b = lean.play(), full.play()
    assert (a.turns, a.commands, a.rolls, a.landings, a.in_jail, a.winner) == \
        (b.turns, b.commands, b.rolls, b.landings, b.in_jail, b.winner)
    assert lean.game.state == full.game.state
    assert Game.replay(US, full.game.events).state == full.game.state  # type: ignore[union-attr]


def test_jail_strategies_differ() -> None:
    """Staying in jail to roll for doubles leaves more rolls ending In Jail than leaving at once."""
    short = run_sim(US, 4, 30, seed=2, jail_strategy="short", check_invariants=False)
    long = run_sim(US, 4, 30, seed=2, jail_strategy="long", check_invariants=False)
    assert long.in_jail / long.rolls > short.in_jail / short.rolls


def test_turn_cap_counts_apart() -> None:
    report = run_sim(US, 4, 3, seed=1, turn_cap=5)
    assert report.capped == 3 and report.completed == 0
    assert report.as_dict()["capped"] == 3


@pytest.mark.parametrize("options", [{"short_game": True}, {"free_parking_jackpot": True, "income_tax_choice": True},
                                     {"house_sell_price": 100, "decliner_may_bid": False, "houses_in_bank": 12},
                                     {"time_limit": 60, "late_game_rent_tax": True, "rent_must_be_claimed": True}])
def test_variants_play_without_violations(options: dict[str, object]) -> None:
    report = run_sim(US, 4, 8, seed=4, options=options)
    assert report.invariant_violations == 0, report.problems
    assert report.completed + report.capped == 8


@pytest.mark.parametrize("edition", ["classic-uk", "classic-ru"])
def test_other_editions_play(edition: str) -> None:
    report = run_sim(load_edition(edition), 2, 5, seed=4)
    assert report.invariant_violations == 0 and report.completed + report.capped == 5


def test_cli_json_keys_and_check_end(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "--edition", "classic-us", "--games", "3", "--seed", "2", "--json"]
    assert cli_main([*argv, "--check", "end", "--max-turns", "50"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"capped", "rolls", "rolls_per_second"} <= set(out)
    assert out["invariant_violations"] == 0
    assert cli_main(["sim", "--edition", "ultimate-uk", "--games", "2", "--json"]) == 0
    assert not {"capped", "rolls", "rolls_per_second"} & set(json.loads(capsys.readouterr().out))


def test_cli_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "landings.png"
    assert cli_main(["sim", "--edition", "classic-us", "--games", "4", "--plot", str(picture)]) == 0
    assert picture.stat().st_size > 10_000


SEED_RULES = [{"second_text": True}, {"standard_text": True}, {"online_edition": True}, {"deal_all_lots": True},
              {"pay_debt_with_deeds": True, "bank_pays_creditor": True}, {"one_house_per_set": True},
              {"mortgaged_set_double_rent": False, "sell_mortgaged": False, "lift_at_full_value": True}]
"""The seeds' remaining rules as the simulator plays them (docs/rules-classic.md 2, 12)."""


@pytest.mark.parametrize("options", SEED_RULES, ids=lambda o: ",".join(o))
def test_seed_rules_play_without_violations_and_replay(options: dict[str, object]) -> None:
    """Every option and preset of the seeds' remaining rules: the invariants after every command, the lean
    table and ``Game`` play the same game, and the journal replays to the same state."""
    report = run_sim(US, 4, 6, seed=11, options=options)
    assert report.invariant_violations == 0, report.problems
    assert report.completed + report.capped == 6
    for i in range(2):
        lean = ClassicRunner(US, 4, derive_seed(11, i), options=options, check_invariants=False)
        full = ClassicRunner(US, 4, derive_seed(11, i), options=options, game=Game(US), check_invariants=False)
        a, b = lean.play(), full.play()
        assert not a.violations and (a.turns, a.commands, a.winner) == (b.turns, b.commands, b.winner)
        assert lean.game.state == full.game.state
        assert Game.replay(US, full.game.events).state == full.game.state  # type: ignore[union-attr]


def test_deeds_change_hands_in_debt_with_the_option() -> None:
    """The bots hand deeds to a player creditor with ``pay_debt_with_deeds`` (seed 000 l. 73)."""
    full = ClassicRunner(US, 4, derive_seed(3, 0), options={"pay_debt_with_deeds": True}, game=Game(US),
                         check_invariants=False)
    full.play()
    assert any(type(e).__name__ == "DebtPaidInDeeds" for e in full.game.events)  # type: ignore[union-attr]


def test_the_events_that_drop_the_kept_buildings_are_those_whose_fold_changes_a_level() -> None:
    """The runner keeps a bot's None from build_choice and the supply used until a command's events change
    a street's buildings (sim_send._LEVEL_EVENTS): exactly the events whose fold function writes
    ``s.level`` (read from the fold's source, so a new such event cannot be missed)."""
    import ast

    from engine.rulesets.classic import sim_send
    from engine.rulesets.classic.fold import FOLD

    root = Path(__file__).resolve().parents[3] / "engine" / "rulesets" / "classic"
    writers = set()
    for name in ("fold.py", "variant_fold.py", "moves.py"):
        for node in ast.walk(ast.parse((root / name).read_text())):
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(a, ast.Attribute) and a.attr == "level" and isinstance(a.value, ast.Name)
                    and a.value.id == "s" for a in ast.walk(node)):
                writers.add(node.name)
    assert writers, "no fold function reads s.level: the source was not found"
    assert {cls for cls, fold in FOLD.items() if fold.__name__ in writers} == set(sim_send._LEVEL_EVENTS)


@pytest.mark.parametrize("options", [{}, {"free_parking_jackpot": True}, {"pay_debt_with_deeds": True},
                                     {"late_game_rent_tax": True}, {"bank_pays_creditor": True}])
def test_the_commands_the_runner_looks_past_change_no_building_deed_or_mortgage(
        options: dict[str, object]) -> None:
    """After a command of sim_send._KEEPS the runner keeps what it knew of the buildings and the holdings
    (it scans no event and drops nothing): over whole games through ``Game``, every such command (debts it
    opened and settled apart) leaves every street's buildings, every deed's holder and every mortgage as
    they were, and emits none of the events that change a building."""
    from engine.rulesets.classic import sim_send

    seen: Counter[str] = Counter()
    for seed in range(4):
        game = Game(US)

        def apply(cmd: Any, game: Game = game) -> Any:
            s = game.state
            before = (dict(s.level), dict(s.owner), s.mortgaged)
            events = game.apply(cmd)
            if type(cmd) in sim_send._KEEPS:
                seen[type(cmd).__name__] += 1
                assert (dict(s.level), dict(s.owner), s.mortgaged) == before, cmd
                assert not any(type(e) in sim_send._LEVELS for e in events), cmd
            return events

        ClassicRunner(US, 4, derive_seed(11, seed), options=options, game=game, apply=apply,
                      check_invariants=False).play()
    assert set(seen) == {cls.__name__ for cls in sim_send._KEEPS}, seen
