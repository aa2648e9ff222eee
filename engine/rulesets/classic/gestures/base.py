"""What the classic plug-in's handlers share: the engine's classic state of the game under way."""

from __future__ import annotations

from typing import cast

from engine.banker.context import Context
from engine.rulesets.classic.state import ClassicState


def cst(ctx: Context) -> ClassicState:
    """The classic state of the game under way (a game must be under way)."""
    assert ctx.durable is not None
    return cast(ClassicState, ctx.durable.game.state)
