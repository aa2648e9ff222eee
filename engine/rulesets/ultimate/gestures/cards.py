"""Event cards (Ultimate Banking): a physical card and the drawer's card (either order), the virtual deck,
and the card's choices (answers, or a deed or player card), resolved in one ``ResolveEvent``."""

from __future__ import annotations

from transitions import EventData

from engine.banker.binding import gesture_command
from engine.banker.context import Context, Refusal, input_value
from engine.banker.setup import player_id
from engine.banker.view import choices_needed, event_card
from engine.numbers import parse_count
from engine.rulesets.ultimate import commands as uc


def pick_event(ctx: Context, event: EventData) -> None:
    ctx.gesture.event_card = int(input_value(event))


def _draw_command(ctx: Context, event: EventData) -> uc.DrawEvent | None:
    player = ctx.input_player(event)
    card = int(input_value(event)) if event.event.name == "tap_event" and input_value(event) is not None \
        else ctx.gesture.event_card
    return None if player is None else uc.DrawEvent(player, card)


can_draw_card, do_draw = gesture_command(_draw_command, __name__)


def _answer(ctx: Context, event: EventData) -> tuple[str | int, ...] | None:
    name, value = event.event.name, input_value(event)
    if name == "press_ok":
        return tuple(ctx.gesture.choices)
    if value is None:
        return None
    item: str | int
    if name == "tap_player":
        item = player_id(int(value))
    elif name == "tap_deed" or parse_count(value) is not None:  # plain ASCII digits: not "²", not 5000 digits
        item = int(value)
    else:
        item = str(value)
    return (*ctx.gesture.choices, item)


def choice_completes(ctx: Context, event: EventData) -> bool:
    if ctx.durable is None or ctx.st().pending is None:
        return False
    pending = ctx.st().pending
    assert pending is not None
    answer = _answer(ctx, event)
    if answer is None:
        return ctx.probing
    if len(answer) != choices_needed(ctx.durable.game.edition, pending.card):
        return False
    return ctx.allowed(uc.ResolveEvent(pending.player, answer), "error.bad_choice")


def choice_partial(ctx: Context, event: EventData) -> bool:
    if ctx.durable is None or ctx.st().pending is None:
        return False
    pending = ctx.st().pending
    assert pending is not None
    answer = _answer(ctx, event)
    if answer is None or len(answer) >= choices_needed(ctx.durable.game.edition, pending.card):
        return False
    last = answer[-1]
    if not isinstance(last, int) or ctx.st().owner.get(last) != pending.player:
        ctx.refusal = Refusal("error.bad_choice", {"reason": f"first choose one of your own deeds, not {last!r}"})
        return False
    return True


def add_choice(ctx: Context, event: EventData) -> None:
    answer = _answer(ctx, event)
    assert answer is not None
    ctx.gesture.choices = list(answer)


def do_resolve(ctx: Context, event: EventData) -> None:
    pending = ctx.st().pending
    answer = _answer(ctx, event)
    assert pending is not None and answer is not None
    assert ctx.durable is not None
    card = event_card(ctx.durable.game.edition, pending.card)
    ctx.apply(uc.ResolveEvent(pending.player, answer))
    if card.effect == "move_to_deed" and answer and isinstance(answer[0], int):
        ctx.landing = (pending.player, answer[0])


def phase_event(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("event")
