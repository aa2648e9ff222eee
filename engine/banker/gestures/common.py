"""Shared handlers of every ruleset: leaving a gesture (X, timeout; never a payment due) and following the
engine's phase.

After a command the internal trigger ``settle`` moves the machine to the state the engine's phase
implies; these are the conditions of the phases every ruleset has (setup, play, over).
"""

from __future__ import annotations

from typing import Protocol, cast

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Gesture, Refusal


class _Triggers(Protocol):
    def trigger(self, name: str) -> bool: ...


def forget_gesture(ctx: Context, event: EventData) -> None:
    ctx.forget_gesture()


def gesture_may_end(ctx: Context, event: EventData) -> bool:
    """X or the timeout may abandon the gesture: not when it leads to a payment due (``Gesture.due``): X
    then says what is still owed (``error.payment_due``) and the prompt stays; the timeout waits."""
    g = ctx.gesture
    due = g.due
    if not due and not g.finish and not g.undo:
        return True
    if ctx.probing:  # X stays on the screen (pressed, it says what is owed); the timeout does not fire
        return event.event.name == "press_cancel" and not g.undo
    if due:
        ctx.refusal = Refusal("error.payment_due", dict(due))
    elif g.finish:
        ctx.refusal = Refusal(g.finish, _landing_params(ctx))
    return False


def _landing_params(ctx: Context) -> dict[str, str | int]:
    g = ctx.gesture
    params: dict[str, str | int] = {}
    if g.player:
        params["player"] = g.player
    if g.deed is not None:
        params["deed"] = g.deed
    return params


def cancel_undoes(ctx: Context, event: EventData) -> bool:
    """X in a gesture that already applied commands (a Location's fee and jump): X takes them all back,
    so that X still means "nothing changes" (only while the journal has nothing after them)."""
    g = ctx.gesture
    return g.undo > 0 and ctx.durable is not None and ctx.last_seq == g.undo_seq


def do_cancel_undo(ctx: Context, event: EventData) -> None:
    """Undo the gesture's commands, the last first (one ``CommandUndone`` each; nothing is deleted)."""
    for _ in range(ctx.gesture.undo):
        ctx.apply(c.Undo())
    ctx.undo_group = None
    ctx.forget_gesture()


def then_settle(ctx: Context, event: EventData) -> None:
    cast(_Triggers, event.model).trigger("settle")


def phase_setup(ctx: Context, event: EventData) -> bool:
    return ctx.durable is None or ctx.st().phase == "setup"


def phase_play(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("play")


def phase_over(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("over")


def undone_to_landing(ctx: Context, event: EventData) -> bool:
    """After the menu's Undo of a finished auction back to its landing: the deed is unowned again and its
    lander is asked to buy or decline again (``ctx.relanding``, set by this input's undo)."""
    return ctx.relanding is not None and ctx.owner(ctx.relanding[1]) is None and ctx.phase_is("play")


def start_undone_landing(ctx: Context, event: EventData) -> None:
    assert ctx.relanding is not None
    ctx.gesture = Gesture(player=ctx.relanding[0], deed=ctx.relanding[1])
    ctx.relanding = None
