"""The Ultimate Banking rule table: each command type -> its (check, do) pair (engine/rulesets/api.py).

Landing commands are turn-bound (engine/rulesets/ultimate/turns.py ``turn_bound``): the player whose turn
it is lands, or the next player, whose landing moves the turn on by itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import auction as bidding
from engine import commands as c
from engine.corrections import CORRECTION_RULES
from engine.errors import Refusal
from engine.rulesets.ultimate import auction, cards, debt, jail, levels, moves, turns
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate.turns import turn_bound

Check = Callable[[Any, Any, Any], "Refusal | None"]
Do = Callable[[Any, Any], None]

RULES: dict[type, tuple[Check, Do]] = {
    c.StartGame: (turns.check_start, turns.do_start),
    c.EndTurn: (turns.check_end_turn, turns.do_end_turn),
    c.PassGo: turn_bound((levels.check_pass_go, levels.do_pass_go), "player", "PassGo"),
    c.BuyDeed: turn_bound((levels.check_buy, levels.do_buy), "player", "BuyDeed"),
    uc.LandOnOwn: turn_bound((levels.check_land_own, levels.do_land_own), "player", "LandOnOwn"),
    c.PayRent: turn_bound((levels.check_rent, levels.do_rent), "payer", "PayRent"),
    uc.UseLocation: turn_bound((levels.check_location, levels.do_location), "player", "UseLocation"),
    c.DeclineDeed: turn_bound((auction.check_decline, auction.do_decline), "player", "DeclineDeed"),
    c.PlaceBid: (auction.check_bid, bidding.do_bid),
    c.CloseAuction: (bidding.check_close, auction.do_close),
    c.GoToJail: turn_bound((jail.check_go_to_jail, jail.do_go_to_jail), "player", "GoToJail"),
    c.PayJailFee: turn_bound((jail.check_pay_fee, jail.do_pay_fee), "player", "PayJailFee"),
    c.JailRoll: turn_bound((jail.check_roll, jail.do_roll), "player", "JailRoll"),
    uc.DrawEvent: turn_bound((cards.check_draw, cards.do_draw), "player", "DrawEvent"),
    uc.ResolveEvent: (cards.check_resolve, cards.do_resolve),
    uc.ReturnDeed: (debt.check_return, debt.do_return),
    c.RollDice: (moves.check_roll, moves.do_roll),
    **CORRECTION_RULES,
}
