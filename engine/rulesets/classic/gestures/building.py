"""Houses and hotels at the table (classic; docs/rules-classic.md 6): the owner's card and Build (or Sell),
then each deed to build on: one tap is one building, bought (or sold back) at once as its own command, so
the engine checks evenness, the set, mortgages, the supply and the cash at every tap; the running total
is shown, ✓ keeps them; X (Cancel) leaves the game as it was: each building of the gesture is undone
(``Undo``, newest first; nothing else can come between them). When the Bank has fewer buildings of the kind a tap needs than players who
want one, that tap opens the building auction instead; its winner then taps the street to put it on."""

from __future__ import annotations

from transitions import EventData

from engine import commands as c
from engine.banker.binding import gesture_command
from engine.banker.context import Context, Refusal
from engine.banker.setup import seat_of
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.building import next_kind
from engine.rulesets.classic.gestures.actions import BUILDING
from engine.rulesets.classic.gestures.base import cst


def can_start_building(ctx: Context, event: EventData) -> bool:
    """Build or Sell for a known player in play."""
    pid = ctx.input_player(event)
    if ctx.durable is None or cst(ctx).phase != "play":
        return False
    if pid is not None and pid not in cst(ctx).specs:
        ctx.refusal = Refusal("error.not_playing", {"seat": seat_of(pid)})
        return False
    return _mode(ctx, event) in BUILDING


def _mode(ctx: Context, event: EventData) -> str | None:
    name = event.event.name
    return name.removeprefix("press_") if name.startswith("press_") else ctx.gesture.action


def _step(ctx: Context, event: EventData) -> cc.BuildHouse | cc.SellBuilding | None:
    deed, player = ctx.input_deed(event), ctx.gesture.player
    if deed is None or player is None:
        return None
    return cc.BuildHouse(player, deed) if ctx.gesture.action == "build" else cc.SellBuilding(player, deed)


def building_short(ctx: Context, event: EventData) -> bool:
    """Building, and the Bank has fewer of the kind this deed needs next than players who want one: the
    rules auction it (``OpenBuildingAuction`` is accepted exactly then)."""
    game, deed = ctx.game, ctx.input_deed(event)
    if game is None or deed is None or ctx.gesture.action != "build" or ctx.owner(deed) != ctx.gesture.player:
        return False
    kind = next_kind(game.state, deed) if game.edition.deeds[deed].kind == "street" else ""
    return bool(kind) and game.check(cc.OpenBuildingAuction(kind)) is None


def can_open_building_auction(ctx: Context, event: EventData) -> bool:
    deed = ctx.input_deed(event)
    if deed is None:
        return ctx.probing
    return ctx.allowed(cc.OpenBuildingAuction(next_kind(cst(ctx), deed)))


def do_open_building_auction(ctx: Context, event: EventData) -> None:
    deed = ctx.input_deed(event)
    assert deed is not None
    ctx.apply(cc.OpenBuildingAuction(next_kind(cst(ctx), deed)))


def can_build_step(ctx: Context, event: EventData) -> bool:
    return ctx.may_apply(_step(ctx, event))


def do_build_step(ctx: Context, event: EventData) -> None:
    cmd = _step(ctx, event)
    assert cmd is not None
    game = ctx.game
    assert game is not None
    before = game.state.ledger.balances[cmd.player]
    ctx.apply(cmd)
    ctx.gesture.steps.append(cmd.deed)
    ctx.gesture.total += abs(game.state.ledger.balances[cmd.player] - before)


def keep_building(ctx: Context, event: EventData) -> None:
    """✓: the buildings of this gesture stand, as one step for the menu's Undo."""
    if len(ctx.gesture.steps) > 1:
        ctx.undo_group = (ctx.last_seq, len(ctx.gesture.steps))


def building_staged(ctx: Context, event: EventData) -> bool:
    """Buildings were bought or sold in this gesture."""
    return bool(ctx.gesture.steps)


def can_unbuild(ctx: Context, event: EventData) -> bool:
    return ctx.allowed(c.Undo())


def do_unbuild(ctx: Context, event: EventData) -> None:
    """Undo every building of this gesture (their commands are the last ones in force)."""
    for _ in ctx.gesture.steps:
        ctx.apply(c.Undo())
    ctx.gesture.steps, ctx.gesture.total = [], 0


# -- the winner of a building auction places it (engine phase ``place``) ---------------------------------


def phase_place(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("place")


def _placing(ctx: Context, event: EventData) -> cc.BuildHouse | None:
    credit = cst(ctx).credit if ctx.durable is not None else None
    deed = ctx.input_deed(event)
    return None if credit is None or deed is None else cc.BuildHouse(credit[0], deed)


can_place, do_place = gesture_command(_placing, __name__)
