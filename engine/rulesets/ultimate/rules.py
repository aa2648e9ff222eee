"""The Ultimate Banking rule table: each command type -> its (check, do) pair (engine/rulesets/api.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import commands as c
from engine.corrections import CORRECTION_RULES
from engine.errors import Refusal
from engine.rulesets.ultimate import auction, cards, debt, jail, levels, turns
from engine.rulesets.ultimate import commands as uc

Check = Callable[[Any, Any, Any], "Refusal | None"]
Do = Callable[[Any, Any], None]

RULES: dict[type, tuple[Check, Do]] = {
    c.StartGame: (turns.check_start, turns.do_start),
    c.EndTurn: (turns.check_end_turn, turns.do_end_turn),
    c.PassGo: (levels.check_pass_go, levels.do_pass_go),
    c.BuyDeed: (levels.check_buy, levels.do_buy),
    uc.LandOnOwn: (levels.check_land_own, levels.do_land_own),
    c.PayRent: (levels.check_rent, levels.do_rent),
    uc.UseLocation: (levels.check_location, levels.do_location),
    c.DeclineDeed: (auction.check_decline, auction.do_decline),
    c.PlaceBid: (auction.check_bid, auction.do_bid),
    c.CloseAuction: (auction.check_close, auction.do_close),
    c.GoToJail: (jail.check_go_to_jail, jail.do_go_to_jail),
    c.PayJailFee: (jail.check_pay_fee, jail.do_pay_fee),
    c.JailRoll: (jail.check_roll, jail.do_roll),
    uc.DrawEvent: (cards.check_draw, cards.do_draw),
    uc.ResolveEvent: (cards.check_resolve, cards.do_resolve),
    uc.ReturnDeed: (debt.check_return, debt.do_return),
    **CORRECTION_RULES,
}
