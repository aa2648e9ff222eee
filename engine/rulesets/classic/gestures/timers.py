"""The action timers at the table (classic, option ``action_timers``; docs/rules-classic.md 10, docs/flows.md
"Action timers"; seed 000 l. 167, seed 002 l. 92, 283).

The table waits for one action at a time: the debtor to pay (90 s), the partner of an open offer to answer
(30 s), else the turn's player to act (90 s: roll, or tap what the roll brought). Each timer starts again
with every command. The view shows it (``timer``), with ``warning`` in the last :data:`WARNING_S` seconds;
when it runs out the banker's clock tick sends ``TimeOut``: the player goes bankrupt (the offer lapses).
The time is the banker's injected clock; the engine only sees the command."""

from __future__ import annotations

from typing import Final
from weakref import WeakKeyDictionary

from transitions import EventData

from engine.banker.context import Context
from engine.banker.viewmodel import TimerView
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.gestures.base import cst
from engine.rulesets.classic.options import ACTION_SECONDS

WARNING_S: Final = 15.0
_STARTED: WeakKeyDictionary[Context, tuple[tuple[object, ...], float]] = WeakKeyDictionary()
"""Per banker context: (what is waited for, and after how many commands) -> when the timer started."""


def waited(ctx: Context) -> tuple[str, str] | None:
    """(action, player) the table waits for now, or None (no timers, or nothing timed)."""
    if ctx.durable is None:
        return None
    st = cst(ctx)
    if not st.options.action_timers:
        return None
    if st.phase == "debt" and st.debts:
        return "pay", st.debts[0].debtor
    if st.phase == "play" and st.trade is not None:
        return "deal", st.trade.partner
    if st.phase == "play" and st.turn is not None:
        return "roll", st.turn
    return None


def timer_now(ctx: Context) -> TimerView | None:
    """The running timer, started at the first look after the last command (seconds, injected clock)."""
    w = waited(ctx)
    if w is None or ctx.durable is None:
        return None
    key = (ctx.durable.game_id, *w, ctx.durable.game.commands_applied)
    now = ctx.clock()
    found = _STARTED.get(ctx)
    if found is None or found[0] != key:
        _STARTED[ctx] = (key, now)
        start = now
    else:
        start = found[1]
    left = max(0.0, ACTION_SECONDS[w[0]] - (now - start))
    return TimerView(w[0], w[1], left, left <= WARNING_S)


def timer_ran_out(ctx: Context, event: EventData) -> bool:
    timer = timer_now(ctx)
    return timer is not None and timer.seconds_left <= 0 and ctx.allowed(cc.TimeOut(timer.player, timer.action))


def do_time_out(ctx: Context, event: EventData) -> None:
    timer = timer_now(ctx)
    assert timer is not None
    ctx.forget_gesture()
    ctx.apply(cc.TimeOut(timer.player, timer.action))
