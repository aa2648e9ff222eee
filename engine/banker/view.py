"""Building the banker's :class:`~engine.banker.viewmodel.ViewModel`: players, board, prompt, choices, auction.

Everything here reads the engine's state and the banker's :class:`~engine.banker.context.Context` (the
gesture under way, the setup choices, the settings); nothing decides a rule (the event choices offered are
the candidates ``Game.check`` accepts). Amounts are ``int`` in the edition's money unit. Player ids are
``"p<seat>"`` (seat 1..8, the number of the player's bank card).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.banker.board import BoardCache as BoardCache
from engine.banker.board import last_transaction as last_transaction
from engine.banker.context import Context, Refusal
from engine.banker.plugins import view_part, wealth_of
from engine.banker.setup import TOKENS as TOKENS
from engine.banker.setup import playable_editions
from engine.banker.setup import player_id as player_id
from engine.banker.setup import seat_of as seat_of
from engine.banker.table import GESTURE_STATES, BankerState
from engine.banker.viewmodel import (
    AuctionView,
    ChoiceView,
    DebtView,
    EventCardView,
    PlayerView,
    Prompt,
    StandingView,
    ViewModel,
)
from engine.editions import Edition, EventCard
from engine.events import DiceRolled, Event
from engine.game import Game
from engine.options import RuleOptions

_PHASE_STATE = {"setup": BankerState.SETUP, "play": BankerState.IDLE, "auction": BankerState.AUCTION,
                "event": BankerState.EVENT, "debt": BankerState.DEBT, "over": BankerState.OVER,
                "place": BankerState.PLACE}
_HISTORY_POINTS = 200  # at most this many points per player are rebuilt on resume


def phase_state(phase: str) -> BankerState:
    """The banker state that mirrors an engine phase (used on restore)."""
    return _PHASE_STATE[phase]


def event_card(edition: Edition, card_id: int) -> EventCard:
    """The edition's event card with id ``card_id``."""
    for card in edition.events:
        if card.id == card_id:
            return card
    raise KeyError(f"edition {edition.id} has no event card {card_id}")


def choices_needed(edition: Edition, card_id: int) -> int:
    """How many answers the card asks for: 0 (none), 2 (own and opponent deed) or 1."""
    kind = event_card(edition, card_id).choice
    return 0 if kind == "none" else 2 if kind == "own_and_opponent_deed" else 1


def _candidates(edition: Edition, state: Any, kind: str, player: str, step: int) -> list[str | int]:
    deeds: list[str | int] = list(edition.deeds)
    if kind == "colour_set":
        return list(edition.colour_sets)
    if kind == "side":
        return [chr(ord("A") + i) for i in range(len(edition.sides))]
    if kind == "other_player":
        return [p for p in state.active_players() if p != player]
    if kind == "own_and_opponent_deed":
        owned = [d for d, o in state.owner.items() if (o == player) == (step == 0)]
        return sorted(owned)
    if kind in ("own_deed", "any_owned_deed"):
        return sorted(d for d, o in state.owner.items() if kind == "any_owned_deed" or o == player)
    return deeds


def choice_views(game: Game, chosen: Sequence[str | int]) -> tuple[ChoiceView, ...]:
    """The answers the pending event card accepts now (each one ``Game.check``-ed when complete)."""
    pending = getattr(game.state, "pending", None)
    if pending is None:
        return ()
    card = event_card(game.edition, pending.card)
    need = choices_needed(game.edition, pending.card)
    if need == 0:
        return (ChoiceView("ok", "choice.ok"),)
    out: list[ChoiceView] = []
    make = view_part(game.edition.ruleset).event_answer  # the ruleset's own answer command
    for value in _candidates(game.edition, game.state, card.choice, pending.player, len(chosen)):
        answer = (*chosen, value)
        if len(answer) == need and make is not None and game.check(make(pending.player, answer)) is not None:
            continue
        label = "choice.deed" if isinstance(value, int) else f"choice.{card.choice}"
        name = game.edition.deeds[value].name if isinstance(value, int) else str(value)
        out.append(ChoiceView(str(value), label, (("name", name),)))
    return tuple(out)


def wealth_history(edition: Edition, events: Sequence[Event]) -> dict[str, list[int]]:
    """Player id -> wealth after each command, rebuilt from a game's events (at most 200 points)."""
    ends: list[int] = []
    for i, event in enumerate(events):
        if i + 1 == len(events) or events[i + 1].command != event.command:
            ends.append(i + 1)
    if len(ends) > _HISTORY_POINTS:
        stride = len(ends) / _HISTORY_POINTS
        ends = [ends[int(k * stride)] for k in range(_HISTORY_POINTS - 1)] + [ends[-1]]
    history: dict[str, list[int]] = {}
    for end in ends:
        game = Game.replay(edition, events[:end])
        for pid in game.state.order:
            history.setdefault(pid, []).append(wealth_of(game, pid))
    return history


def prompt_for(ctx: Context, s: BankerState) -> Prompt:
    """What the unit asks for in the banker's state ``s`` (a translation key and parameters)."""
    g, game = ctx.gesture, ctx.game
    st = game.state if game else None
    p: list[tuple[str, str | int]] = []
    if s is BankerState.SETUP:
        p = [("seated", len(ctx.seats))]
        if ctx.previous is not None and ctx.previous_label is not None:  # ``press back`` returns to it
            p += [("back_names", ctx.previous_label[0]), ("back_turn", ctx.previous_label[1])]
    elif s is BankerState.MENU and ctx.gesture.confirm and ctx.question is not None:
        return ctx.question
    elif s is BankerState.IDLE and st is not None and st.turn is not None and _positions(st):
        p = [("player", roller_of(st) or st.turn), ("entered", len(g.choices))]
        return Prompt("prompt.die2" if g.choices else "prompt.roll", (*p, *(("die1", d) for d in g.choices[:1])))
    elif s is BankerState.IDLE and st is not None and st.turn is not None:
        p = [("player", st.turn)]
    elif s in (BankerState.DEED, BankerState.BUY) and g.deed is not None and game is not None:
        deed = game.edition.deeds[g.deed]
        p = [("deed", g.deed), ("name", deed.name), ("price", deed.price)]
        if st is not None and g.deed in st.owner:
            p += [("owner", st.owner[g.deed]), ("level", st.level[g.deed]),
                  ("rent", st.rent_due(g.deed))]
        if g.player:
            p.append(("player", g.player))
            if s is BankerState.DEED and st is not None and _positions(st) and g.deed in st.owner:
                own = st.owner[g.deed] == g.player
                return Prompt("prompt.landed_own" if own else "prompt.landed_rent", tuple(p))
    elif s is BankerState.ACTION and g.player and st is not None and _positions(st):
        p = [("player", g.player), ("action", g.action or "")]
        return Prompt("prompt.landed_event", tuple(p))
    elif s is BankerState.PLAYER and st is not None and g.player in st.specs:
        p = [("player", g.player or ""), ("balance", st.balance(g.player or ""))]
    elif s is BankerState.ACTION:
        p = [("action", g.action or "")]
    elif s is BankerState.LOCATION:
        p = [("player", g.player or "")]
    elif s is BankerState.EVENT_CARD:
        p = [("card", g.event_card or 0)]
    elif s is BankerState.EVENT and st is not None and getattr(st, "pending", None) is not None \
            and game is not None:
        card = event_card(game.edition, st.pending.card)
        p = [("player", st.pending.player), ("card", card.key), ("choice", card.choice),
             ("chosen", len(g.choices))]
    elif s in (BankerState.AUCTION, BankerState.AUCTION_WON) and st is not None and st.auction is not None:
        p = [("deed", st.auction.deed), ("high_bid", st.auction.high_bid),
             ("high_bidder", st.auction.high_bidder or ""), ("bidder", g.player or "")]
    elif s is BankerState.DEBT and st is not None and st.debt is not None:
        p = [("debtor", st.debt.debtor), ("due", st.debt.amount)]
    elif s is BankerState.PIN:
        p = [("typed", len(g.pin))]
    return Prompt(f"prompt.{s.value}", tuple(p))


def build_view(ctx: Context, state: BankerState, actions: Callable[[], tuple[str, ...]],
               refusal: Refusal | None = None) -> ViewModel:
    """The whole screen in the banker's ``state``: ``actions()`` says which buttons are allowed now (those of
    :data:`ACTION_TRIGGERS` the machine accepts, in that order), ``refusal`` adds the error to ``extra``."""
    game = ctx.game
    edition = game.edition if game else ctx.setup_edition
    st = game.state if game else None
    now = ctx.clock()
    hooks = view_part(edition.ruleset)  # the game's own ruleset (a resumed one's too)
    players: tuple[PlayerView, ...] = ()
    standings: tuple[StandingView, ...] = ()
    own = hooks.fields(ctx, state) if hooks.fields is not None and game is not None else {}
    if st is not None:
        if "players" not in own:
            states = st.players
            kept = _positions(st)
            players = tuple(
                PlayerView(p.id, p.name, p.token, p.balance, wealth_of(game, p.id), p.in_jail, p.bankrupt, p.deeds,
                           position=st.position.get(p.id, 0) if kept else None)
                for p in (states[pid] for pid in st.order)
            )
        if st.phase == "over":
            rows = st.standings_final or st.standings()
            standings = tuple(StandingView(r.rank, r.player, r.cash, r.deeds_value, r.total) for r in rows)
    elif ctx.seats:
        players = tuple(PlayerView(player_id(s), ctx.seat_name(s), ctx.seat_token(s), 0, 0)
                        for s in sorted(ctx.seats))
    setup = state is BankerState.SETUP
    options = st.options if st is not None and not setup else ctx.setup_options()
    event_view = None
    pending = getattr(st, "pending", None)
    if pending is not None and game is not None:
        card = event_card(edition, pending.card)
        event_view = EventCardView(card.id, f"event.{card.key}", f"event.{card.key}.text",
                                   choice_views(game, ctx.gesture.choices))
    auction = None
    if st is not None and st.auction is not None:
        left = max(0.0, ctx.deadline - now) if ctx.deadline is not None else 0.0
        auction = AuctionView(st.auction.deed, st.auction.high_bid, st.auction.high_bidder, st.auction.bidders,
                              left)
    debt = None
    if st is not None and st.debt is not None:
        short = max(0, st.debt.amount - st.ledger.balances.get(st.debt.debtor, 0))
        debt = DebtView(st.debt.debtor, None if st.debt.creditor == "bank" else st.debt.creditor, st.debt.amount,
                        short)
    extra: list[tuple[str, str | int]] = [
        ("seats", len(ctx.seats)), ("timeout_s", f"{ctx.setting_shown('timeout_s'):g}"),
        ("auction_s", f"{ctx.setting_shown('auction_s'):g}"),
        ("pin_typed", len(ctx.gesture.pin)),
    ]
    if refusal is not None:
        extra.append(("error", refusal.key))
        extra.extend((f"error_{k}", v) for k, v in refusal.params.items())
    prompt = hooks.prompt(ctx, state) if hooks.prompt is not None else None
    return ViewModel(**{**dict(
        state=state.value,
        edition=edition.id,
        currency=edition.currency,
        players=players,
        board=ctx.board_cache.board(game, edition),
        prompt=prompt or prompt_for(ctx, state),
        actions=actions(),
        last_transaction=ctx.last_tx,
        event_card=event_view,
        auction=auction,
        debt=debt,
        standings=standings,
        wealth_history=ctx.history_view(),
        seq=ctx.last_seq,
        extra=tuple(extra),
        phase=st.phase if st is not None else "setup",
        turn=st.turn if st is not None else None,
        selected_player=ctx.gesture.player,
        selected_deed=ctx.gesture.deed,
        seconds_left=(max(0.0, ctx.timeout_s - (now - ctx.since))
                      if state.value in _TIMED else None),
        options=_option_items(options),
        editions=playable_editions() if setup else (),
        tokens=TOKENS if setup else (),
        on_the_run=int(getattr(st, "on_the_run", 0) or 0) if st is not None else 0,
        positions=st is not None and _positions(st),
        roller=roller_of(st) if st is not None and _positions(st) else None,
        dice=tuple(int(d) for d in ctx.gesture.choices[:1]) if ctx.gesture.choices and state is BankerState.IDLE
        else _last_dice(game),
    ), **own})


_OPTIONS_SHOWN: list[tuple[object, tuple[tuple[str, int | bool], ...]]] = [(None, ())]


def _option_items(options: RuleOptions) -> tuple[tuple[str, int | bool], ...]:
    """``options`` as the view shows them (name, value), kept for the options object last shown: a game's
    options are one frozen object for the whole game, so the pairs are built once, not for every screen."""
    if _OPTIONS_SHOWN[0][0] is not options:
        _OPTIONS_SHOWN[0] = (options, tuple(options.as_dict().items()))
    return _OPTIONS_SHOWN[0][1]


def _positions(st: Any) -> bool:
    """Whether the unit keeps the tokens in this game (option ``positions``)."""
    return bool(getattr(st.options, "positions", False))


def roller_of(st: Any) -> str | None:
    """The player who rolls now when the unit keeps the tokens (each ruleset's ``moves.roller`` says the
    same): the player whose turn it is, or once they are done rolling, the next active player."""
    turn: str | None = st.turn
    last = getattr(st, "roll", None)
    if turn is None or last is None or last[0] != turn or last[2]:
        return turn
    order: tuple[str, ...] = st.order
    i = order.index(turn)
    return next((order[(i + k) % len(order)] for k in range(1, len(order) + 1)
                 if order[(i + k) % len(order)] not in st.bankrupt), turn)


_DICE_SHOWN: list[tuple[object, int, tuple[int, ...]]] = [(None, -1, ())]


def _last_dice(game: Game | None) -> tuple[int, ...]:
    """The last roll's two dice (positions mode), from the game's latest ``DiceRolled`` (searched once per
    command of the game last shown: ``game.events`` copies every event of the game)."""
    if game is None or not _positions(game.state):
        return ()
    kept_game, kept_count, dice = _DICE_SHOWN[0]
    if kept_game is game and kept_count == game.commands_applied:
        return dice
    dice = next(((e.die1, e.die2) for e in reversed(game.events) if isinstance(e, DiceRolled)), ())
    _DICE_SHOWN[0] = (game, game.commands_applied, dice)
    return dice


_TIMED = frozenset(s.value for s in GESTURE_STATES)
ACTION_TRIGGERS = (
    "press_ok", "press_cancel", "press_menu", "press_go", "press_location", "press_jail", "press_pay_fee",
    "press_roll_doubles", "press_roll_no_doubles", "press_draw", "press_end_turn", "press_decline",
    "press_bid", "press_undo", "press_settings", "press_new_game", "press_back",
    "press_build", "press_sell", "press_mortgage", "press_lift", "press_income_tax", "press_luxury_tax",
    "press_chance", "press_chest", "press_use_card", "press_jackpot", "press_trade", "press_bankrupt",
)
