"""The game's clock (classic; docs/rules-classic.md 10): in a time-limited game or with the late-game rent
tax, every minute of the banker's injected clock becomes ``AdvanceClock`` (at the table's idle moments),
and when the agreed minutes are up, ``CallTime`` ends the game: the standings follow. The clock starts at
the game's first idle moment and, after a restart, goes on from the engine's last minute (the time the
unit was off does not count)."""

from __future__ import annotations

from transitions import EventData

from engine.banker.context import Context
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.gestures.base import cst

MINUTE_S = 60.0


def timed(ctx: Context) -> bool:
    """Whether the game under way keeps a clock (a time limit or the late-game rent tax)."""
    if ctx.durable is None:
        return False
    options = cst(ctx).options
    return options.time_limit > 0 or options.late_game_rent_tax


def elapsed_s(ctx: Context) -> float:
    """Seconds of play on the banker's clock (from the engine's minute after a restart)."""
    assert ctx.durable is not None
    game_id = ctx.durable.game_id
    if ctx.clock_origin is None or ctx.clock_origin[0] != game_id:
        ctx.clock_origin = (game_id, ctx.clock() - cst(ctx).minute * MINUTE_S)
    return max(0.0, ctx.clock() - ctx.clock_origin[1])


def minute_now(ctx: Context) -> int:
    return int(elapsed_s(ctx) // MINUTE_S)


def time_is_up(ctx: Context, event: EventData) -> bool:
    if not timed(ctx) or cst(ctx).phase != "play":
        return False
    limit = cst(ctx).options.time_limit
    return 0 < limit <= minute_now(ctx) and ctx.allowed(cc.CallTime())


def minute_due(ctx: Context, event: EventData) -> bool:
    return timed(ctx) and cst(ctx).phase == "play" and minute_now(ctx) > cst(ctx).minute


def do_advance_clock(ctx: Context, event: EventData) -> None:
    ctx.apply(cc.AdvanceClock(minute_now(ctx)))


def do_call_time(ctx: Context, event: EventData) -> None:
    ctx.apply(cc.CallTime())
