"""The unit keeps the tokens in the classic game (option ``positions``; docs/flows.md "The unit keeps the
tokens"): the dice, then what the square asks for, with the lander known.

In IDLE the player who rolls enters the two dice on the pad or lets the unit roll: the pad's handlers are
shared by both rulesets (engine/banker/gestures/dice.py). One ``RollDice`` follows, and ``settle`` goes
straight to the square: BUY for an unowned deed, ACTION for the rest with the lander known: another
player's deed (the lander's card pays; a utility's rent uses the roll just made), Chance or Community Chest
(the lander's card draws the screen's deck, or tap the physical card), a tax (the lander's card pays it;
Income Tax with a choice asks which) or the Free Parking pot. A card that moves the token leads to its new
square the same way. A payment due (rent, a tax) stays on the prompt: X says what is still owed
(``error.payment_due``) and the gesture timeout waits. Another player's card is refused (``error.wrong_player``), and the engine refuses a
landing off the lander's square (``reason.not_on_square``); nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from transitions import EventData

from engine import commands as c
from engine.banker.binding import gesture_command
from engine.banker.context import Context, Gesture, input_value
from engine.banker.hooks import RulesetView
from engine.banker.table import SETTLE_FROM, row
from engine.banker.table import BankerState as S
from engine.banker.viewmodel import Prompt
from engine.events import DiceRolled
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.base import rent_for
from engine.rulesets.classic.edition import taxes
from engine.rulesets.classic.events import TokenPlaced
from engine.rulesets.classic.gestures.actions import tax_has_choice
from engine.rulesets.classic.gestures.base import cst
from engine.rulesets.classic.moves import roller

GESTURES = (
    # --- the dice: two touches on the pad, or the unit's roll -------------------------------------------------
    row("answer", S.IDLE, None, ["dice_complete", "can_roll"], ["do_roll", "then_settle"]),
    row("answer", S.IDLE, None, "die_partial", "add_die"),
    row(["press_cancel", "timeout"], S.IDLE, None, "die_held", "clear_die"),
    # --- the square asks the lander's card: rent (a card's tenfold utility rent: the dice total next), a
    # card, a tax, the pot; a physical Chance or Community Chest card draws that card --------------------------
    row("tap_player", S.ACTION, S.DICE, ["is_lander", "action_is_rent", "tenfold_due"], "pick_player"),
    row("tap_player", S.ACTION, S.IDLE, ["is_lander", "action_is_rent", "can_pay_landed"],
        ["do_pay_landed", "then_settle"]),
    row("tap_player", S.ACTION, S.IDLE, ["is_lander", "landed_square", "can_act"], ["do_act", "then_settle"]),
    row("tap_event", S.ACTION, S.IDLE, ["landed_deck", "can_draw_landed"], ["do_draw_landed", "then_settle"]),
)
"""Rows before the classic gestures (the first row whose conditions hold wins)."""

LANDINGS = (
    row("settle", list(SETTLE_FROM), S.BUY, ["phase_play", "rolled_unowned"], "start_rolled_deed"),
    row("settle", list(SETTLE_FROM), S.ACTION, ["phase_play", "rolled_other"], "start_rolled_rent"),
    row("settle", list(SETTLE_FROM), S.ACTION, ["phase_play", "rolled_action"], "start_rolled_action"),
)
"""``settle`` rows after a roll or a card's move: what the square asks for."""


def positions_on(ctx: Context) -> bool:
    """A game in play where the unit keeps the tokens."""
    return ctx.durable is not None and cst(ctx).options.positions and cst(ctx).phase == "play"


# -- where the token stopped --------------------------------------------------------------------------------


def _moved(ctx: Context) -> tuple[str, int] | None:
    """(the player, the square) of this input's roll or card move, for a free player in play; else None."""
    if not positions_on(ctx):
        return None
    mover = None
    for e in ctx.events:
        if isinstance(e, DiceRolled) or (isinstance(e, TokenPlaced) and e.reason == "card"):
            mover = e.player
    st = cst(ctx)
    if mover is None or mover in st.jail or mover in st.bankrupt:
        return None
    return mover, st.position.get(mover, 0)


def _deed_at(ctx: Context) -> tuple[str, int, str | None] | None:
    moved = _moved(ctx)
    if moved is None or ctx.durable is None:
        return None
    deed = ctx.durable.game.edition.spaces[moved[1]].deed
    return None if deed is None else (moved[0], deed, cst(ctx).owner.get(deed))


def rolled_unowned(ctx: Context, event: EventData) -> bool:
    found = _deed_at(ctx)
    return found is not None and found[2] is None


def rolled_other(ctx: Context, event: EventData) -> bool:
    found = _deed_at(ctx)
    return found is not None and found[2] not in (None, found[0]) and found[1] not in cst(ctx).mortgaged


def start_rolled_deed(ctx: Context, event: EventData) -> None:
    found = _deed_at(ctx)
    assert found is not None
    ctx.gesture = Gesture(player=found[0], deed=found[1])


def start_rolled_rent(ctx: Context, event: EventData) -> None:
    found = _deed_at(ctx)
    assert found is not None
    at = ctx.durable.game.edition.deeds[found[1]].position if ctx.durable is not None else None
    ctx.gesture = Gesture(player=found[0], deed=found[1], action="rent", position=at)
    if not tenfold_due(ctx, event):  # (a card's tenfold utility rent needs a new roll: its amount is not known)
        ctx.gesture.due = {"player": found[0], "amount": landed_rent(ctx)}


def landed_rent(ctx: Context) -> int:
    """The rent the lander owes on the deed of the gesture (money units): the engine's count, doubled for a
    railroad a card sent them to (as ``PayRent`` charges it), with the roll just made for a utility."""
    st, g = cst(ctx), ctx.gesture
    assert ctx.durable is not None and g.deed is not None
    rent = rent_for(st, ctx.durable.game.edition, g.deed, _last_total(ctx) or 0)
    card = st.card_rent
    if card is not None and card[0] == g.player and card[1] == g.deed and card[2] == "double":
        rent *= 2
    return rent


def action_is_rent(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.action == "rent" and ctx.gesture.deed is not None


def landed_square(ctx: Context, event: EventData) -> bool:
    """A card, tax or pot square reached by a roll (Income Tax with a choice goes on to the classic TAX)."""
    return ctx.gesture.position is not None and ctx.gesture.action not in (None, "rent") \
        and not tax_has_choice(ctx, event)


def _square_action(ctx: Context) -> tuple[str, str, int] | None:
    """(the player, the button the square asks for, the square) on a card, tax or pot square."""
    moved = _moved(ctx)
    if moved is None or ctx.durable is None:
        return None
    player, at = moved
    ed, st = ctx.durable.game.edition, cst(ctx)
    kind = ed.spaces[at].kind
    if kind in ("chance", "chest"):
        return player, kind, at
    if kind == "tax":
        return player, f"{taxes(ed)[at][0]}_tax", at
    if kind == "parking" and st.options.free_parking_jackpot and st.pot > 0:
        return player, "jackpot", at
    return None


def rolled_action(ctx: Context, event: EventData) -> bool:
    return _square_action(ctx) is not None


def start_rolled_action(ctx: Context, event: EventData) -> None:
    found = _square_action(ctx)
    assert found is not None
    ctx.gesture = Gesture(player=found[0], action=found[1], position=found[2])
    if found[1].endswith("_tax") and ctx.durable is not None and not tax_has_choice(ctx, event):
        amount = int(taxes(ctx.durable.game.edition)[found[2]][1])
        ctx.gesture.due = {"player": found[0], "amount": amount}


def landed_deck(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.action in ("chance", "chest") and ctx.gesture.position is not None


def _landed_draw(ctx: Context, event: EventData) -> cc.DrawCard | None:
    player, at, card = ctx.gesture.player, ctx.gesture.position, input_value(event)
    return None if player is None or at is None or card is None else cc.DrawCard(player, at, int(card))


can_draw_landed, do_draw_landed = gesture_command(_landed_draw, __name__)


# -- a utility's rent with the roll just made ---------------------------------------------------------------


def _last_total(ctx: Context) -> int | None:
    game = ctx.game
    if game is None:
        return None
    for e in reversed(game.events):
        if isinstance(e, DiceRolled):
            return e.die1 + e.die2
    return None


def tenfold_due(ctx: Context, event: EventData) -> bool:
    """A card sent the lander to this utility: ten times a new roll, typed next (the classic DICE state)."""
    card, deed = cst(ctx).card_rent, ctx.gesture.deed
    return card is not None and card[1] == deed and card[2] == "tenfold"


def _landed_rent(ctx: Context, event: EventData) -> c.PayRent | cc.PayUtilityRent | None:
    player, deed, game = ctx.input_player(event), ctx.gesture.deed, ctx.game
    if player is None or deed is None or game is None:
        return None
    if game.edition.deeds[deed].kind != "utility":
        return c.PayRent(player, deed)
    total = _last_total(ctx)
    return None if total is None else cc.PayUtilityRent(player, deed, total)


can_pay_landed, do_pay_landed = gesture_command(_landed_rent, __name__)


# -- the prompts ----------------------------------------------------------------------------------------------


def _prompt(ctx: Context, state: S) -> Prompt | None:
    """The prompts naming the one gesture expected when the unit keeps the tokens (None: the classic one)."""
    if ctx.durable is None or not cst(ctx).options.positions or cst(ctx).phase != "play":
        return None
    st, g, ed = cst(ctx), ctx.gesture, ctx.durable.game.edition
    if state is S.IDLE and st.turn is not None:
        p: list[tuple[str, str | int]] = [("player", roller(st)), ("entered", len(g.choices))]
        if g.choices:
            return Prompt("prompt.die2", (*p, ("die1", int(g.choices[0]))))
        return Prompt("prompt.roll", tuple(p))
    if state is S.ACTION and g.action == "rent" and g.player is not None and g.deed is not None \
            and g.deed in st.owner:
        d = ed.deeds[g.deed]
        return Prompt("prompt.landed_pay", (("player", g.player), ("deed", g.deed), ("name", d.name),
                                            ("owner", st.owner[g.deed]), ("buildings", st.level.get(g.deed, 0)),
                                            ("rent", landed_rent(ctx))))
    if state is S.ACTION and g.player is not None and g.position is not None:
        return Prompt("prompt.landed_square", (("player", g.player), ("space", ed.spaces[g.position].name),
                                               ("action", g.action or "")))
    return None


def with_positions(base: RulesetView) -> RulesetView:
    """The classic view's hooks, with the positions prompts first and each player's token position."""
    inner_prompt: Callable[[Any, Any], Prompt | None] | None = base.prompt
    inner_fields: Callable[[Any, Any], dict[str, Any]] | None = base.fields

    def prompt(ctx: Any, state: Any) -> Prompt | None:
        return _prompt(ctx, state) or (inner_prompt(ctx, state) if inner_prompt is not None else None)

    def fields(ctx: Any, state: Any) -> dict[str, Any]:
        out = inner_fields(ctx, state) if inner_fields is not None else {}
        if ctx.durable is not None and cst(ctx).options.positions and "players" in out:
            where = cst(ctx).position
            out["players"] = tuple(replace(p, position=where.get(p.id, 0)) for p in out["players"])
        return out

    return replace(base, prompt=prompt, fields=fields)
