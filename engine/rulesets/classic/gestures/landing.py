"""Deeds at the table (classic; docs/rules-classic.md 4, 5, 7): check a deed, then the card of the player who
landed decides: buy it or decline it (the auction opens), pay its rent (the engine counts houses, the set,
stations and utilities), a utility's dice total on the keypad, or, for the owner's own deed, mortgage it or
lift its mortgage (the amounts shown before the button). Picking the cards, buying, declining and paying
rent are every ruleset's (engine/banker/gestures/deeds.py); the utility's dice and the mortgages are the
classic game's, here."""

from __future__ import annotations

from transitions import EventData

from engine.banker.binding import deed_command
from engine.banker.context import Context, Refusal, input_value
from engine.numbers import parse_count
from engine.rulesets.classic import commands as cc

DICE_PROBE = 7  # a dice total used only to ask the engine whether a utility's rent is owed at all


def deed_utility(ctx: Context, event: EventData) -> bool:
    deed, game = ctx.input_deed(event), ctx.game
    return deed is not None and game is not None and game.edition.deeds[deed].kind == "utility"


def can_owe_rent(ctx: Context, event: EventData) -> bool:
    """A utility: whether its rent is owed (asked with a probe dice total; the real one comes next)."""
    pair = ctx.pair(event)
    return ctx.probing if pair is None else ctx.allowed(cc.PayUtilityRent(*pair, DICE_PROBE))


def _utility_command(ctx: Context, event: EventData) -> cc.PayUtilityRent | None:
    dice = parse_count(input_value(event), 2)
    if dice is None or ctx.gesture.player is None or ctx.gesture.deed is None:
        return None
    return cc.PayUtilityRent(ctx.gesture.player, ctx.gesture.deed, dice)


def can_pay_utility(ctx: Context, event: EventData) -> bool:
    cmd = _utility_command(ctx, event)
    if cmd is None:
        if ctx.probing:
            return True
        ctx.refusal = Refusal("error.bad_dice", {"value": str(input_value(event))[:40]})
        return False
    return ctx.allowed(cmd)


def do_pay_utility(ctx: Context, event: EventData) -> None:
    cmd = _utility_command(ctx, event)
    assert cmd is not None
    ctx.apply(cmd)


can_mortgage, do_mortgage = deed_command(cc.MortgageDeed, __name__)


can_lift, do_lift = deed_command(cc.LiftMortgage, __name__)
