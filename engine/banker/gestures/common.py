"""Shared handlers of every ruleset: leaving a gesture (X, timeout) and following the engine's phase.

After a command the internal trigger ``settle`` moves the machine to the state the engine's phase
implies; these are the conditions of the phases every ruleset has (setup, play, over).
"""

from __future__ import annotations

from typing import Protocol, cast

from transitions import EventData

from engine.banker.context import Context


class _Triggers(Protocol):
    def trigger(self, name: str) -> bool: ...


def forget_gesture(ctx: Context, event: EventData) -> None:
    ctx.forget_gesture()


def then_settle(ctx: Context, event: EventData) -> None:
    cast(_Triggers, event.model).trigger("settle")


def phase_setup(ctx: Context, event: EventData) -> bool:
    return ctx.durable is None or ctx.st().phase == "setup"


def phase_play(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("play")


def phase_over(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("over")
