"""A card that moves the token, when the unit does not keep the tokens (docs/flows.md, "The classic game"):
the new square asks for what a landing asks for. After the ``DrawCard`` that sent the drawer to a deed,
``settle`` goes on to BUY (unowned: ✓ buys, decline auctions it) or to DEED (another player's: the prompt
shows its rent, twice a railroad's after the nearest-railroad card, and the drawer's card pays it). A card
whose effect is the same from every square of its deck ("Advance to GO") does not ask where the token
stands (:func:`origin_matters`).
"""

from __future__ import annotations

from transitions import EventData

from engine.banker.context import Context, Gesture
from engine.editions import EventCard
from engine.events import TokenMoved
from engine.rulesets.classic.events import CardDrawn
from engine.rulesets.classic.gestures.base import cst


def origin_matters(card: EventCard, spaces: tuple[int, ...]) -> bool:
    """Whether ``card``'s effect differs between the deck's ``spaces`` (board positions): a move back or
    to the nearest railroad or utility always does; an advance only when passing GO depends on it."""
    if card.effect != "advance":
        return True
    target = int(str(dict(card.params)["target"]))
    return len({target == 0 or origin > target for origin in spaces}) > 1


def drawn_of(ctx: Context) -> tuple[int, str, int | None] | None:
    """(the card, its drawer, where it moved the token) of the command's events (``ctx.events``), as the draw
    keeps it in ``ctx.drawn``: what a restart right after the draw's commit settles from."""
    card = next((e for e in ctx.events if isinstance(e, CardDrawn)), None)
    moved = next((e.position for e in ctx.events if isinstance(e, TokenMoved)), None)
    return None if card is None else (card.card, card.player, moved)


def show_drawn(ctx: Context) -> None:
    """After a restart right after a draw's commit: the card drawn is shown again (:func:`drawn_of`; not when
    the unit keeps the tokens: the square's own prompt follows the move)."""
    if ctx.durable is not None and not cst(ctx).options.positions:
        ctx.drawn = drawn_of(ctx)


def _card_landing(ctx: Context) -> tuple[str, int, str | None] | None:
    """(the drawer, the deed, its owner) where the card just drawn moved the token; None otherwise (or when
    the unit keeps the tokens: its own landings follow the move)."""
    drawn, game = ctx.drawn or drawn_of(ctx), ctx.game
    if drawn is None or drawn[2] is None or game is None or cst(ctx).options.positions:
        return None
    if not any(isinstance(e, CardDrawn) for e in ctx.events):
        return None
    deed = game.edition.spaces[drawn[2]].deed
    return None if deed is None else (drawn[1], deed, cst(ctx).owner.get(deed))


def card_moved_unowned(ctx: Context, event: EventData) -> bool:
    found = _card_landing(ctx)
    return found is not None and found[2] is None and cst(ctx).phase == "play"


def card_moved_other(ctx: Context, event: EventData) -> bool:
    found = _card_landing(ctx)
    return found is not None and found[2] not in (None, found[0]) and cst(ctx).phase == "play" \
        and found[1] not in cst(ctx).mortgaged


def start_card_deed(ctx: Context, event: EventData) -> None:
    """BUY: the drawer may buy the deed the card sent them to."""
    found = _card_landing(ctx)
    assert found is not None
    drawn = ctx.drawn or drawn_of(ctx)
    ctx.gesture = Gesture(player=found[0], deed=found[1], finish="error.finish_landing")  # the card obliges
    ctx.drawn = drawn  # the card stays on the screen with the offer


def start_card_rent(ctx: Context, event: EventData) -> None:
    """DEED: the deed the card sent the drawer to; their card pays the rent."""
    found = _card_landing(ctx)
    assert found is not None
    drawn = ctx.drawn or drawn_of(ctx)
    ctx.gesture = Gesture(deed=found[1], finish="error.finish_landing")  # the card obliges: the rent is owed
    ctx.drawn = drawn
