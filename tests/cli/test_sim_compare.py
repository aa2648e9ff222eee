"""``boardbank sim --compare``: arms side by side, differences in words, JSON, one line for a wrong option."""

from __future__ import annotations

import json

import pytest

from engine.sim import compare as cmp
from engine.sim.stats import Interval
from ui.cli import main as cli_main
from ui.cli.simcompare import difference_text


def test_compare_prints_the_arms_side_by_side_and_the_differences_in_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["sim", "--games", "12", "--compare", "start_money=3000", "go_salary=100,jail_fee=50"]) == 0
    out = capsys.readouterr().out.splitlines()
    header = next(line for line in out if line.lstrip().startswith("baseline"))
    assert "start_money=3000" in header and "go_salary=100,jail_fee=50" in header
    for label in ("turns to finish", "first player wins", "money on the table", "capped games"):
        assert sum(line.lstrip().startswith(label) for line in out) == 3  # the row and one line per variant
    assert "start_money=3000 vs baseline (95 % intervals):" in out
    turns = next(line for line in out if line.startswith("  turns to finish:"))
    assert " turns (" in turns and " %) ± " in turns


def test_compare_json_has_the_baseline_and_each_variant_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["sim", "--edition", "classic-uk", "--games", "4", "--json", "--seed", "5",
                     "--option", "free_parking_jackpot=on", "--compare", "start_money=2000"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["edition"], data["games"], data["seed"]) == ("classic-uk", 4, 5)
    assert data["baseline"]["options"] == {"free_parking_jackpot": True}
    (variant,) = data["variants"]
    assert variant["options"] == {"free_parking_jackpot": True, "start_money": 2000}
    for m in cmp.MEASURES:
        assert set(data["baseline"][m]) == {"value", "low", "high"}
        assert set(variant[m]) == {"value", "low", "high", "diff", "percent"}


@pytest.mark.parametrize(("item", "message"), [
    ("nope=1", "boardbank sim: unknown rule option 'nope'"),
    ("start_money=lots", "boardbank sim: option start_money expects a number or on/off"),
    ("start_money=-5", "boardbank sim: option start_money expects an amount >= 0"),
    ("start_money", "boardbank sim: expected NAME=VALUE"),
])
def test_a_wrong_option_or_value_is_one_line_and_nothing_runs(
        item: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(cmp, "play_game", played)
    assert cli_main(["sim", "--games", "3", "--compare", "go_salary=100", item]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(message) and captured.err.count("\n") == 1


@pytest.mark.parametrize(("measure", "diff", "percent", "text"), [
    ("turns", Interval(12.2, 9.1, 15.3), 5.2, "+12 turns (+5 %) ± 3"),
    ("turns", Interval(-3.0, -4.0, -2.0), -10.0, "-3 turns (-10 %) ± 1"),
    ("money", Interval(310.0, 270.0, 350.0), 12.0, "+310 money (+12 %) ± 40"),
    ("first_wins", Interval(-0.025, -0.036, -0.014), None, "-2.5 points ± 1.1"),
    ("capped", Interval(0.01, -0.01, 0.03), None, "+1.0 points ± 2.0 (no clear difference)"),
])
def test_the_difference_is_said_in_words(measure: str, diff: Interval, percent: float | None, text: str) -> None:
    assert difference_text(measure, diff, percent) == text
