"""Player actions (Ultimate Banking): a player card then a button, or a button then the card — pass GO,
go to jail, pay the fee, the jail rolls, draw from the virtual deck, Location (the card, then the
destination deed), and the end of the turn."""

from __future__ import annotations

from collections.abc import Callable

from transitions import EventData

from engine import commands as c
from engine.banker.binding import gesture_command
from engine.banker.context import Context, Refusal
from engine.banker.setup import seat_of
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate.gestures.positions import origin_of

_ACTIONS: dict[str, Callable[[str], c.Command]] = {
    "go": c.PassGo, "jail": c.GoToJail, "pay_fee": c.PayJailFee, "end_turn": c.EndTurn,
    "roll_doubles": lambda p: c.JailRoll(p, True), "roll_no_doubles": lambda p: c.JailRoll(p, False),
    "draw": lambda p: uc.DrawEvent(p, None),
}


def known_player(ctx: Context, event: EventData) -> bool:
    pid = ctx.input_player(event)
    if ctx.durable is None or (pid is not None and pid not in ctx.st().specs):
        ctx.refusal = Refusal("error.not_playing", {"seat": seat_of(pid)})
        return False
    return True


def in_play(ctx: Context, event: EventData) -> bool:
    return ctx.durable is not None and ctx.st().phase == "play"


def pick_action(ctx: Context, event: EventData) -> None:
    ctx.gesture.action = event.event.name.removeprefix("press_")


def action_is_location(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.action == "location" and known_player(ctx, event)


def _action_command(ctx: Context, event: EventData) -> c.Command | None:
    name = event.event.name
    action = name.removeprefix("press_") if name.startswith("press_") else ctx.gesture.action
    player = ctx.input_player(event)
    if player is None or action is None:
        return None
    if action == "draw" and ctx.durable is not None and ctx.st().options.positions:
        return uc.DrawEvent(player, None, origin_of(ctx, player, "event"))  # the unit knows the Event space
    return _ACTIONS[action](player) if action in _ACTIONS else None


can_act, do_act = gesture_command(_action_command, __name__)


def can_locate(ctx: Context, event: EventData) -> bool:
    pair = ctx.pair(event)
    return ctx.probing if pair is None else ctx.allowed(uc.UseLocation(*pair, origin_of(ctx, pair[0], "location")))


def do_locate(ctx: Context, event: EventData) -> None:
    pair = ctx.require_pair(event)
    ctx.apply(uc.UseLocation(*pair, origin_of(ctx, pair[0], "location")))
    ctx.landing = pair


def can_end_current_turn(ctx: Context, event: EventData) -> bool:
    turn = ctx.st().turn if ctx.durable else None
    if turn is None:
        ctx.refusal = Refusal("error.no_game")
        return False
    return ctx.allowed(c.EndTurn(turn))


def do_end_current_turn(ctx: Context, event: EventData) -> None:
    turn = ctx.st().turn
    assert turn is not None
    ctx.apply(c.EndTurn(turn))
