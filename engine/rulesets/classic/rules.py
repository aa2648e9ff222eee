"""The classic rule table: each command type -> its (check, do) pair (engine/rulesets/api.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine import commands as c
from engine.errors import Refusal
from engine.rulesets.classic import auction, building, cards, debt, jail, moves, rent, trade, turns, variants
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.options import Options
from engine.rulesets.classic.variants import marks_roll as wrap_marks

Check = Callable[[Any, Any, Any], "Refusal | None"]
Do = Callable[[Any, Any], None]


def _table(marks: bool, positions: bool) -> dict[type, tuple[Check, Do]]:
    """The rule table, its landing rules wrapped by ``marks_roll`` when ``marks`` and ``moves.at_square``
    when ``positions`` (each wrapper does nothing more than the bare rule when its option is off)."""

    def marks_roll(rule: tuple[Check, Do], field: str) -> tuple[Check, Do]:
        return wrap_marks(rule, field) if marks else rule

    def at_square(rule: tuple[Check, Do], field: str, what: str) -> tuple[Check, Do]:
        return moves.at_square(rule, field, what) if positions else rule

    return {
        c.StartGame: (turns.check_start, turns.do_start),
        c.EndTurn: (turns.check_end_turn, turns.do_end_turn),
        c.PassGo: marks_roll((turns.check_pass_go, turns.do_pass_go), "player"),
        cc.AdvanceClock: (turns.check_clock, turns.do_clock),
        cc.CallTime: (turns.check_call_time, turns.do_call_time),
        c.BuyDeed: marks_roll(at_square((rent.check_buy, rent.do_buy), "player", "BuyDeed"), "player"),
        c.DeclineDeed: marks_roll(at_square((rent.check_decline, rent.do_decline), "player", "DeclineDeed"),
                                  "player"),
        c.PayRent: marks_roll(at_square((rent.check_rent, rent.do_rent), "payer", "PayRent"), "payer"),
        cc.PayUtilityRent: marks_roll(at_square((rent.check_utility_rent, rent.do_utility_rent), "payer",
                                                "PayUtilityRent"), "payer"),
        c.PlaceBid: (auction.check_bid, auction.do_bid),
        c.CloseAuction: (auction.check_close, auction.do_close),
        cc.BuildHouse: (building.check_build, building.do_build),
        cc.SellBuilding: (building.check_sell, building.do_sell),
        cc.MortgageDeed: (building.check_mortgage, building.do_mortgage),
        cc.LiftMortgage: (building.check_lift, building.do_lift),
        cc.OpenBuildingAuction: (building.check_building_auction, building.do_building_auction),
        c.GoToJail: marks_roll((jail.check_go_to_jail, moves.do_go_to_jail), "player"),
        c.PayJailFee: (jail.check_pay_fee, jail.do_pay_fee),
        c.JailRoll: marks_roll((jail.check_roll, jail.do_roll), "player"),
        cc.UseJailCard: (cards.check_use_card, cards.do_use_card),
        cc.DrawCard: marks_roll((cards.check_draw, cards.do_draw), "player"),
        cc.PayTax: marks_roll((cards.check_tax, cards.do_tax), "player"),
        cc.CollectJackpot: marks_roll((cards.check_jackpot, cards.do_jackpot), "player"),
        cc.ProposeTrade: (trade.check_propose, trade.do_propose),
        cc.AcceptTrade: (trade.check_accept, trade.do_accept),
        cc.CancelTrade: (trade.check_cancel, trade.do_cancel),
        cc.SettleDebt: (debt.check_settle, debt.do_settle),
        cc.DeclareBankruptcy: (debt.check_bankrupt, debt.do_bankrupt),
        c.RollDice: marks_roll((moves.check_roll, moves.do_roll), "player"),
        cc.PayWithDeeds: (variants.check_pay_with_deeds, variants.do_pay_with_deeds),
        cc.TimeOut: (variants.check_timeout, variants.do_timeout),
    }


RULES: Final[dict[type, tuple[Check, Do]]] = _table(True, True)
"""Each command type -> its (check, do), for any options (the table a ``Game`` uses)."""

_BY_OPTIONS: Final[dict[tuple[bool, bool], dict[type, tuple[Check, Do]]]] = {
    (marks, positions): _table(marks, positions) for marks in (False, True) for positions in (False, True)}


def rules_for(options: Options) -> dict[type, tuple[Check, Do]]:
    """The rule table for a game of ``options``: as :data:`RULES`, without the wrappers its options leave
    idle (the turn's roll mark unless ``options.marks_turn``, the lander's square unless
    ``options.positions``), so the same checks, refusals and events at one call less per command. Options
    are fixed at ``StartGame``; the simulator's lean table uses this after it."""
    return _BY_OPTIONS[(options.marks_turn, options.positions)]


def rules_of(s: Any) -> dict[type, tuple[Check, Do]]:
    """:func:`rules_for` the options of a started game's state (the ruleset's ``rules_for``)."""
    return rules_for(s.options)
