"""The view's part of the seeds' remaining rules (classic; docs/flows.md): the lots dealt at the start
(option ``deal_all_lots``: each player's deeds, shown until the first command after the start, so the
cards can be handed out), the running action timer (``action_timers``) and the prompt of a debt paid with
deeds (``pay_debt_with_deeds``). It wraps the classic view's hooks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.banker.hooks import RulesetView
from engine.banker.table import BankerState as S
from engine.banker.viewmodel import Prompt
from engine.rulesets.classic.gestures.base import cst
from engine.rulesets.classic.gestures.debtdeeds import ACTION
from engine.rulesets.classic.gestures.timers import timer_now


def _prompt(ctx: Any, state: Any) -> Prompt | None:
    if ctx.durable is None:
        return None
    if state is S.IDLE and cst(ctx).options.deal_all_lots and ctx.durable.game.commands_applied == 1:
        st = cst(ctx)  # every lot dealt: hand the deed cards out (the view's dealt lists them per player, the board shows owners)
        return Prompt("prompt.dealt_lots", (("players", len(st.order)), ("deeds", len(st.owner)),
                                            ("player", st.turn or "")))
    if state is not S.DEBT or ctx.gesture.action != ACTION:
        return None
    debt = cst(ctx).debt
    if debt is None:
        return None
    g = ctx.gesture
    return Prompt("prompt.pay_deeds", (("debtor", debt.debtor), ("creditor", debt.creditor), ("due", debt.amount),
                                       ("deeds", len(g.deal_deeds)), ("value", g.total),
                                       ("step", "deeds" if g.player else "debtor")))


def with_seed_rules(base: RulesetView) -> RulesetView:
    """The classic view's hooks, with the dealt lots, the action timer and the deed payment's prompt."""
    inner_prompt: Callable[[Any, Any], Prompt | None] | None = base.prompt
    inner_fields: Callable[[Any, Any], dict[str, Any]] | None = base.fields

    def prompt(ctx: Any, state: Any) -> Prompt | None:
        return _prompt(ctx, state) or (inner_prompt(ctx, state) if inner_prompt is not None else None)

    def fields(ctx: Any, state: Any) -> dict[str, Any]:
        out = inner_fields(ctx, state) if inner_fields is not None else {}
        if ctx.durable is None:
            return out
        st = cst(ctx)
        if st.options.deal_all_lots and ctx.durable.game.commands_applied == 1:
            out["dealt"] = tuple((p, st.deeds_of(p)) for p in st.order)
        if st.options.action_timers:
            out["timer"] = timer_now(ctx)
        return out

    return replace(base, prompt=prompt, fields=fields)
