"""Deals between players (docs/rules-classic.md 7; docs/rules.md 6.3; seed 000 standard text, seed 001).

``ProposeTrade`` offers deeds (none of whose colour set has buildings), cash and Get Out of Jail Free cards
for the partner's; ``AcceptTrade`` by the partner completes it (both sides have confirmed), ``CancelTrade``
by either side withdraws it. One offer is open at a time. No loans: cash only changes hands as part of a
deal. A mortgaged deed received costs the receiver ``mortgage_transfer_fee`` percent of its mortgage value
at once; lifting it before their turn ends then costs the mortgage alone. Amounts in money units.
"""

from __future__ import annotations

from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.base import Table, check_phase, check_player
from engine.rulesets.classic.commands import AcceptTrade, CancelTrade, ProposeTrade
from engine.rulesets.classic.state import ClassicState, Offer
from engine.rulesets.classic.turnlimits import before_roll_refusal


def transfer_fee(s: ClassicState, ed: Edition, deed: int) -> int:
    """What a receiver of mortgaged ``deed`` pays the Bank at once (rounded up), in money units."""
    return (ed.deeds[deed].mortgage * s.options.mortgage_transfer_fee + 99) // 100


def _side(s: ClassicState, ed: Edition, player: str, deeds: object, cash: object, cards: object,
          what: str) -> Refusal | None:
    """Why ``player`` cannot hand over these ``deeds``, ``cash`` and ``cards``."""
    if not isinstance(deeds, tuple) or not isinstance(cards, tuple) or isinstance(cash, bool) \
            or not isinstance(cash, int) or cash < 0:
        return refuse("bad_offer", f"{what}: expected tuples of deeds and cards and cash >= 0", command=what)
    if len(set(deeds)) != len(deeds) or len(set(cards)) != len(cards):
        return refuse("bad_offer", f"{what}: a deed or card is offered twice", command=what)
    for d in deeds:
        if s.owner.get(d) != player:
            return refuse("deed_not_yours", f"{what}: deed {d!r} is not {player}'s", command=what, deed=repr(d),
                          player=player, owner=s.owner.get(d, BANK) if isinstance(d, int) else BANK)
        colour = ed.deeds[d].colour
        if any(s.level.get(m) for m in ed.colour_sets[colour]):
            return refuse("set_has_buildings", f"{what}: sell the buildings of the {colour} set before trading "
                          f"deed {d}", command=what, deed=d, colour=colour)
        if d in s.mortgaged and not s.options.sell_mortgaged:  # seed 000 l. 161, seed 002 l. 86
            return refuse("mortgaged_not_sold", f"{what}: deed {d} is mortgaged; mortgaged lots are not sold to "
                          "other players (second text)", command=what, deed=d, player=player)
    for c in cards:
        if s.held.get(c) != player:
            return refuse("card_not_yours", f"{what}: {player} does not hold jail card {c!r}", command=what,
                          card=repr(c), player=player)
    if cash > s.ledger.balances[player]:
        return refuse("short_of_cash", f"{what}: {player} has {s.ledger.balances[player]}, the deal needs {cash}",
                      command=what, player=player, cash=s.ledger.balances[player], price=cash)
    return None


def _check_offer(s: ClassicState, ed: Edition, o: Offer | ProposeTrade, what: str) -> Refusal | None:
    reason = check_player(s, o.player, what) or check_player(s, o.partner, what)
    if reason:
        return reason
    if o.player == o.partner:
        return refuse("bad_offer", f"{what}: a deal needs two different players", command=what)
    if s.options.deals_before_roll:  # seed 000 l. 155, seed 002 l. 80: only before the turn's roll
        side = o.player if o.player == s.turn else o.partner
        reason = before_roll_refusal(s, side, "deals_before_roll", what)
        if reason:
            return reason
    reason = _side(s, ed, o.player, o.give_deeds, o.give_cash, o.give_cards, what)
    reason = reason or _side(s, ed, o.partner, o.take_deeds, o.take_cash, o.take_cards, what)
    if reason:
        return reason
    if not (o.give_deeds or o.give_cash or o.give_cards or o.take_deeds or o.take_cash or o.take_cards):
        return refuse("bad_offer", f"{what}: the deal hands over nothing", command=what)
    if not (o.give_deeds or o.give_cards or o.take_deeds or o.take_cards):
        return refuse("bad_offer", f"{what}: a deal trades deeds or jail cards; cash alone would be a loan, "
                      "and players do not lend", command=what)
    return None


def check_propose(s: ClassicState, ed: Edition, cmd: ProposeTrade) -> Refusal | None:
    """ProposeTrade: phase play, no other open offer, both sides can hand over what is named."""
    what = "ProposeTrade"
    reason = check_phase(s, "play", what)
    if reason:
        return reason
    if s.trade is not None:
        return refuse("trade_open", f"{what}: {s.trade.player}'s offer to {s.trade.partner} is still open",
                      command=what, player=s.trade.player, partner=s.trade.partner)
    return _check_offer(s, ed, cmd, what)


def do_propose(t: Table, cmd: ProposeTrade) -> None:
    """Record the offer."""
    t.emit(cev.TradeProposed, cmd.player, cmd.partner, cmd.give_deeds, cmd.give_cash, cmd.give_cards,
           cmd.take_deeds, cmd.take_cash, cmd.take_cards)


def _fees(s: ClassicState, ed: Edition, deeds: tuple[int, ...]) -> int:
    return sum(transfer_fee(s, ed, d) for d in deeds if d in s.mortgaged)


def check_accept(s: ClassicState, ed: Edition, cmd: AcceptTrade) -> Refusal | None:
    """AcceptTrade: the partner of the open offer, still valid, each side able to pay its transfer fees."""
    what = "AcceptTrade"
    reason = check_phase(s, "play", what)
    if reason:
        return reason
    o = s.trade
    if o is None:
        return refuse("no_trade", f"{what}: no offer is open", command=what)
    if cmd.player != o.partner:
        return refuse("not_the_partner", f"{what}: the offer is to {o.partner}, not {cmd.player}", command=what,
                      player=cmd.player, partner=o.partner)
    reason = _check_offer(s, ed, o, what)
    if reason:
        return reason
    cash = s.ledger.balances
    for who, after, fees in ((o.player, cash[o.player] - o.give_cash + o.take_cash, _fees(s, ed, o.take_deeds)),
                             (o.partner, cash[o.partner] - o.take_cash + o.give_cash, _fees(s, ed, o.give_deeds))):
        if after < fees:
            return refuse("short_of_cash", f"{what}: {who} cannot pay the transfer fees of {fees} on mortgaged "
                          "deeds", command=what, player=who, cash=after, price=fees)
    return None


def do_accept(t: Table, cmd: AcceptTrade) -> None:
    """Everything changes hands; each receiver pays the fee on mortgaged deeds."""
    s, ed = t.state, t.edition
    o = s.trade
    assert o is not None
    mortgaged = [(o.partner, d) for d in o.give_deeds if d in s.mortgaged]
    mortgaged += [(o.player, d) for d in o.take_deeds if d in s.mortgaged]
    t.emit(cev.TradeCompleted, o.player, o.partner)
    for who, d in mortgaged:
        fee = transfer_fee(s, ed, d)
        if fee:
            t.emit(cev.MortgageFeePaid, who, d, fee)


def check_cancel(s: ClassicState, ed: Edition, cmd: CancelTrade) -> Refusal | None:
    """CancelTrade: either side of the open offer."""
    what = "CancelTrade"
    o = s.trade
    if o is None:
        return refuse("no_trade", f"{what}: no offer is open", command=what)
    if cmd.player not in (o.player, o.partner):
        return refuse("not_the_partner", f"{what}: {cmd.player} is not a side of the open offer", command=what,
                      player=cmd.player, partner=o.partner)
    return None


def do_cancel(t: Table, cmd: CancelTrade) -> None:
    """Drop the offer."""
    t.emit(cev.TradeCancelled, cmd.player)
