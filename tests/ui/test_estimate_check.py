"""The setup screen's estimate of an option checked against a ``boardbank sim --compare`` run on other seeds
(the short version of bench/bench_estimate_check.py, which checks the presets and three options on 1,000
games): the run's figure for each measure the screen says lies inside the estimate's 95 % interval."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from engine.editions import load_edition
from engine.sim.estimate import estimate
from ui.cli.console import main

pytestmark = pytest.mark.timeout(300)
GAMES = 200


def test_the_jackpot_estimate_holds_a_separate_sim_runs_figures() -> None:
    e = estimate(load_edition("classic-uk"), 4, {"free_parking_jackpot": True}, games=GAMES, seed=1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["sim", "--edition", "classic-uk", "--players", "4", "--games", str(GAMES), "--seed", "2",
                     "--json", "--compare", "free_parking_jackpot=on"]) == 0
    run = json.loads(out.getvalue())["variants"][0]
    for measure in ("turns", "first_wins", "money"):
        diff = e.effects[measure].diff
        figure = run[measure]["diff"]["value"]
        assert diff.low <= figure <= diff.high, (measure, figure, diff)
