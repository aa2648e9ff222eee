"""The fused commands that change holdings and debts (fused.py explains them): building, selling, a
deed's bids and its close, and settling a debt (mortgaging, lifting and declining a deed go through their
rules: fused, they saved nothing measurable); and what every fused command shares (the
game's options read once, payments to the Bank or the pot). Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from typing import Final

from engine.editions import Edition, EventCard
from engine.ledger import BANK
from engine.rulesets.classic.edition import cards, taxes
from engine.rulesets.classic.jail import jail_position
from engine.rulesets.classic.state import HOTEL, ClassicState, Lot

PLAY: Final = "play"
DEBT: Final = "debt"
AUCTION: Final = "auction"


class FusedHoldings:
    """The fused commands of holdings and debts of the started game of state ``s``."""

    def __init__(self, s: ClassicState, ed: Edition) -> None:
        o = s.options
        self.s = s
        self.ed = ed
        self.taxes: dict[int, tuple[str, int]] = dict(taxes(ed))
        self.late_tax: bool = o.late_game_rent_tax
        self.claimed: bool = o.rent_must_be_claimed
        self.jackpot: bool = o.free_parking_jackpot
        self.salary: int = o.go_salary
        self.per_hotel: int = o.houses_per_hotel
        self.even: bool = o.even_build
        self.houses: int = o.houses_in_bank
        self.hotels: int = o.hotels_in_bank
        self.sell_price: int = o.house_sell_price
        self.turn_limits: bool = o.build_before_roll or o.one_house_per_set
        self.fine: int = o.jail_fine
        self.card_tax: bool = o.rent_tax_on_cards and o.late_game_rent_tax  # cards.card_tax may cut a payout
        self.cards: dict[int, EventCard] = dict(cards(ed))
        self.space_kinds: tuple[str, ...] = tuple(sp.kind for sp in ed.spaces)
        self.deals_before_roll: bool = o.deals_before_roll  # deals only before the turn's roll: the rule's
        self.jail_at: int = jail_position(ed)  # In Jail's square
        self.double_lent: bool = o.mortgaged_set_double_rent  # a whole set doubles its rent with a lot mortgaged
        self.next: dict[str, str] = {}  # each player's next active one (base.next_active), while ...
        self.out = -1  # ... this many players are bankrupt

    def _charge(self, player: str, amount: int) -> bool:
        """``base.charge`` paid at once (a tax, fine or card payment to the Bank or the pot), or False
        (nothing changed) when it would open a debt."""
        s = self.s
        if amount <= 0:
            return True
        ledger = s.ledger
        cash = ledger.balances[player]
        if cash < amount or (s.debts and self._owes(player)):
            return False
        if self.jackpot:
            s.pot += amount
        ledger.balances[player] = cash - amount
        ledger.bank_position += amount
        return True

    def _owes(self, player: str) -> bool:
        """Whether ``player`` has a debt queued (base.in_debt)."""
        for d in self.s.debts:  # noqa: SIM110 (a loop: no generator, faster in both builds)
            if d.debtor == player:
                return True
        return False

    def _repairs(self, player: str, card: EventCard) -> int:
        """What the repairs ``card`` costs ``player`` (cards.apply_card): per house and per hotel standing."""
        s = self.s
        owner = s.owner
        houses = hotels = 0
        for d, v in s.level.items():
            if owner.get(d) == player:
                if v == HOTEL:
                    hotels += 1
                elif v < HOTEL:
                    houses += v
        return houses * int(str(card.params["per_house"])) + hotels * int(str(card.params["per_hotel"]))

    def _each(self, player: str, amount: int, paying: bool) -> bool:
        """A card's ``amount`` from ``player`` to every other active player (``paying``) or from each of
        them to ``player``, each paid at once (cards.apply_card's ``pay`` in turn order); False (nothing
        changed) when any payment would open a debt."""
        if amount <= 0:
            return True
        s = self.s
        balances, bankrupt = s.ledger.balances, s.bankrupt
        others = [p for p in s.order if p != player and p not in bankrupt]
        if paying:
            if balances[player] < amount * len(others) or (s.debts and self._owes(player)):
                return False
            balances[player] -= amount * len(others)
            for p in others:
                balances[p] += amount
            return True
        for p in others:
            if balances[p] < amount or (s.debts and self._owes(p)):
                return False
        for p in others:
            balances[p] -= amount
        balances[player] += amount * len(others)
        return True

    def _open(self, deed: int, bidders: tuple[str, ...]) -> None:
        """``AuctionOpened`` folded (fold._auction_opened)."""
        s = self.s
        s.phase = AUCTION
        s.auction = Lot(deed, "deed", bidders)
        if s.lots and s.lots[0] == deed:
            s.lots = s.lots[1:]

    def bid(self, player: str, amount: int) -> bool:
        """``PlaceBid(player, amount)`` in a deed's auction: a bidder's whole amount above the high bid,
        within their cash (``BidPlaced``)."""
        s = self.s
        a = s.auction
        if (s.phase != AUCTION or a is None or a.kind != "deed" or player not in a.bidders
                or type(amount) is not int or amount <= a.high_bid or amount < 1
                or amount > s.ledger.balances[player]):
            return False
        s.auction = Lot(a.deed, a.kind, a.bidders, amount, player)
        return True

    def close(self) -> bool:
        """``CloseAuction`` of a deed's auction: sold to the high bidder (``AuctionWon``) or left with the
        Bank (``AuctionEnded``); then the next seized deed under the hammer (auction.open_next_lot)."""
        s = self.s
        a = s.auction
        if s.phase != AUCTION or a is None or a.kind != "deed":
            return False
        winner = a.high_bidder
        if winner is not None:
            price = a.high_bid
            ledger = s.ledger
            cash = ledger.balances.get(winner)
            if cash is None or cash < price or price < 0:
                return False  # (the rule's ledger refuses it)
            ledger.balances[winner] = cash - price
            ledger.bank_position += price
            s.owner[a.deed] = winner
        s.auction = None
        s.phase = PLAY
        if s.lots:
            bankrupt = s.bankrupt
            self._open(s.lots[0], tuple(p for p in s.order if p not in bankrupt))
        return True

    def build(self, player: str, deed: int, used: tuple[int, int] | None = None) -> bool:
        """``BuildHouse(player, deed)`` in phase play: the next house or the hotel on a street of a whole,
        unmortgaged set, evenly, from the Bank's supply, paid at once (``BuildingBought``); the second
        text's turn limits go through the rule. ``used``: ``s.buildings_used()`` if the caller knows it."""
        s = self.s
        if (s.phase != PLAY or s.credit is not None or self.turn_limits or player not in s.specs
                or player in s.bankrupt):
            return False
        ed = self.ed
        owner = s.owner
        d = ed.deeds.get(deed)
        if d is None or owner.get(deed) != player or d.kind != "street":
            return False
        mortgaged, level = s.mortgaged, s.level
        per_hotel = self.per_hotel
        low = 99
        for m in ed.colour_sets[d.colour]:
            if owner.get(m) != player or m in mortgaged:
                return False
            h = level.get(m, 0)
            h = per_hotel + 1 if h == HOTEL else h
            if h < low:
                low = h
        now = level.get(deed, 0)
        if now == HOTEL or (self.even and now > low):
            return False
        cost = d.house_cost
        ledger = s.ledger
        cash = ledger.balances[player]
        if cash < cost or cost < 0:
            return False
        houses, hotels = s.buildings_used() if used is None else used
        if now == per_hotel:  # the hotel
            if hotels >= self.hotels:
                return False
            new = HOTEL
        else:
            if houses >= self.houses:
                return False
            new = now + 1
        ledger.balances[player] = cash - cost
        ledger.bank_position += cost
        level[deed] = new
        return True

    def _may_raise(self, player: str, deed: int) -> bool:
        """Selling and mortgaging (building._check_raise): phase play, or debt for the debtor; their deed."""
        s = self.s
        phase = s.phase
        if phase == DEBT:
            if player != s.debts[0].debtor:
                return False
        elif phase != PLAY:
            return False
        return player in s.specs and player not in s.bankrupt and deed in self.ed.deeds \
            and s.owner.get(deed) == player

    def may_sell(self, player: str, deed: int) -> bool:
        """Whether ``SellBuilding(player, deed)`` would be accepted (exactly building.check_sell is None)."""
        if not self._may_raise(player, deed):
            return False
        level = self.s.level
        now = level.get(deed, 0)
        if not now:
            return False
        if self.even:
            per_hotel = self.per_hotel
            ed = self.ed
            high = per_hotel + 1 if now == HOTEL else now
            for m in ed.colour_sets[ed.deeds[deed].colour]:
                h = level.get(m, 0)
                if (per_hotel + 1 if h == HOTEL else h) > high:
                    return False
        return True

    def sell(self, player: str, deed: int, checked: bool = False) -> bool:
        """``SellBuilding(player, deed)``: one building back to the Bank, evenly, at ``house_sell_price``
        percent (``BuildingSold``); a hotel the Bank lacks the houses for goes through the rule.
        ``checked``: :meth:`may_sell` said True in this very state."""
        if not checked and not self.may_sell(player, deed):
            return False
        s = self.s
        level = s.level
        now = level[deed]
        per_hotel = self.per_hotel
        if now == HOTEL:
            if self.houses - s.buildings_used()[0] < per_hotel:
                return False
            new = per_hotel
        else:
            new = now - 1
        refund = self.ed.deeds[deed].house_cost * self.sell_price // 100
        if refund < 0:
            return False
        ledger = s.ledger
        ledger.issued += refund
        ledger.balances[player] += refund
        if new:
            level[deed] = new
        else:
            del level[deed]
        return True

    def settle(self, player: str) -> bool:
        """``SettleDebt(player)``: the debtor pays the debt at the head of the queue (``DebtSettled``) to a
        player or the Bank; a debt to the pot goes through the rule."""
        s = self.s
        if s.phase != DEBT:
            return False
        d = s.debts[0]
        amount = d.amount
        creditor = d.creditor
        balances = s.ledger.balances
        if player != d.debtor or amount < 0 or creditor == player or (creditor != BANK and creditor not in balances):
            return False
        cash = balances[player]
        if cash < amount:
            return False
        balances[player] = cash - amount
        if creditor == BANK:
            s.ledger.bank_position += amount
        else:
            balances[creditor] += amount
        s.debts = s.debts[1:]
        if not s.debts:
            s.phase = PLAY
        return True
