"""Shared handlers of every ruleset: leaving a gesture (X, timeout; never a payment due) and following the
engine's phase.

After a command the internal trigger ``settle`` moves the machine to the state the engine's phase
implies; these are the conditions of the phases every ruleset has (setup, play, over).
"""

from __future__ import annotations

from typing import Protocol, cast

from transitions import EventData

from engine.banker.context import Context, Refusal


class _Triggers(Protocol):
    def trigger(self, name: str) -> bool: ...


def forget_gesture(ctx: Context, event: EventData) -> None:
    ctx.forget_gesture()


def gesture_may_end(ctx: Context, event: EventData) -> bool:
    """X or the timeout may abandon the gesture: not when it leads to a payment due (``Gesture.due``): X
    then says what is still owed (``error.payment_due``) and the prompt stays; the timeout waits."""
    due = ctx.gesture.due
    if not due:
        return True
    if ctx.probing:  # X stays on the screen (pressed, it says what is owed); the timeout does not fire
        return event.event.name == "press_cancel"
    ctx.refusal = Refusal("error.payment_due", dict(due))
    return False


def then_settle(ctx: Context, event: EventData) -> None:
    cast(_Triggers, event.model).trigger("settle")


def phase_setup(ctx: Context, event: EventData) -> bool:
    return ctx.durable is None or ctx.st().phase == "setup"


def phase_play(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("play")


def phase_over(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("over")
