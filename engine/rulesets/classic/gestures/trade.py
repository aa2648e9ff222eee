"""Deals at the table (classic; docs/rules-classic.md 7): Trade, both players' bank cards, then what each
side gives: a deed tapped goes from its owner (tapped again, it comes off), cash on the keypad
(``choose cash=SEAT:AMOUNT``), Get Out of Jail Free cards (the physical card tapped, or
``choose card=ID``). The first side to tap their card again confirms: that is the offer (``ProposeTrade``);
the other side's card accepts it (``AcceptTrade``) and everything changes hands at once, each receiver of a
mortgaged deed paying its transfer fee. X, or the timeout, withdraws an open offer (``CancelTrade``)."""

from __future__ import annotations

from transitions import EventData

from engine.banker.context import Context, Refusal, input_value
from engine.banker.setup import player_id, seat_of
from engine.banker.viewmodel import TransactionView
from engine.numbers import parse_count
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.edition import cards
from engine.rulesets.classic.gestures.base import cst


def start_trade(ctx: Context, event: EventData) -> None:
    player = ctx.gesture.player
    ctx.forget_gesture()
    ctx.gesture.player = player
    ctx.gesture.action = "trade"


def _sides(ctx: Context) -> tuple[str | None, str | None]:
    return ctx.gesture.player, ctx.gesture.partner


def trade_needs_side(ctx: Context, event: EventData) -> bool:
    """A bank card while fewer than two sides are known: it becomes a side (not the same player twice)."""
    pid = ctx.input_player(event)
    first, second = _sides(ctx)
    if second is not None or pid is None:
        return False
    if ctx.durable is None or pid not in cst(ctx).specs or pid in cst(ctx).bankrupt:
        ctx.refusal = Refusal("error.not_playing", {"seat": seat_of(pid)})
        return False
    if pid == first:
        ctx.refusal = Refusal("error.trade_needs_partner", {"player": pid})
        return False
    return True


def add_side(ctx: Context, event: EventData) -> None:
    pid = ctx.input_player(event)
    if ctx.gesture.player is None:
        ctx.gesture.player = pid
    else:
        ctx.gesture.partner = pid


def offer_of(ctx: Context, confirmer: str) -> cc.ProposeTrade:
    """The deal put together so far, as ``confirmer``'s offer to the other side."""
    g, st = ctx.gesture, cst(ctx)
    other = g.partner if confirmer == g.player else g.player
    assert other is not None
    held = st.held
    return cc.ProposeTrade(
        confirmer, other,
        give_deeds=tuple(sorted(d for d in g.deal_deeds if st.owner.get(d) == confirmer)),
        give_cash=g.deal_cash.get(confirmer, 0),
        give_cards=tuple(sorted(c for c in g.deal_cards if held.get(c) == confirmer)),
        take_deeds=tuple(sorted(d for d in g.deal_deeds if st.owner.get(d) == other)),
        take_cash=g.deal_cash.get(other, 0),
        take_cards=tuple(sorted(c for c in g.deal_cards if held.get(c) == other)),
    )


def is_trade_side(ctx: Context, event: EventData) -> bool:
    pid = ctx.input_player(event)
    first, second = _sides(ctx)
    if second is None or pid is None:
        return False
    if pid not in (first, second):
        ctx.refusal = Refusal("error.not_in_trade", {"player": pid})
        return False
    return True


def can_propose(ctx: Context, event: EventData) -> bool:
    pid = ctx.input_player(event)
    return ctx.probing if pid is None else ctx.allowed(offer_of(ctx, pid))


def do_propose(ctx: Context, event: EventData) -> None:
    pid = ctx.input_player(event)
    assert pid is not None
    ctx.apply(offer_of(ctx, pid))


def _side_of_deed(ctx: Context, event: EventData) -> str | None:
    deed = ctx.input_deed(event)
    owner = ctx.owner(deed)
    return owner if owner is not None and owner in _sides(ctx) else None


def can_add_deed(ctx: Context, event: EventData) -> bool:
    """A deed of one side, whose colour set has no buildings (the engine's offer check says why not)."""
    deed = ctx.input_deed(event)
    if deed is None:
        return ctx.probing
    first, second = _sides(ctx)
    owner = _side_of_deed(ctx, event)
    if first is None or second is None or owner is None:
        ctx.refusal = Refusal("error.not_in_trade", {"deed": deed})
        return False
    if deed in ctx.gesture.deal_deeds:
        return True  # tapped again: it comes off the deal
    other = second if owner == first else first
    return ctx.allowed(cc.ProposeTrade(owner, other, give_deeds=(deed,)))


def toggle_deed(ctx: Context, event: EventData) -> None:
    deed = ctx.input_deed(event)
    assert deed is not None
    deeds = ctx.gesture.deal_deeds
    deeds.remove(deed) if deed in deeds else deeds.append(deed)


def _card_holder(ctx: Context, card: int | None) -> str | None:
    if card is None or ctx.durable is None:
        return None
    holder = cst(ctx).held.get(card)
    return holder if holder is not None and holder in _sides(ctx) else None


def can_add_card(ctx: Context, event: EventData) -> bool:
    value = input_value(event)
    if value is None:
        return ctx.probing
    if _card_holder(ctx, int(value)) is None or ctx.gesture.partner is None:
        ctx.refusal = Refusal("error.not_in_trade", {"card": int(value)})
        return False
    return True


def _toggle(items: list[int], item: int) -> None:
    items.remove(item) if item in items else items.append(item)


def toggle_card(ctx: Context, event: EventData) -> None:
    _toggle(ctx.gesture.deal_cards, int(input_value(event)))


def _deal_answer(ctx: Context, text: str) -> tuple[str, str, int] | None:
    """``cash=SEAT:AMOUNT`` -> ("cash", player, amount); ``card=ID`` -> ("card", holder, id); None: bad."""
    kind, _, rest = text.partition("=")
    kind = kind.strip().lower()
    if kind == "cash":
        seat, _, amount = rest.partition(":")
        seat_n, cash = parse_count(seat.strip(), 2), parse_count(amount.strip())
        pid = player_id(seat_n) if seat_n is not None else None
        if pid is None or cash is None or pid not in _sides(ctx):
            return None
        return "cash", pid, cash
    if kind == "card":
        card = parse_count(rest.strip(), 3)
        holder = _card_holder(ctx, card)
        game = ctx.game
        if card is None or holder is None or game is None or card not in cards(game.edition):
            return None
        return "card", holder, card
    return None


def deal_answer_valid(ctx: Context, event: EventData) -> bool:
    value = input_value(event)
    if value is None:
        return ctx.probing
    answer = _deal_answer(ctx, str(value)) if ctx.gesture.partner is not None else None
    if answer is None:
        ctx.refusal = Refusal("error.bad_deal", {"value": str(value)[:40],
                                                 "expected": "cash=SEAT:AMOUNT or card=ID of a side"})
        return False
    kind, pid, amount = answer
    if kind == "cash" and amount > cst(ctx).ledger.balances[pid]:
        ctx.refusal = Refusal("error.bad_deal", {"value": str(value)[:40], "cash": cst(ctx).ledger.balances[pid]})
        return False
    return True


def do_deal_answer(ctx: Context, event: EventData) -> None:
    answer = _deal_answer(ctx, str(input_value(event)))
    assert answer is not None
    kind, pid, amount = answer
    if kind == "cash":
        ctx.gesture.deal_cash[pid] = amount
    else:
        _toggle(ctx.gesture.deal_cards, amount)


# -- the open offer ---------------------------------------------------------------------------------------


def trade_is_open(ctx: Context, event: EventData) -> bool:
    return ctx.durable is not None and cst(ctx).trade is not None


def is_partner(ctx: Context, event: EventData) -> bool:
    trade = cst(ctx).trade if ctx.durable is not None else None
    pid = ctx.input_player(event)
    if trade is None or (pid is not None and pid != trade.partner):
        ctx.refusal = Refusal("error.not_partner", {"partner": trade.partner if trade else ""})
        return False
    return True


def can_accept(ctx: Context, event: EventData) -> bool:
    pid = ctx.input_player(event)
    return ctx.probing if pid is None else ctx.allowed(cc.AcceptTrade(pid))


def do_accept(ctx: Context, event: EventData) -> None:
    """The deal changes hands; its cash is the last payment the banner shows (the net amount, from the side
    that gives more; a deal of deeds alone leaves the banner as it was, or its transfer fees)."""
    pid = ctx.input_player(event)
    assert pid is not None
    offer = cst(ctx).trade
    ctx.apply(cc.AcceptTrade(pid))
    done = next((e for e in ctx.events if type(e).__name__ == "TradeCompleted"), None)
    if offer is None or done is None or offer.give_cash == offer.take_cash:
        return
    net = offer.give_cash - offer.take_cash
    payer, payee = (offer.player, offer.partner) if net > 0 else (offer.partner, offer.player)
    if ctx.last_tx is None or ctx.last_tx.seq <= done.seq:  # (a fee paid after it is later still)
        ctx.last_tx = TransactionView(done.seq, "TradeCompleted", abs(net), payer, payee)


def can_cancel_trade(ctx: Context, event: EventData) -> bool:
    trade = cst(ctx).trade if ctx.durable is not None else None
    return trade is not None and ctx.allowed(cc.CancelTrade(trade.player))


def do_cancel_trade(ctx: Context, event: EventData) -> None:
    trade = cst(ctx).trade
    assert trade is not None
    ctx.apply(cc.CancelTrade(trade.player))
