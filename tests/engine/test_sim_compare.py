"""Paired comparisons and estimates: every arm on the same seeds, options checked before any game, budgets."""

from __future__ import annotations

import pytest

from engine.editions import load_edition
from engine.errors import OptionError
from engine.rulesets.classic.sim import TURNS_PER_MINUTE
from engine.sim import compare as cmp
from engine.sim import estimate as est
from engine.sim.compare import Estimate, canonical_options, compare, effects, estimate_of
from engine.sim.estimate import MIN_GAMES, estimate, games_for_budget
from engine.sim.results import SimError, derive_seed
from engine.sim.runner import run_sim

UK = load_edition("ultimate-uk")
CLASSIC = load_edition("classic-uk")


def test_every_arm_plays_the_same_seeds() -> None:
    base, (variant, other) = compare(UK, 4, 6, 7, {}, [{"start_money": 2000}, {"go_salary": 100}])
    seeds = [derive_seed(7, i) for i in range(6)]
    assert base.seeds == variant.seeds == other.seeds == seeds


def test_the_baseline_plays_the_plain_simulators_games() -> None:
    base, _ = compare(CLASSIC, 3, 5, 2, {}, [{"start_money": 1000}])
    assert base.turns == run_sim(CLASSIC, 3, 5, 2, check_invariants=False).game_turns


def test_a_variant_equal_to_the_baseline_differs_by_nothing_at_all() -> None:
    """Paired games: the same rules on the same seeds are the same games, so every difference is 0 with no
    width (independent runs would differ by chance)."""
    base, (same,) = compare(UK, 4, 10, 3, {}, [{"auction": True}])  # True is the default
    for e in effects(base, same).values():
        assert (e.diff.value, e.diff.low, e.diff.high) == (0, 0, 0)


def test_more_start_money_makes_ultimate_games_clearly_longer() -> None:
    base, (rich,) = compare(UK, 4, 60, 1, {}, [{"start_money": 3000}])
    turns = effects(base, rich)["turns"]
    assert turns.diff.low > 0 and turns.percent is not None and turns.percent > 5


def test_money_on_the_table_counts_the_free_parking_pot() -> None:
    arm = cmp.Arm({})
    cmp.play_game(CLASSIC, 4, derive_seed(1, 0), {"free_parking_jackpot": True}, arm)
    assert len(arm.money) == 1 and arm.money[0] >= 0
    assert arm.first_wins[0] in (0, 1) and arm.capped[0] in (0, 1)


@pytest.mark.parametrize(("variant", "message"), [({"nope": 1}, "unknown rule option 'nope'"),
                                                  ({"start_money": -5}, "start_money"),
                                                  ({"auction": 3}, "true/false")])
def test_a_wrong_variant_is_refused_before_any_game(monkeypatch: pytest.MonkeyPatch, variant: dict[str, object],
                                                    message: str) -> None:
    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(cmp, "play_game", played)
    with pytest.raises(OptionError, match=message):
        compare(UK, 4, 5, 1, {}, [{"start_money": 2000}, variant])  # type: ignore[list-item]


def test_too_many_players_for_the_options_is_refused_with_the_hint() -> None:
    with pytest.raises(SimError, match="max_players=6"):
        compare(UK, 6, 5, 1, {}, [{}])


def test_the_canonical_option_set_drops_defaults_and_sorts() -> None:
    got = canonical_options(UK, {"start_money": 2000, "auction": True, "go_salary": 100})
    assert list(got.items()) == [("go_salary", 100), ("start_money", 2000)]


def test_an_estimate_of_n_games_says_n_and_survives_json() -> None:
    e = estimate(UK, 3, {"start_money": 2000, "auction": True}, games=8)
    assert e.games == 8 and e.options == {"start_money": 2000} and e.edition == "ultimate-uk"
    assert set(e.effects) == set(cmp.MEASURES)
    assert Estimate.from_dict(e.as_dict()).as_dict() == e.as_dict()


def test_an_estimate_with_a_clock_stops_when_the_budget_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter(range(10**6))
    e = estimate(UK, 4, {"go_salary": 100}, budget_s=MIN_GAMES + 5, clock=lambda: float(next(ticks)))
    assert MIN_GAMES <= e.games <= MIN_GAMES + 6


def test_an_estimate_never_plays_fewer_games_than_the_minimum() -> None:
    e = estimate(UK, 2, {"go_salary": 100}, budget_s=0.001, clock=iter(range(0, 10**6, 100)).__next__)
    assert e.games == MIN_GAMES


def test_the_budget_picks_the_games_count_from_the_measured_rate() -> None:
    assert games_for_budget(UK, 4, 10.0) == int(10 * est.BUDGET_SHARE * est.GAMES_PER_SECOND["ultimate"] / 2)
    assert games_for_budget(UK, 8, 10.0) < games_for_budget(UK, 4, 10.0)
    assert games_for_budget(CLASSIC, 4, 0.01) == MIN_GAMES
    assert games_for_budget(CLASSIC, 4, 10**6) == est.MAX_GAMES
    with pytest.raises(SimError):
        games_for_budget(UK, 4, 0)


def test_an_estimate_takes_games_or_a_budget_not_both() -> None:
    with pytest.raises(SimError, match="either"):
        estimate(UK, 4, {}, games=5, budget_s=1.0)
    with pytest.raises(SimError, match="either"):
        estimate(UK, 4, {})


def test_effects_refuse_arms_of_other_seeds() -> None:
    a, (b,) = compare(UK, 2, 2, 1, {}, [{}])
    c, _ = compare(UK, 2, 2, 9, {}, [])
    with pytest.raises(SimError, match="same seeds"):
        estimate_of(UK, 2, a, c)
    assert estimate_of(UK, 2, a, b).games == 2


def test_a_time_limited_classic_game_ends_when_its_time_is_up() -> None:
    report = run_sim(CLASSIC, 4, 6, 3, options={"time_limit": 30})
    assert report.completed == 6 and report.capped == 0 and report.invariant_violations == 0, report.problems
    assert max(report.game_turns) <= 30 * TURNS_PER_MINUTE == 60
    base, (timed,) = compare(CLASSIC, 4, 6, 3, {}, [{"time_limit": 30}])
    assert effects(base, timed)["turns"].diff.high < 0  # the length with a time limit: shorter


def test_a_preset_and_the_values_it_sets_are_one_canonical_option_set() -> None:
    preset = canonical_options(CLASSIC, {"second_text": True})
    assert preset == canonical_options(CLASSIC, {"second_text": True, "one_house_per_set": True})
    assert preset["one_house_per_set"] is True and preset["house_sell_price"] == 100
