"""One sentence per journal entry, in the table's language: the single place that says what each event of
either ruleset means (``Rent: Boris pays Ann M450 for Baltic Avenue (hotel)``).

:func:`sentence` takes the event, the :class:`~ui.story.names.Names` of the game and, when known, the
event's :class:`~engine.receipts.Receipt` (it adds the detail: the hotel, the houses, the level; and the
cash of a deal). Events a table need not hear (a choice asked, a clock tick, a turn's marks) are in
:data:`SILENT` and give ``""``; every other event type of both rulesets has a sentence in :data:`TELLERS`.
Amounts are ints in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import events as ev
from engine.receipts import Receipt
from engine.rulesets.classic import events as cev
from engine.rulesets.ultimate import events as uev
from ui.story.names import Names

Teller = Callable[[Any, Names, Receipt | None], str]

SILENT: frozenset[type] = frozenset({
    uev.ChoiceRequested, uev.EventResolved, cev.ClockAdvanced, cev.RollsReset, cev.TurnMarked,
})
"""Event types told in no sentence: what they change is told by the events around them."""


def _pay(n: Names, what: str, payer: str, payee: str, amount: int) -> str:
    """``what``: payer pays payee amount, in the form that fits the Bank or the pot on either side."""
    reason = f"story.reason.{what}"
    words = n.text(reason) if n.tr.has(reason, "en") else n.text("story.reason.other")
    form = ("to_bank" if payee == "bank" else "from_bank" if payer == "bank" else "to_pot" if payee == "pot"
            else "from_pot" if payer == "pot" else "p2p")
    return n.text(f"story.pay.{form}", what=words, payer=n.player(payer), payee=n.player(payee),
                  amount=n.money(amount))


def _deeds(n: Names, deeds: tuple[int, ...]) -> str:
    return n.count("story.n_deeds", len(deeds))


def _rent_detail(n: Names, r: Receipt | None) -> str:
    if r is None:
        return ""
    if r.rule == "rent_hotel":
        return n.text("story.word.hotel")
    if r.rule == "rent_houses":
        return n.count("story.n_houses", r.term("houses"))
    if r.rule in ("rent_level", "rent_on_the_run"):
        return n.text("story.word.level", level=r.term("level"))
    if r.rule == "rent_set":
        return n.text("story.word.whole_set")
    if r.rule.startswith("rent_utility"):
        dice = n.text("story.word.dice", dice=r.term("dice"))
        return n.text("story.sep").join((dice, n.text("story.word.by_card"))) if "card" in r.rule else dice
    if r.rule.startswith("rent_railroad"):
        owned = n.text("story.word.owned", count=r.term("count"))
        return n.text("story.sep").join((owned, n.text("story.word.by_card"))) if "card" in r.rule else owned
    return ""


def _rent(e: ev.RentPaid, n: Names, r: Receipt | None) -> str:
    text = n.text("story.rent", payer=n.player(e.payer), owner=n.player(e.owner), amount=n.money(e.amount),
                  deed=n.deed(e.deed))
    detail = _rent_detail(n, r)
    return n.text("story.paren", text=text, detail=detail) if detail else text


def _bankrupt(e: ev.PlayerBankrupt, n: Names, r: Receipt | None) -> str:
    form = "to_bank" if e.creditor == "bank" else "p2p"
    deeds = r.term("deeds") if r is not None else 0  # handed over with the cash (the classic game)
    text = n.text(f"story.bankrupt.{form}_deeds" if deeds else f"story.bankrupt.{form}", player=n.player(e.player),
                  creditor=n.player(e.creditor), amount=n.money(e.paid), deeds=n.count("story.n_deeds", deeds))
    if e.covered:
        text = n.text("story.list", first=text, rest=n.text("story.bankrupt.covered", amount=n.money(e.covered)))
    return text


def _debt(e: ev.DebtOpened, n: Names, r: Receipt | None) -> str:
    form = "to_bank" if e.creditor == "bank" else "to_pot" if e.creditor == "pot" else "p2p"
    key = f"story.reason.{e.reason}"
    what = n.text(key) if n.tr.has(key, "en") else n.text("story.reason.other")
    return n.text(f"story.debt.{form}", debtor=n.player(e.debtor), creditor=n.player(e.creditor),
                  amount=n.money(e.amount), what=what)


def _ended(e: ev.GameEnded, n: Names, r: Receipt | None) -> str:
    if not e.standings:
        return n.text("story.ended", player="\u2014")
    lines = [n.text("story.standing", rank=s.rank, player=n.player(s.player), amount=n.money(s.total))
             for s in e.standings]
    return n.text("story.list", first=n.text("story.ended", player=n.player(e.standings[0].player)),
                  rest=n.text("story.standings", list=n.text("story.sep").join(lines)))


def _started(e: ev.GameStarted, n: Names, r: Receipt | None) -> str:
    money = int(e.options.get("start_money", 1500))
    return n.text("story.started", players=n.count("story.n_players", len(e.players)), amount=n.money(money))


def _trade_done(e: cev.TradeCompleted, n: Names, r: Receipt | None) -> str:
    give = r.term("give_cash") if r is not None else 0
    take = r.term("take_cash") if r is not None else 0
    return n.text("story.trade_done", player=n.player(e.player), partner=n.player(e.partner),
                  give=n.money(give), take=n.money(take))


def _p(key: str, **fields: str) -> Teller:
    """A teller saying ``key`` with the event's fields: ``name="player:FIELD"``, ``"deed:FIELD"``,
    ``"money:FIELD"``, ``"place:FIELD"``, ``"card:FIELD"``, ``"deeds:FIELD"`` or ``"int:FIELD"``."""
    def tell(e: Any, n: Names, r: Receipt | None) -> str:
        params: dict[str, object] = {}
        for name, spec in fields.items():
            kind, attr = spec.split(":")
            value = getattr(e, attr)
            params[name] = (n.player(value) if kind == "player" else n.deed(value) if kind == "deed"
                            else n.money(value) if kind == "money" else n.place(value) if kind == "place"
                            else n.card(value) if kind == "card" else _deeds(n, value) if kind == "deeds"
                            else n.colour(value) if kind == "colour" else value)
        return n.text(key, **params)
    return tell


TELLERS: dict[type, Teller] = {
    ev.GameStarted: _started,
    ev.SalaryPaid: _p("story.salary", player="player:player", amount="money:amount"),
    ev.DeedBought: _p("story.bought", player="player:player", deed="deed:deed", amount="money:price"),
    ev.DeedDeclined: _p("story.declined", player="player:player", deed="deed:deed"),
    ev.AuctionOpened: _p("story.auction_opened", deed="deed:deed"),
    ev.BidPlaced: _p("story.bid", player="player:player", amount="money:amount"),
    ev.AuctionWon: _p("story.auction_won", player="player:player", deed="deed:deed", amount="money:amount"),
    ev.AuctionEnded: _p("story.auction_ended", deed="deed:deed"),
    ev.RentPaid: _rent,
    ev.RentWaived: lambda e, n, r: n.text(
        "story.waived.mortgaged" if e.reason == "mortgaged" else "story.waived.owner_in_jail",
        payer=n.player(e.payer), owner=n.player(e.owner), deed=n.deed(e.deed)),
    ev.TokenMoved: _p("story.moved", player="player:player", place="place:position"),
    ev.DiceRolled: _p("story.rolled", player="player:player", die1="int:die1", die2="int:die2", place="place:end"),
    ev.JailEntered: _p("story.jail_entered", player="player:player"),
    ev.JailRollFailed: _p("story.jail_roll_failed", player="player:player"),
    ev.JailLeft: _p("story.jail_left", player="player:player"),
    ev.MoneyTransferred: lambda e, n, r: _pay(n, e.reason, e.payer, e.payee, e.amount),
    ev.DebtOpened: _debt,
    ev.DebtSettled: lambda e, n, r: _pay(n, "debt", e.debtor, e.creditor, e.amount),
    ev.PlayerBankrupt: _bankrupt,
    ev.GameEnded: _ended,
    ev.TurnEnded: _p("story.turn", player="player:next_player"),
    ev.CommandUndone: _p("story.undone", number="int:undone"),
    ev.MoneyCorrected: lambda e, n, r: _pay(n, "correction", e.payer, e.payee, e.amount),
    ev.DeedCorrected: _p("story.deed_corrected", deed="deed:deed", previous="player:previous", to="player:to"),
    uev.LevelChanged: _p("story.level", deed="deed:deed", old="int:old", new="int:new"),
    uev.OwnDeedVisited: _p("story.own_deed", player="player:player", deed="deed:deed"),
    uev.ColourSetBonusApplied: lambda e, n, r: n.text("story.set_bonus", colour=n.colour(e.colour),
                                                     levels=n.count("story.n_levels", e.steps)),
    uev.LocationUsed: _p("story.location", player="player:player", amount="money:fee", deed="deed:deed"),
    uev.EventDrawn: _p("story.event_drawn", player="player:player", card="card:card"),
    uev.DeedsSwapped: _p("story.swapped", player="player:player", deed="deed:deed", other="player:other",
                         deed2="deed:other_deed"),
    uev.OnTheRunStarted: lambda e, n, r: n.text("story.on_the_run", turns=n.count("story.n_turns", e.turns)),
    uev.DeedReturned: _p("story.returned", player="player:player", deed="deed:deed", amount="money:price"),
    cev.CardDrawn: _p("story.card_drawn", player="player:player", card="card:card"),
    cev.CardRentSet: lambda e, n, r: n.text(
        "story.card_rent.tenfold" if e.rule == "tenfold" else "story.card_rent.double",
        player=n.player(e.player), deed=n.deed(e.deed)),
    cev.JailCardUsed: _p("story.jail_card", player="player:player"),
    cev.BuildingBought: lambda e, n, r: n.text(
        "story.built.hotel" if e.level == 5 else "story.built.house", player=n.player(e.player),
        deed=n.deed(e.deed), amount=n.money(e.cost)),
    cev.BuildingSold: _p("story.sold", player="player:player", deed="deed:deed", amount="money:refund"),
    cev.DeedMortgaged: _p("story.mortgaged", player="player:player", deed="deed:deed", amount="money:amount"),
    cev.MortgageLifted: _p("story.lifted", player="player:player", deed="deed:deed", amount="money:cost"),
    cev.MortgageFeePaid: _p("story.mortgage_fee", player="player:player", deed="deed:deed", amount="money:amount"),
    cev.BuildingAuctionOpened: lambda e, n, r: n.text(
        "story.building_auction.hotel" if e.kind == "hotel" else "story.building_auction.house"),
    cev.BuildingAuctionWon: _p("story.building_won", player="player:player", amount="money:amount"),
    cev.BuildingAuctionEnded: lambda e, n, r: n.text("story.building_ended"),
    cev.TradeProposed: _p("story.trade_proposed", player="player:player", partner="player:partner"),
    cev.TradeCancelled: _p("story.trade_cancelled", player="player:player"),
    cev.TradeCompleted: _trade_done,
    cev.AssetsTransferred: _p("story.assets_to_player", player="player:player", creditor="player:creditor",
                              deeds="deeds:deeds"),
    cev.AssetsSeized: _p("story.assets_seized", player="player:player", deeds="deeds:deeds"),
    cev.TokenPlaced: _p("story.moved", player="player:player", place="place:position"),
    cev.DebtPaidInDeeds: _p("story.paid_in_deeds", debtor="player:debtor", creditor="player:creditor",
                            deeds="deeds:deeds", amount="money:value"),
    cev.AssetsReleased: _p("story.assets_released", player="player:player", deeds="deeds:deeds"),
    cev.LotsDealt: _p("story.lots_dealt", player="player:player", deeds="deeds:deeds"),
    cev.ActionTimedOut: _p("story.timed_out", player="player:player"),
}
"""Event type -> the function that says it (``(event, names, receipt) -> str``)."""


def sentence(event: Any, names: Names, receipt: Receipt | None = None) -> str:
    """``event`` in one sentence in ``names.lang`` (``""`` for a :data:`SILENT` event or an unknown type)."""
    teller = TELLERS.get(type(event))
    return teller(event, names, receipt) if teller is not None else ""
