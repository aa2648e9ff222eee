"""The simulator's output is pinned: three seeds of each ruleset give exactly the games recorded before the
speed work (games, turns, landings, rolls, winners, each game's turns). A faster engine or table changes no
game; a rule change that means to change games records them again with ``python -m
tests.engine.test_sim_pinned --record`` and says why in its commit."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.editions import load_edition
from engine.sim.runner import run_sim

PINNED = Path(__file__).with_name("data") / "sim_pinned.json"
CASES: tuple[tuple[str, int, int, int], ...] = (
    # edition, players, games, seed
    ("ultimate-uk", 4, 30, 1), ("ultimate-uk", 3, 30, 2), ("ultimate-us", 4, 30, 3),
    ("classic-us", 4, 30, 1), ("classic-uk", 3, 30, 2), ("classic-us", 2, 30, 3),
)
TIMING = ("seconds", "commands_per_second", "rolls_per_second")


def played(edition: str, players: int, games: int, seed: int, *, check_every: bool = False) -> dict[str, Any]:
    """What ``boardbank sim`` reports for these settings, without its timing, plus each game's turns."""
    report = run_sim(load_edition(edition), players, games, seed, check_invariants=check_every,
                     check_end=not check_every)
    out = {k: v for k, v in report.as_dict().items() if k not in TIMING}
    out["game_turns"] = report.game_turns
    return out


def _key(case: tuple[str, int, int, int]) -> str:
    return "{} players={} games={} seed={}".format(*case)


@pytest.mark.parametrize("case", CASES, ids=_key)
def test_simulator_output_is_pinned(case: tuple[str, int, int, int]) -> None:
    assert played(*case) == json.loads(PINNED.read_text())[_key(case)]


@pytest.mark.parametrize("case", [CASES[0], CASES[3]], ids=_key)
def test_checking_every_command_plays_the_same_games(case: tuple[str, int, int, int]) -> None:
    edition, players, _, seed = case
    assert played(edition, players, 8, seed, check_every=True) == played(edition, players, 8, seed)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        raise SystemExit("usage: python -m tests.engine.test_sim_pinned --record")
    PINNED.write_text(json.dumps({_key(c): played(*c) for c in CASES}, indent=None, sort_keys=True) + "\n")
    print(f"recorded {len(CASES)} cases in {PINNED}")
