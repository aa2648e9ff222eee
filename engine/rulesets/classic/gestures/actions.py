"""Player actions (classic; docs/rules-classic.md 3, 8): a player card then a button, or a button then the
card: pass GO, go to jail, the fine, the jail rolls, a Get Out of Jail Free card (the button, or the physical
card tapped by its holder), the Free Parking pot, a tax
(Income Tax with a choice asks which amount), Chance or Community Chest from the screen's deck, building or
selling, and the end of the turn."""

from __future__ import annotations

from collections.abc import Callable

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Refusal, input_value
from engine.banker.setup import seat_of
from engine.events import TokenMoved
from engine.numbers import parse_count
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.cards import tax_amount
from engine.rulesets.classic.edition import cards, taxes
from engine.rulesets.classic.events import CardDrawn
from engine.rulesets.classic.gestures.base import cst
from engine.rulesets.classic.gestures.cardmove import origin_matters

DIRECT: dict[str, Callable[[str], object]] = {
    "go": c.PassGo, "jail": c.GoToJail, "pay_fee": c.PayJailFee, "end_turn": c.EndTurn,
    "roll_doubles": lambda p: c.JailRoll(p, True), "roll_no_doubles": lambda p: c.JailRoll(p, False),
    "use_card": cc.UseJailCard, "jackpot": cc.CollectJackpot,
}
"""Buttons whose command needs only the player."""
TAXES = ("income_tax", "luxury_tax")
DECKS = ("chance", "chest")
BUILDING = ("build", "sell")
MOVES = frozenset({"advance", "back", "nearest"})
"""Card effects that depend on where the token stands (the table says which space of the deck)."""


def known_player(ctx: Context, event: EventData) -> bool:
    pid = ctx.input_player(event)
    if ctx.durable is None or (pid is not None and pid not in cst(ctx).specs):
        ctx.refusal = Refusal("error.not_playing", {"seat": seat_of(pid)})
        return False
    return True


def in_play(ctx: Context, event: EventData) -> bool:
    return ctx.phase_is("play")


def jackpot_on(ctx: Context, event: EventData) -> bool:
    """The Free Parking pot is played (option ``free_parking_jackpot``): only then is its button offered."""
    return ctx.durable is not None and bool(cst(ctx).options.free_parking_jackpot)


def pick_action(ctx: Context, event: EventData) -> None:
    ctx.gesture.action = event.event.name.removeprefix("press_")
    value = parse_count(input_value(event), 2) if event.event.name.startswith("press_") else None
    if value is not None:
        ctx.gesture.position = value


def _action(ctx: Context, event: EventData) -> str | None:
    name = event.event.name
    return name.removeprefix("press_") if name.startswith("press_") else ctx.gesture.action


def action_is_building(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.action in BUILDING and known_player(ctx, event)


def action_is_tax(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.action in TAXES


def action_is_deck(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.action in DECKS


# -- taxes ----------------------------------------------------------------------------------------------


def tax_position(ctx: Context, action: str | None) -> int | None:
    """The board position of the tax space a tax button names (None: not a tax button)."""
    game = ctx.game
    if game is None or action not in TAXES:
        return None
    edition, key = game.edition, (id(game.edition), action)
    kept = _TAX_POSITIONS.get(key)
    if kept is None or kept[0] is not edition:  # (kept per edition object: the view asks it for every screen)
        kind = action.removesuffix("_tax")
        kept = _TAX_POSITIONS[key] = (edition, next(
            (pos for pos, (k, _amount) in sorted(taxes(edition).items()) if k == kind), None))
    return kept[1]


_TAX_POSITIONS: dict[tuple[int, str], tuple[object, int | None]] = {}


def tax_has_choice(ctx: Context, event: EventData) -> bool:
    """Income Tax with the option ``income_tax_choice``: the player picks the amount (state TAX)."""
    game, player = ctx.game, ctx.input_player(event)
    if game is None or _action(ctx, event) != "income_tax" or not game.state.options.income_tax_choice:
        return False
    position = tax_position(ctx, "income_tax")
    return position is not None and (player is None or ctx.allowed(cc.PayTax(player, position, True)))


def tax_amounts(ctx: Context) -> tuple[int, int | None]:
    """(the printed tax, the share of worth or None) of the tax under way, in money units."""
    game, player = ctx.game, ctx.gesture.player
    position = tax_position(ctx, ctx.gesture.action)
    assert game is not None and player is not None and position is not None
    flat = tax_amount(game.state, game.edition, player, position, False)
    choice = game.state.options.income_tax_choice and ctx.gesture.action == "income_tax"
    return flat, tax_amount(game.state, game.edition, player, position, True) if choice else None


def _tax_choice(ctx: Context, event: EventData) -> cc.PayTax | None:
    value = str(input_value(event) or "").strip().lower()
    position = tax_position(ctx, ctx.gesture.action)
    if value not in ("flat", "percent") or position is None or ctx.gesture.player is None:
        return None
    return cc.PayTax(ctx.gesture.player, position, value == "percent")


def can_choose_tax(ctx: Context, event: EventData) -> bool:
    cmd = _tax_choice(ctx, event)
    if cmd is None:
        if not ctx.probing:
            ctx.refusal = Refusal("error.bad_choice", {"expected": "flat, percent"})
        return ctx.probing
    return ctx.allowed(cmd)


def do_choose_tax(ctx: Context, event: EventData) -> None:
    cmd = _tax_choice(ctx, event)
    assert cmd is not None
    ctx.apply(cmd)


# -- Chance and Community Chest ------------------------------------------------------------------------


def deck_of(ctx: Context, action: str | None, card: int | None) -> str | None:
    """Which deck a draw is from: the button's, or the physical card's."""
    game = ctx.game
    if card is not None and game is not None and card in cards(game.edition):
        return cards(game.edition)[card].deck
    return action if action in DECKS else None


def deck_spaces(ctx: Context, deck: str | None) -> tuple[int, ...]:
    """The board positions of ``deck``'s spaces."""
    game = ctx.game
    if game is None or deck is None:
        return ()
    edition, key = game.edition, (id(game.edition), deck)
    kept = _DECK_SPACES.get(key)
    if kept is None or kept[0] is not edition:  # (kept per edition object: the view asks it for every screen)
        kept = _DECK_SPACES[key] = (edition, tuple(sp.position for sp in edition.spaces if sp.kind == deck))
    return kept[1]


_DECK_SPACES: dict[tuple[int, str], tuple[object, tuple[int, ...]]] = {}


def card_to_draw(ctx: Context, event: EventData) -> int | None:
    """The card this draw takes: the physical one tapped (now or before), else the deck's top card."""
    if event.event.name == "tap_event" and input_value(event) is not None:
        return int(input_value(event))
    if ctx.gesture.event_card is not None:
        return ctx.gesture.event_card
    game, deck = ctx.game, deck_of(ctx, _action(ctx, event), None)
    if game is None or deck is None:
        return None
    pile = game.state.chance if deck == "chance" else game.state.chest
    return pile[0] if pile else None


def card_needs_space(ctx: Context, event: EventData) -> bool:
    """Whether the card moves the token from where it stands, with several spaces of its deck to stand on
    and none named yet (then state CARD_SPACE asks)."""
    game, card = ctx.game, card_to_draw(ctx, event)
    if game is None or card is None or card not in cards(game.edition) or ctx.gesture.position is not None:
        return False
    deck = cards(game.edition)[card].deck
    if len(deck_spaces(ctx, deck)) < 2 or cards(game.edition)[card].effect not in MOVES \
            or not origin_matters(cards(game.edition)[card], deck_spaces(ctx, deck)):
        return False
    player = ctx.input_player(event)
    return player is None or ctx.allowed(cc.DrawCard(player, deck_spaces(ctx, deck)[0], _physical(ctx, event)))


def _physical(ctx: Context, event: EventData) -> int | None:
    if event.event.name == "tap_event" and input_value(event) is not None:
        return int(input_value(event))
    return ctx.gesture.event_card


def _draw_command(ctx: Context, event: EventData, position: int | None) -> cc.DrawCard | None:
    player, card = ctx.input_player(event), card_to_draw(ctx, event)
    game = ctx.game
    if player is None or card is None or game is None or card not in cards(game.edition):
        return None
    spaces = deck_spaces(ctx, cards(game.edition)[card].deck)
    where = position if position is not None else ctx.gesture.position
    return cc.DrawCard(player, spaces[0] if where is None else where, _physical(ctx, event))


# -- one command for a button and a player --------------------------------------------------------------


def action_command(ctx: Context, event: EventData) -> object | None:
    """The command of the button under way for the player known (None: something is missing)."""
    action, player = _action(ctx, event), ctx.input_player(event)
    if player is None:
        return None
    if action in DIRECT:
        return DIRECT[action](player)
    if action in TAXES:
        position = tax_position(ctx, action)
        return None if position is None else cc.PayTax(player, position, False)
    if action in DECKS or ctx.gesture.event_card is not None or event.event.name == "tap_event":
        physical = _physical(ctx, event)
        if physical is not None and cst(ctx).held.get(physical) == player:  # its holder hands it back
            return cc.UseJailCard(player)
        return _draw_command(ctx, event, None)
    return None


def can_act(ctx: Context, event: EventData) -> bool:
    return ctx.may_apply(action_command(ctx, event))


def do_act(ctx: Context, event: EventData) -> None:
    cmd = action_command(ctx, event)
    assert cmd is not None
    ctx.apply(cmd)
    if isinstance(cmd, cc.DrawCard):
        note_draw(ctx, cmd)


def note_draw(ctx: Context, cmd: cc.DrawCard) -> None:
    """Keep the card just drawn for the screen (with where it sent the token, if it did)."""
    drawn = next((e.card for e in ctx.events if isinstance(e, CardDrawn)), None)
    moved = next((e.position for e in ctx.events if isinstance(e, TokenMoved)), None)
    if drawn is not None:
        ctx.drawn = (drawn, cmd.player, moved)


def pick_event(ctx: Context, event: EventData) -> None:
    ctx.gesture.event_card = int(input_value(event))


def _space_answer(ctx: Context, event: EventData) -> cc.DrawCard | None:
    game, card = ctx.game, card_to_draw(ctx, event)
    position = parse_count(input_value(event), 2)
    if game is None or card is None or card not in cards(game.edition) or ctx.gesture.player is None:
        return None
    if position not in deck_spaces(ctx, cards(game.edition)[card].deck):
        return None
    return cc.DrawCard(ctx.gesture.player, position, ctx.gesture.event_card)


def can_draw_at(ctx: Context, event: EventData) -> bool:
    cmd = _space_answer(ctx, event)
    if cmd is None:
        if not ctx.probing:
            game, card = ctx.game, card_to_draw(ctx, event)
            deck = cards(game.edition)[card].deck if game is not None and card is not None else None
            ctx.refusal = Refusal("error.bad_choice", {
                "expected": ", ".join(str(p) for p in deck_spaces(ctx, deck)),
                "value": str(input_value(event))[:40]})
        return ctx.probing
    return ctx.allowed(cmd)


def do_draw_at(ctx: Context, event: EventData) -> None:
    cmd = _space_answer(ctx, event)
    assert cmd is not None
    ctx.apply(cmd)
    note_draw(ctx, cmd)


def can_end_current_turn(ctx: Context, event: EventData) -> bool:
    turn = cst(ctx).turn if ctx.durable else None
    if turn is None:
        ctx.refusal = Refusal("error.no_game")
        return False
    return ctx.allowed(c.EndTurn(turn))


def do_end_current_turn(ctx: Context, event: EventData) -> None:
    turn = cst(ctx).turn
    assert turn is not None
    ctx.apply(c.EndTurn(turn))
