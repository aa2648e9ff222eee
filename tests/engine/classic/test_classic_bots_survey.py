"""A bot's ``holdings`` and ``offer_from`` (what the simulator asks at the start of a turn) say exactly what
``complete_sets`` and ``trade_offer`` say, for every player, from many states of whole games, and what the
simulator keeps of ``holdings`` is never stale."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.editions import load_edition
from engine.rulesets.classic.bots import Bot
from engine.rulesets.classic.sim import ClassicRunner
from engine.rulesets.classic.table import SimTable


def test_holdings_and_offer_from_are_complete_sets_and_trade_offer() -> None:
    """``Bot.holdings`` (the bot's own deeds alone) and ``offer_from`` (the offer from them now) together
    say exactly what ``complete_sets`` and ``trade_offer`` say, for every player, from many states of whole
    games (the simulator asks them at the start of a turn)."""
    offers = sets = lacking = 0
    for edition, seed in (("classic-us", 1), ("classic-uk", 2), ("classic-us", 3), ("classic-us", 4),
                          ("classic-uk", 5), ("classic-us", 6)):
        ed = load_edition(edition)
        table = SimTable(ed)
        rng = random.Random(seed)
        bots = [Bot(f"p{i}", build_reserve=r) for i, r in ((1, 300), (2, 0), (3, 300), (4, 900))]

        def apply(cmd: Any, table: SimTable = table, rng: random.Random = rng, bots: list[Bot] = bots,
                  ed: Any = ed) -> Any:
            nonlocal offers, sets, lacking
            events = table.apply(cmd)
            s = table.state
            if s.phase != "setup" and rng.random() < 0.3:
                for bot in bots:
                    whole, streets = bot.holdings(s, ed)
                    got = (whole, bot.offer_from(s, ed, streets))
                    assert got == (bot.complete_sets(s, ed), bot.trade_offer(s, ed))
                    offers += got[1] is not None
                    sets += bool(got[0])
                    lacking += bool(streets)
            return events

        ClassicRunner(ed, 4, seed, game=table, apply=apply, check_invariants=False).play()
    assert offers > 40 and sets > 20 and lacking > 50, (offers, sets, lacking)


class _Audit(random.Random):
    """The runner's dice, which check at every roll that each bot's kept holdings (the runner's ``_held``)
    are what ``Bot.holdings`` says now, that a bot's kept None from ``build_choice`` (the runner's ``_idle``)
    is still its answer where the runner would use it."""

    runner: Any = None
    checked = 0
    idle = 0

    def random(self) -> float:
        runner = self.runner
        if runner is not None and runner.state.phase == "play":
            s, ed = runner.state, runner.edition
            for player, held in runner._held.items():
                assert held == runner.bots[player].holdings(s, ed), (player, held)
                _Audit.checked += 1
            for player, (sets, floor, levels) in runner._idle.items():
                if levels == runner._levels and s.ledger.balances[player] < floor:
                    assert runner.bots[player].build_choice(s, ed, sets) is None, (player, sets)
                    _Audit.idle += 1
        return super().random()


@pytest.mark.parametrize("options", [{}, {"short_game": True}, {"pay_debt_with_deeds": True},
                                     {"bank_pays_creditor": True}, {"mortgaged_set_double_rent": True}])
def test_kept_holdings_are_never_stale(options: dict[str, object]) -> None:
    """What the runner keeps of each bot's holdings between its turns (dropped when that bot's deeds or
    mortgages change) is the fresh answer whenever it is kept, and a kept None from build_choice (dropped
    only when a building is bought, sold or seized) is still the answer whenever it would be used, over
    whole games on the lean table."""
    _Audit.checked = _Audit.idle = 0
    for seed in range(6):
        runner = ClassicRunner(load_edition("classic-us"), 4, seed, options=options, check_invariants=False)
        audit = _Audit(seed)
        audit.runner = runner
        runner.rng = audit
        runner.play()
    assert _Audit.checked > 1000 and _Audit.idle > 100, (_Audit.checked, _Audit.idle)
