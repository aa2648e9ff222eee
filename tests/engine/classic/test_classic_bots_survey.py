"""A bot's ``survey`` (one pass over the street sets, what the simulator asks at the start of a turn) says
exactly what ``complete_sets`` and ``trade_offer`` say, for every player, from many states of whole games."""

from __future__ import annotations

import random
from typing import Any

from engine.editions import load_edition
from engine.rulesets.classic.bots import Bot
from engine.rulesets.classic.sim import ClassicRunner
from engine.rulesets.classic.table import SimTable


def test_survey_is_complete_sets_and_trade_offer() -> None:
    offers = sets = 0
    for edition, seed in (("classic-us", 1), ("classic-uk", 2), ("classic-us", 3)):
        ed = load_edition(edition)
        table = SimTable(ed)
        rng = random.Random(seed)
        bots = [Bot(f"p{i}", build_reserve=r) for i, r in ((1, 300), (2, 0), (3, 300), (4, 900))]

        def apply(cmd: Any, table: SimTable = table, rng: random.Random = rng, bots: list[Bot] = bots,
                  ed: Any = ed) -> Any:
            nonlocal offers, sets
            events = table.apply(cmd)
            s = table.state
            if s.phase != "setup" and rng.random() < 0.3:
                for bot in bots:
                    got = bot.survey(s, ed)
                    assert got == (bot.complete_sets(s, ed), bot.trade_offer(s, ed))
                    offers += got[1] is not None
                    sets += bool(got[0])
            return events

        ClassicRunner(ed, 4, seed, game=table, apply=apply, check_invariants=False).play()
    assert offers > 20 and sets > 20, (offers, sets)
