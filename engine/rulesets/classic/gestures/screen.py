"""What the classic game adds to the banker's view (engine/banker/hooks.py): the players' worth, each
deed's houses, hotel and mortgage, the prompts of its states with their amounts, and the parts of the
view-model a classic screen draws (the gesture under way, the card, the clock, the pot, the supply).
Nothing here decides a rule: amounts come from the rule modules' own functions. Money in money units."""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from engine.banker.context import Context
from engine.banker.hooks import RulesetView
from engine.banker.table import BankerState
from engine.banker.viewmodel import (
    AuctionView,
    BuildView,
    CardView,
    ChoiceView,
    ClockView,
    DebtView,
    MortgageView,
    PlayerView,
    Prompt,
    SpaceView,
    TaxView,
    TradeSideView,
    TradeView,
)
from engine.editions import Edition
from engine.game import Game
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.base import rent_for
from engine.rulesets.classic.building import hotels_left, houses_left, lift_cost, next_kind, sell_refund
from engine.rulesets.classic.edition import cards
from engine.rulesets.classic.gestures.actions import BUILDING, deck_of, deck_spaces, tax_amounts, tax_position
from engine.rulesets.classic.gestures.auction import TAP_STEP, lowest_bid
from engine.rulesets.classic.gestures.base import cst
from engine.rulesets.classic.gestures.cardmove import show_drawn
from engine.rulesets.classic.gestures.clock import MINUTE_S, elapsed_s, timed
from engine.rulesets.classic.gestures.trade import offer_of
from engine.rulesets.classic.rent import RENT_TAX
from engine.rulesets.classic.standings import worth
from engine.rulesets.classic.state import HOTEL, ClassicState
from engine.rulesets.classic.trade import transfer_fee
from engine.rulesets.classic.turns import salary

S = BankerState


def wealth(state: ClassicState, edition: Edition, player: str) -> int:
    """A player's worth as the standings count it (docs/rules-classic.md 9)."""
    return worth(state, edition, player, mortgaged_at_half=True)


def space(state: ClassicState, edition: Edition, deed: int, base: SpaceView) -> SpaceView:
    """An owned deed: its owner, buildings (``level`` 0..5), rent now (a utility: its dice multiplier)."""
    level = state.level.get(deed, 0)
    rent = rent_for(state, edition, deed, 1)
    return SpaceView(base.position, base.kind, base.name, base.deed, base.colour, base.price, state.owner[deed],
                     level, rent, level if level < HOTEL else 0, level == HOTEL, deed in state.mortgaged)


def rent_tax(state: ClassicState) -> int:
    """The percent of each rent the Bank keeps now (docs/rules-classic.md 10)."""
    if not state.options.late_game_rent_tax:
        return 0
    return next((percent for minute, percent in RENT_TAX if state.minute >= minute), 0)


def _deed_params(ctx: Context, deed: int) -> list[tuple[str, str | int]]:
    st, ed = cst(ctx), ctx.durable.game.edition if ctx.durable else None
    assert ed is not None
    d = ed.deeds[deed]
    params: list[tuple[str, str | int]] = [("deed", deed), ("name", d.name), ("price", d.price), ("kind", d.kind)]
    if deed in st.owner:
        params += [("owner", st.owner[deed]), ("level", st.level.get(deed, 0)),
                   ("rent", rent_for(st, ed, deed, 1)), ("mortgaged", int(deed in st.mortgaged))]
    return params


def prompt(ctx: Context, state: BankerState) -> Prompt | None:
    """The prompt of a classic state, with its amounts (None: the shared prompt)."""
    if ctx.durable is None:
        return None
    st, g = cst(ctx), ctx.gesture
    p: list[tuple[str, str | int]] = []
    if state in (S.DEED, S.BUY, S.OWN, S.DICE) and g.deed is not None:
        p = _deed_params(ctx, g.deed) + ([("player", g.player)] if g.player else [])
    elif state is S.IDLE:
        p = [("player", st.turn or "")]
        if ctx.drawn is not None and ctx.drawn[2] is not None:
            p += [("moved", ctx.drawn[1]), ("to", ctx.durable.game.edition.spaces[ctx.drawn[2]].name)]
    elif state is S.BUILD and g.player is not None:
        p = [("player", g.player), ("mode", g.action or ""), ("total", g.total), ("count", len(g.steps))]
    elif state is S.TAX and g.player is not None:
        flat, share = tax_amounts(ctx)
        p = [("player", g.player), ("flat", flat), ("percent", share if share is not None else flat)]
    elif state is S.CARD_SPACE:
        p = [("player", g.player or ""), ("deck", deck_of(ctx, g.action, g.event_card) or "")]
    elif state in (S.TRADE, S.TRADE_OPEN):
        trade = st.trade
        first, second = (trade.player, trade.partner) if trade is not None else (g.player, g.partner)
        p = [("first", first or ""), ("second", second or "")]
    elif state is S.PLACE and st.credit is not None:
        p = [("player", st.credit[0]), ("kind", st.credit[1]), ("price", st.credit[2])]
    elif state is S.DEBT and st.debt is not None:
        d = st.debt
        p = [("debtor", d.debtor), ("due", d.amount), ("short", max(0, d.amount - st.ledger.balances[d.debtor])),
             ("creditor", d.creditor)]
    elif state in (S.AUCTION, S.AUCTION_WON) and st.auction is not None:
        a = st.auction
        p = [("deed", a.deed), ("kind", a.kind), ("high_bid", a.high_bid), ("high_bidder", a.high_bidder or ""),
             ("bidder", g.player or "")]
    elif state is S.EVENT_CARD:
        p = [("card", g.event_card or 0)]
    else:
        return None
    if state in CLASSIC_WORDS and (state is not S.DEED or g.deed in st.owner):
        if state is S.DEED:
            p.append(("built_key", f"built.{st.level.get(g.deed or 0, 0)}"))
        elif state is S.AUCTION:
            p.append(("step", TAP_STEP))
        return Prompt(f"prompt.classic_{state.value}", tuple(p))
    return Prompt(f"prompt.{state.value}", tuple(p))


CLASSIC_WORDS = frozenset({S.IDLE, S.DEED, S.EVENT_CARD, S.AUCTION})
"""States whose shared prompt says Ultimate's words (an event card, a level, the raise buttons): the classic
game has its own (``prompt.classic_<state>``: Chance and Community Chest, the houses or the hotel built, what
a bidder's tap adds)."""


def _building(ctx: Context) -> BuildView | None:
    g, game = ctx.gesture, ctx.game
    if g.player is None or g.action not in BUILDING or game is None:
        return None
    st, ed = cst(ctx), game.edition
    offers: list[tuple[int, int, bool]] = []
    for deed in st.deeds_of(g.player):
        if ed.deeds[deed].kind != "street":
            continue
        if g.action == "build" and ctx.check(cc.BuildHouse(g.player, deed)) is None:
            offers.append((deed, ed.deeds[deed].house_cost, next_kind(st, deed) == "hotel"))
        elif g.action == "sell" and ctx.check(cc.SellBuilding(g.player, deed)) is None:
            offers.append((deed, sell_refund(st, ed, deed), st.level.get(deed) == HOTEL))
    return BuildView(g.player, g.action or "", tuple(g.steps), g.total, tuple(offers), houses_left(st),
                     hotels_left(st))


def _mortgage(ctx: Context) -> MortgageView | None:
    g, game = ctx.gesture, ctx.game
    if g.deed is None or g.player is None or game is None:
        return None
    st, ed = cst(ctx), game.edition
    value = ed.deeds[g.deed].mortgage
    cost = lift_cost(st, ed, g.deed)
    blocked = "" if g.deed in st.mortgaged else (
        getattr(ctx.check(cc.MortgageDeed(g.player, g.deed)), "key", "") or "")
    return MortgageView(g.deed, g.player, g.deed in st.mortgaged, value, cost, cost - value,
                        f"reason.{blocked}" if blocked else "")


def _trade(ctx: Context) -> TradeView | None:
    st, g, game = cst(ctx), ctx.gesture, ctx.game
    assert game is not None
    if st.trade is not None:
        o = st.trade
        fees_first = sum(transfer_fee(st, game.edition, d) for d in o.take_deeds if d in st.mortgaged)
        fees_second = sum(transfer_fee(st, game.edition, d) for d in o.give_deeds if d in st.mortgaged)
        return TradeView(TradeSideView(o.player, o.give_deeds, o.give_cash, o.give_cards, fees_first, True),
                         TradeSideView(o.partner, o.take_deeds, o.take_cash, o.take_cards, fees_second), True)
    if g.action != "trade":
        return None
    if g.player is None or g.partner is None:
        return TradeView(TradeSideView(g.player), TradeSideView(None))
    offer = offer_of(ctx, g.player)
    fees_first = sum(transfer_fee(st, game.edition, d) for d in offer.take_deeds if d in st.mortgaged)
    fees_second = sum(transfer_fee(st, game.edition, d) for d in offer.give_deeds if d in st.mortgaged)
    return TradeView(TradeSideView(g.player, offer.give_deeds, offer.give_cash, offer.give_cards, fees_first),
                     TradeSideView(g.partner, offer.take_deeds, offer.take_cash, offer.take_cards, fees_second))


def _card(ctx: Context, state: BankerState) -> CardView | None:
    game, g = ctx.game, ctx.gesture
    assert game is not None
    deck = cards(game.edition)
    if ctx.drawn is not None and state is S.IDLE:
        drawn_id, player, moved = ctx.drawn
        c = deck[drawn_id]
        return CardView(c.id, c.deck, f"event.{c.key}", f"event.{c.key}.text", c.effect, c.amount, player, moved,
                        drawn=True)
    if state not in (S.EVENT_CARD, S.CARD_SPACE):
        return None
    card_id: int | None = g.event_card
    if card_id is None and state is S.CARD_SPACE:
        st = cst(ctx)
        pile = st.chance if g.action == "chance" else st.chest
        card_id = pile[0] if pile else None
    if card_id is None or card_id not in deck:
        return None
    c = deck[card_id]
    spaces = deck_spaces(ctx, c.deck) if state is S.CARD_SPACE else ()
    return CardView(c.id, c.deck, f"event.{c.key}", f"event.{c.key}.text", c.effect, c.amount, g.player,
                    spaces=spaces)


def _choices(ctx: Context, state: BankerState, card: CardView | None) -> tuple[ChoiceView, ...]:
    if state is S.TAX and ctx.gesture.player is not None:
        flat, share = tax_amounts(ctx)
        out = [ChoiceView("flat", "choice.tax_flat", (("amount", flat),))]
        if share is not None:
            out.append(ChoiceView("percent", "choice.tax_percent", (("amount", share),)))
        return tuple(out)
    if state is S.CARD_SPACE and card is not None and ctx.game is not None:
        return tuple(ChoiceView(str(p), "choice.space", (("name", ctx.game.edition.spaces[p].name),))
                     for p in card.spaces)
    return ()


def _clock(ctx: Context) -> ClockView | None:
    if not timed(ctx):
        return None
    st = cst(ctx)
    elapsed = elapsed_s(ctx)
    limit = st.options.time_limit
    left = max(0.0, limit * MINUTE_S - elapsed) if limit > 0 else None
    return ClockView(st.minute, elapsed, limit, left, rent_tax(st), salary(st))


_PLAYERS: WeakKeyDictionary[Context, tuple[tuple[int, int], tuple[PlayerView, ...]]] = WeakKeyDictionary()
"""Each banker's players as shown, with the game and command count they were built at: the inputs of one gesture (and
the views between commands) show the same state, so they are built once per command."""


def _players(ctx: Context, game: Game, st: ClassicState, ed: Edition) -> tuple[PlayerView, ...]:
    version = (id(game), game.commands_applied)  # (``game.events`` would copy every event of the game)
    kept = _PLAYERS.get(ctx)
    if kept is not None and kept[0] == version:
        return kept[1]
    players = tuple(PlayerView(p, s.name, s.token, st.ledger.balances[p], wealth(st, ed, p), p in st.jail,
                               p in st.bankrupt, st.deeds_of(p), st.cards_of(p)) for p, s in
                    ((p, st.specs[p]) for p in st.order))
    _PLAYERS[ctx] = (version, players)
    return players


def fields(ctx: Context, state: BankerState) -> dict[str, Any]:
    """The classic parts of the view-model (names of :class:`~engine.banker.viewmodel.ViewModel` fields)."""
    game = ctx.game
    assert game is not None
    st, ed = cst(ctx), game.edition
    players = _players(ctx, game, st, ed)
    card = _card(ctx, state)
    out: dict[str, Any] = {
        "players": players, "card": card, "choices": _choices(ctx, state, card), "clock": _clock(ctx),
        "pot": st.pot, "houses_left": houses_left(st), "hotels_left": hotels_left(st),
        "building": _building(ctx) if state is S.BUILD else None,
        "mortgage": _mortgage(ctx) if state is S.OWN else None,
        "trade": _trade(ctx) if state in (S.TRADE, S.TRADE_OPEN) or st.trade is not None else None,
    }
    if state is S.TAX and ctx.gesture.player is not None:
        flat, share = tax_amounts(ctx)
        position = tax_position(ctx, ctx.gesture.action)
        assert position is not None
        out["tax"] = TaxView(ctx.gesture.player, position, (ctx.gesture.action or "").removesuffix("_tax"), flat,
                             share, st.options.income_tax_percent)
    if st.debt is not None:
        d = st.debt
        cash = st.ledger.balances[d.debtor]
        out["debt"] = DebtView(d.debtor, None if d.creditor == "bank" else d.creditor, d.amount,
                               max(0, d.amount - cash), d.reason, cash >= d.amount)
    if st.auction is not None:
        a = st.auction
        bidder = ctx.gesture.player
        low = lowest_bid(ctx, bidder) if bidder in a.bidders and bidder is not None else a.high_bid + 1
        left = max(0.0, ctx.deadline - ctx.clock()) if ctx.deadline is not None else 0.0
        out["auction"] = AuctionView(a.deed, a.high_bid, a.high_bidder, a.bidders, left, a.kind, low)
    if game.commands_applied == 1 and st.options.deal_two:
        out["dealt"] = tuple((p, st.deeds_of(p)) for p in st.order)
    if state is S.PLACE and st.credit is not None:
        out["selected_player"] = st.credit[0]
    return out


VIEW = RulesetView(wealth=wealth, space=space, prompt=prompt, fields=fields, resumed=show_drawn)
"""The classic game's hooks into the banker's view."""
