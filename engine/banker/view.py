"""Building the banker's :class:`~engine.banker.viewmodel.ViewModel`: players, board, prompt, choices, auction.

Everything here reads the engine's state and the banker's gesture; nothing decides a rule (the event
choices offered are the candidates ``Game.check`` accepts). Amounts are ``int`` in the edition's money
unit. Player ids are ``"p<seat>"`` (seat 1..8, the number of the player's bank card).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from engine import events as ev
from engine.banker.table import BankerState
from engine.banker.viewmodel import (
    AuctionView,
    ChoiceView,
    DebtView,
    EventCardView,
    PlayerView,
    Prompt,
    SpaceView,
    StandingView,
    TransactionView,
    ViewModel,
)
from engine.editions import Edition, EventCard, list_editions
from engine.events import Event
from engine.game import Game
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate import events as uev
from engine.rulesets.ultimate.state import GameState

if TYPE_CHECKING:
    from engine.banker.context import BankerCore, Refusal
    from engine.banker.setup import BankerSetup

TOKENS = ("red", "green", "blue", "white", "yellow", "black", "orange", "purple")
"""Default token colour of each seat (the four of the box first)."""

_PHASE_STATE = {"setup": BankerState.SETUP, "play": BankerState.IDLE, "auction": BankerState.AUCTION,
                "event": BankerState.EVENT, "debt": BankerState.DEBT, "over": BankerState.OVER}
_HISTORY_POINTS = 200  # at most this many points per player are rebuilt on resume


def player_id(seat: int) -> str:
    """The engine's id of the player at ``seat`` (``3`` -> ``"p3"``)."""
    return f"p{seat}"


def seat_of(pid: str | None) -> int | str:
    """The seat number of a player id (``"p3"`` -> 3); the id itself if it is not a seat id."""
    if pid is None:
        return "none"
    return int(pid[1:]) if pid.startswith("p") and pid[1:].isdigit() else pid


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


def _candidates(edition: Edition, state: GameState, kind: str, player: str, step: int) -> list[str | int]:
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
    pending = game.state.pending
    if pending is None:
        return ()
    card = event_card(game.edition, pending.card)
    need = choices_needed(game.edition, pending.card)
    if need == 0:
        return (ChoiceView("ok", "choice.ok"),)
    out: list[ChoiceView] = []
    for value in _candidates(game.edition, game.state, card.choice, pending.player, len(chosen)):
        answer = (*chosen, value)
        if len(answer) == need and game.check(uc.ResolveEvent(pending.player, answer)) is not None:
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
        state = Game.replay(edition, events[:end]).state
        for pid in state.order:
            history.setdefault(pid, []).append(state.wealth(pid))
    return history


class BoardCache:
    """The last board built, kept with the game object and its command count (the board changes only then)."""

    def __init__(self) -> None:
        self._game: Game | None = None
        self._key: tuple[int, str] = (-2, "")
        self._board: tuple[SpaceView, ...] = ()

    def board(self, game: Game | None, edition: Edition) -> tuple[SpaceView, ...]:
        """The 36 spaces with owner, level and rent (money units)."""
        key = (game.commands_applied if game else -1, edition.id)
        if game is not self._game or key != self._key:
            self._game, self._key, self._board = game, key, _build_board(game, edition)
        return self._board


_STATIC_BOARDS: dict[str, tuple[SpaceView, ...]] = {}


def _static_board(edition: Edition) -> tuple[SpaceView, ...]:
    """The board of an edition with nobody owning anything (built once per edition)."""
    board = _STATIC_BOARDS.get(edition.id)
    if board is None:
        spaces: list[SpaceView] = []
        for space in edition.spaces:
            if space.deed is None:
                spaces.append(SpaceView(space.position, space.kind, space.name))
            else:
                deed = edition.deeds[space.deed]
                spaces.append(SpaceView(space.position, space.kind, space.name, deed.number, deed.colour,
                                        deed.price))
        _STATIC_BOARDS[edition.id] = board = tuple(spaces)
    return board


def _build_board(game: Game | None, edition: Edition) -> tuple[SpaceView, ...]:
    board = _static_board(edition)
    if game is None or not game.state.owner:
        return board
    state = game.state
    spaces = list(board)
    for number, owner in state.owner.items():
        position = edition.deeds[number].position
        base = spaces[position]
        spaces[position] = SpaceView(base.position, base.kind, base.name, base.deed, base.colour, base.price,
                                     owner, state.level[number], state.rent_due(number))
    return tuple(spaces)


def last_transaction(events: Sequence[Event]) -> TransactionView | None:
    """The latest money movement among ``events`` (for the screen's animation), or None.

    ``amount`` in money units from ``payer`` to ``payee``; None stands for the Bank.
    """
    for e in reversed(events):
        kind = type(e).__name__
        row: tuple[int, str | None, str | None] | None = None
        if isinstance(e, ev.RentPaid):
            row = (e.amount, e.payer, e.owner)
        elif isinstance(e, ev.MoneyTransferred):
            row = (e.amount, e.payer, e.payee)
        elif isinstance(e, ev.SalaryPaid):
            row = (e.amount, None, e.player)
        elif isinstance(e, ev.DeedBought):
            row = (e.price, e.player, None)
        elif isinstance(e, ev.AuctionWon):
            row = (e.amount, e.player, None)
        elif isinstance(e, uev.LocationUsed):
            row = (e.fee, e.player, None)
        elif isinstance(e, uev.DeedReturned):
            row = (e.price, None, e.player)
        if row is not None:
            amount, payer, payee = row
            return TransactionView(e.seq, kind, amount, None if payer == "bank" else payer,
                                   None if payee == "bank" else payee)
    return None


def prompt_for(banker: BankerCore) -> Prompt:
    """What the unit asks for in the banker's current state (a translation key and parameters)."""
    s: BankerState = banker.state
    g, game = banker.gesture, banker.game
    st = game.state if game else None
    p: list[tuple[str, str | int]] = []
    if s is BankerState.SETUP:
        p = [("seated", len(banker.seats))]
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
    elif s is BankerState.PLAYER and st is not None and g.player in st.specs:
        p = [("player", g.player or ""), ("balance", st.balance(g.player or ""))]
    elif s is BankerState.ACTION:
        p = [("action", g.action or "")]
    elif s is BankerState.LOCATION:
        p = [("player", g.player or "")]
    elif s is BankerState.EVENT_CARD:
        p = [("card", g.event_card or 0)]
    elif s is BankerState.EVENT and st is not None and st.pending is not None and game is not None:
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


def build_view(banker: BankerSetup, refusal: Refusal | None = None) -> ViewModel:
    """The whole screen for the banker's current state (``refusal`` adds the error to ``extra``)."""
    game = banker.game
    edition = game.edition if game else banker.setup_edition
    st = game.state if game else None
    state: BankerState = banker.state
    now = banker._clock()
    players: tuple[PlayerView, ...] = ()
    standings: tuple[StandingView, ...] = ()
    if st is not None:
        states = st.players
        players = tuple(
            PlayerView(p.id, p.name, p.token, p.balance, st.wealth(p.id), p.in_jail, p.bankrupt, p.deeds)
            for p in (states[pid] for pid in st.order)
        )
        if st.phase == "over":
            rows = st.standings_final or st.standings()
            standings = tuple(StandingView(r.rank, r.player, r.cash, r.deeds_value, r.total) for r in rows)
    elif banker.seats:
        players = tuple(PlayerView(player_id(s), banker.seat_name(s), banker.seat_token(s), 0, 0)
                        for s in sorted(banker.seats))
    setup = state is BankerState.SETUP
    options = st.options if st is not None and not setup else banker.setup_options()
    event_view = None
    if st is not None and st.pending is not None and game is not None:
        card = event_card(edition, st.pending.card)
        event_view = EventCardView(card.id, f"event.{card.key}", f"event.{card.key}.text",
                                   choice_views(game, banker.gesture.choices))
    auction = None
    if st is not None and st.auction is not None:
        left = max(0.0, banker.deadline - now) if banker.deadline is not None else 0.0
        auction = AuctionView(st.auction.deed, st.auction.high_bid, st.auction.high_bidder, st.auction.bidders,
                              left)
    debt = None
    if st is not None and st.debt is not None:
        debt = DebtView(st.debt.debtor, None if st.debt.creditor == "bank" else st.debt.creditor, st.debt.amount)
    extra: list[tuple[str, str | int]] = [
        ("seats", len(banker.seats)), ("timeout_s", f"{banker.setting_shown('timeout_s'):g}"),
        ("auction_s", f"{banker.setting_shown('auction_s'):g}"),
        ("pin_typed", len(banker.gesture.pin)),
    ]
    if refusal is not None:
        extra.append(("error", refusal.key))
        extra.extend((f"error_{k}", v) for k, v in refusal.params.items())
    actions = tuple(t for t in _ACTION_TRIGGERS if banker.may(t))
    return ViewModel(
        state=state.value,
        edition=edition.id,
        currency=edition.currency,
        players=players,
        board=banker.board_cache.board(game, edition),
        prompt=prompt_for(banker),
        actions=actions,
        last_transaction=banker.last_tx,
        event_card=event_view,
        auction=auction,
        debt=debt,
        standings=standings,
        wealth_history=tuple((pid, tuple(v)) for pid, v in banker.history.items()),
        seq=banker.last_seq,
        extra=tuple(extra),
        phase=st.phase if st is not None else "setup",
        turn=st.turn if st is not None else None,
        selected_player=banker.gesture.player,
        selected_deed=banker.gesture.deed,
        seconds_left=(max(0.0, banker.timeout_s - (now - banker.since))
                      if state.value in _TIMED else None),
        options=tuple(options.as_dict().items()),
        editions=_editions() if setup else (),
        tokens=TOKENS if setup else (),
    )


@cache
def _editions() -> tuple[str, ...]:
    """The built-in editions (read once: the files do not change while the unit runs)."""
    return tuple(list_editions())


_TIMED = frozenset({"deed", "buy", "player", "action", "location", "event_card", "pin", "menu", "settings"})
_ACTION_TRIGGERS = (
    "press_ok", "press_cancel", "press_menu", "press_go", "press_location", "press_jail", "press_pay_fee",
    "press_roll_doubles", "press_roll_no_doubles", "press_draw", "press_end_turn", "press_decline",
    "press_bid", "press_undo", "press_settings", "press_new_game",
)
