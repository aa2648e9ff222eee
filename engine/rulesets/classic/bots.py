"""Simple deterministic bots for the classic simulator: the decisions a player makes, read from the state.

A bot never touches the game; it answers questions (buy or not, how much to bid, what to build, what to
sell or mortgage to pay a debt, which deal to offer or accept). The table (sim.py) turns the answers into
engine commands, so bots play exactly the rules a human does. Amounts are ``int`` in the edition's money
unit. The same state always gives the same answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine.editions import Edition
from engine.rulesets.classic.building import houses_left, lift_cost
from engine.rulesets.classic.commands import MortgageDeed, PayWithDeeds, ProposeTrade, SellBuilding, command
from engine.rulesets.classic.state import HOTEL, ClassicState

_STREET_SETS: Final[dict[str, tuple[tuple[int, ...], ...]]] = {}


def street_sets(ed: Edition) -> tuple[tuple[int, ...], ...]:
    """The edition's street colour sets (deed numbers), computed once per edition."""
    found = _STREET_SETS.get(ed.id)
    if found is None:
        found = _STREET_SETS[ed.id] = tuple(m for m in ed.colour_sets.values() if ed.deeds[m[0]].kind == "street")
    return found


_LEAST: Final[dict[str, tuple[int, int]]] = {}


def least_costs(ed: Edition) -> tuple[int, int]:
    """The cheapest house of any street set and the cheapest trade offer for any street (half again its
    price), once per edition: a bot with less cash above its build reserve builds nothing, offers nothing."""
    found = _LEAST.get(ed.id)
    if found is None:
        sets = street_sets(ed)
        found = _LEAST[ed.id] = (min((ed.deeds[m[0]].house_cost for m in sets), default=0),
                                 min((ed.deeds[d].price + ed.deeds[d].price // 2 for m in sets for d in m), default=0))
    return found


Plan = tuple[tuple[tuple[int, ...], dict[int, tuple[int, int]], int], ...]
_PLANS: Final[dict[str, Plan]] = {}


def street_plan(ed: Edition) -> Plan:
    """For each street set of :func:`street_sets`: its members, each member's (deed, trade offer) pair (the
    offer half again its price) and the set's house cost, once per edition."""
    found = _PLANS.get(ed.id)
    if found is None:
        found = _PLANS[ed.id] = tuple(
            (m, {d: (d, ed.deeds[d].price + ed.deeds[d].price // 2) for d in m}, ed.deeds[m[0]].house_cost)
            for m in street_sets(ed))
    return found


NEVER: Final = 1 << 62
"""More cash than any game has: the floor of :meth:`Bot.build_plan` when nothing can be built."""

Holdings = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]
"""A bot's whole street sets and the streets it lacks one of, with their offers (see :meth:`Bot.holdings`)."""


@dataclass(frozen=True, slots=True)
class Bot:
    """A cautious builder. ``reserve``: cash it keeps after buying or bidding; ``build_reserve``: after
    building; ``lift_margin``: cash beyond the cost before it lifts a mortgage (all money units)."""

    player: str
    reserve: int = 100
    build_reserve: int = 300
    lift_margin: int = 500

    def completes_set(self, s: ClassicState, ed: Edition, deed: int) -> bool:
        """Whether owning ``deed`` gives this bot its whole colour set."""
        owner, me = s.owner, self.player
        for d in ed.colour_sets[ed.deeds[deed].colour]:  # noqa: SIM110 (a loop: no generator, faster)
            if d != deed and owner.get(d) != me:
                return False
        return True

    def wants_to_buy(self, s: ClassicState, ed: Edition, deed: int) -> bool:
        """Buy at the printed price if the reserve stays, or if it completes a set."""
        cash, price = s.ledger.balances[self.player], ed.deeds[deed].price
        return cash >= price and (cash - price >= self.reserve or self.completes_set(s, ed, deed))

    def bid_limit(self, s: ClassicState, ed: Edition, deed: int) -> int:
        """The most it bids for ``deed`` at auction: up to the price keeping the reserve (all its cash, up to
        half again the price, for a deed that completes its set)."""
        cash, price = s.ledger.balances[self.player], ed.deeds[deed].price
        if self.completes_set(s, ed, deed):
            return min(cash, price + price // 2)
        return max(0, min(cash - self.reserve, price))

    def complete_sets(self, s: ClassicState, ed: Edition) -> tuple[tuple[int, ...], ...]:
        """The street colour sets this bot holds whole with no deed mortgaged."""
        out = []
        owner, mortgaged, me = s.owner, s.mortgaged, self.player
        for members in street_sets(ed):
            for m in members:
                if owner.get(m) != me or m in mortgaged:
                    break
            else:
                out.append(members)
        return tuple(out)

    def holdings(self, s: ClassicState, ed: Edition) -> Holdings:
        """What :meth:`complete_sets` and :meth:`trade_offer` read of this bot's own deeds alone: the street
        sets it holds whole with no deed mortgaged, and for each street set it lacks one street of (in set
        order), that street and the cash offered for it (half again its price). The simulator keeps it until
        this bot's deeds change."""
        out = []
        lacking = []
        owner, mortgaged, me = s.owner, s.mortgaged, self.player
        for members, offers, _ in street_plan(ed):
            lack = -1
            for m in members:
                if owner.get(m) != me:
                    if lack >= 0:
                        break  # two or more missing: neither
                    lack = m
            else:
                if lack >= 0:
                    lacking.append(offers[lack])
                elif mortgaged.isdisjoint(members):
                    out.append(members)
        return tuple(out), tuple(lacking)

    def offer_from(self, s: ClassicState, ed: Edition, lacking: tuple[tuple[int, int], ...]) -> ProposeTrade | None:
        """:meth:`trade_offer` from the streets it lacks one of (``holdings(s, ed)[1]``): the first another
        player holds whose offer keeps the build reserve, or None."""
        if not lacking:
            return None
        cash = s.ledger.balances[self.player]
        reserve = self.build_reserve
        if cash - least_costs(ed)[1] < reserve:  # as trade_offer
            return None
        owner = s.owner
        for deed, give in lacking:
            other = owner.get(deed)
            if other is not None and cash - give >= reserve:
                return command(ProposeTrade, self.player, other, (), give, (), (deed,))  # (made once)
        return None

    def build_choice(self, s: ClassicState, ed: Edition, sets: tuple[tuple[int, ...], ...],
                     used: tuple[int, int] | None = None) -> int | None:
        """The street to build on next among ``sets`` (the lowest first, cheapest houses first), or None.
        ``used``: the houses and hotels standing (``s.buildings_used()``) if the caller knows them."""
        return self.build_plan(s, ed, sets, used)[0] or None

    def build_plan(self, s: ClassicState, ed: Edition, sets: tuple[tuple[int, ...], ...],
                   used: tuple[int, int] | None = None) -> tuple[int, int]:
        """:meth:`build_choice` as (the street, 0), or (0, a floor) when it is None: with less cash than the
        floor it stays None while the buildings stand as they are (the cash each set's next building
        would need; :data:`NEVER` when none can be built)."""
        cash = s.ledger.balances[self.player]
        reserve = self.build_reserve
        least = least_costs(ed)[0] + reserve
        if cash < least:  # no set's house is within reach (the loop's test)
            return 0, least
        best = best_low = best_cost = 0
        need = NEVER
        level, hotel_height = s.level, s.options.houses_per_hotel + 1
        houses = hotels = -1  # what the Bank has left, counted once if needed
        deeds = ed.deeds
        for members in sets:
            cost = deeds[members[0]].house_cost
            short = cash - cost < reserve
            if short and cost + reserve >= need:
                continue  # neither a choice nor a lower floor
            low, m = 99, 0
            for d in members:
                h = level.get(d, 0)
                h = hotel_height if h == HOTEL else h
                if h < low:
                    low, m = h, d
            if low >= hotel_height:
                continue
            if houses < 0:  # houses_left(s), hotels_left(s) in one pass
                houses, hotels = s.buildings_used() if used is None else used
                houses, hotels = s.options.houses_in_bank - houses, s.options.hotels_in_bank - hotels
            if (houses if low < hotel_height - 1 else hotels) <= 0:
                continue
            if short:
                need = cost + reserve
            # the least (low, -cost, m): the lowest street, then the dearest house, then the lowest number
            elif not best or low < best_low or (low == best_low and (cost > best_cost or (cost == best_cost
                                                                                           and m < best))):
                best, best_low, best_cost = m, low, cost
        return (best, 0) if best else (0, need)

    def lift_choice(self, s: ClassicState, ed: Edition) -> int | None:
        """A mortgaged deed to lift when cash is plentiful (the cheapest first), or None."""
        cash = s.ledger.balances[self.player]
        if cash < self.lift_margin:
            return None
        owner, me = s.owner, self.player
        mine = [d for d in s.mortgaged if owner.get(d) == me]
        if not mine:
            return None
        for d in sorted(mine, key=lambda d: (ed.deeds[d].mortgage, d)):
            if cash - lift_cost(s, ed, d) >= self.lift_margin:
                return d
        return None

    def raise_money(self, s: ClassicState, ed: Edition, legal: Callable[[object], bool]) -> object | None:
        """The next command to raise cash for a debt: sell a building from the tallest street, then mortgage
        (deeds outside complete sets first, cheapest first); None when nothing is left."""
        me, owner, level = self.player, s.owner, s.level
        if level:
            # the tallest (building.height), the lowest number first: a level orders as the height does (a
            # hotel, HOTEL, above the most houses a street holds, houses_per_hotel)
            first, top, hotel, built = 0, -1, False, 0
            for d, lv in level.items():
                if lv and owner.get(d) == me:
                    built += 1
                    if lv == HOTEL:
                        hotel = True
                    if lv > top or (lv == top and d < first):
                        first, top = d, lv
            if built:
                hph = s.options.houses_per_hotel
                # A hotel the Bank cannot break into houses may be sold (seed 000 l. 57), but the bots keep
                # their earlier play and leave it standing, so a default game's recorded output is unchanged.
                short = hotel and houses_left(s) < hph
                if not (short and level[first] == HOTEL):
                    cmd = command(SellBuilding, me, first)
                    if legal(cmd):
                        return cmd
                if built > 1:  # the rest in the same order (unique keys), only if the first is refused
                    mine = [d for d, lv in level.items() if lv and owner.get(d) == me]
                    for d in sorted(mine, key=lambda x: (-level[x], x)):
                        if d != first and not (short and level[d] == HOTEL):
                            cmd = command(SellBuilding, me, d)
                            if legal(cmd):
                                return cmd
        mortgaged = s.mortgaged
        deeds, sets = ed.deeds, ed.colour_sets
        free = 0
        head, least_whole, least_value = 0, True, 0  # outside complete sets first, the cheapest, the lowest number
        wholes: dict[str, bool] = {}  # colour -> whether this bot holds it all (completes_set of any of it)
        for d, o in owner.items():
            if o != me or d in mortgaged:
                continue
            free += 1
            card = deeds[d]
            colour = card.colour
            found = wholes.get(colour)
            if found is None:
                whole = True  # self.completes_set(s, ed, d), in place: d is this bot's, so the whole set
                for m in sets[colour]:
                    if owner.get(m) != me:
                        whole = False
                        break
                wholes[colour] = whole
            else:
                whole = found
            value = card.mortgage
            if free == 1 or (least_whole and not whole) or (whole == least_whole and (
                    value < least_value or (value == least_value and d < head))):
                head, least_whole, least_value = d, whole, value
        if free:
            cmd2 = command(MortgageDeed, me, head)
            if legal(cmd2):
                return cmd2
            if free > 1:
                rest = [d for d, o in owner.items() if o == me and d not in mortgaged]
                for d in sorted(rest, key=lambda x: (self.completes_set(s, ed, x), ed.deeds[x].mortgage, x)):
                    if d != head:
                        cmd2 = command(MortgageDeed, me, d)
                        if legal(cmd2):
                            return cmd2
        return None

    def deed_payment(self, s: ClassicState, ed: Edition, amount: int) -> PayWithDeeds | None:
        """A deed to hand a player creditor for a debt of ``amount`` (option ``pay_debt_with_deeds``): the
        cheapest bare deed outside this bot's complete sets, at its printed price (its mortgage value if
        mortgaged), at most the debt; the creditor bot takes a deed at that value. None if none is bare."""
        me, owner, level = self.player, s.owner, s.level
        deeds, sets = ed.deeds, ed.colour_sets
        seen: dict[str, tuple[bool, bool]] = {}  # colour -> (no building on it, this bot holds it all)
        deed, least = 0, (True, 0, 0)
        for d, o in owner.items():  # the least (completes_set, price, number) of the bare deeds, in one pass
            if o != me:
                continue
            card = deeds[d]
            found = seen.get(card.colour)
            if found is None:
                bare, whole = True, True
                for m in sets[card.colour]:
                    if level.get(m):
                        bare = False
                    if owner.get(m) != me:
                        whole = False
                found = seen[card.colour] = (bare, whole)
            if found[0] and (not deed or (found[1], card.price, d) < least):
                deed, least = d, (found[1], card.price, d)
        if not deed:
            return None
        value = deeds[deed].mortgage if deed in s.mortgaged else deeds[deed].price
        return PayWithDeeds(me, (deed,), min(value, amount))

    def trade_offer(self, s: ClassicState, ed: Edition) -> ProposeTrade | None:
        """Offer half again the price for the one street missing from a colour set, or None."""
        cash = s.ledger.balances[self.player]
        if cash - least_costs(ed)[1] < self.build_reserve:  # no offer is within reach (the loop's test)
            return None
        owner, me = s.owner, self.player
        for members in street_sets(ed):
            missing = 0
            deed = 0
            for m in members:
                if owner.get(m) != me:
                    missing += 1
                    deed = m
            if missing != 1:
                continue
            other = owner.get(deed)
            price = ed.deeds[deed].price
            offer = price + price // 2
            if other is None or cash - offer < self.build_reserve:
                continue
            return ProposeTrade(self.player, other, give_cash=offer, take_deeds=(deed,))
        return None

    def accepts(self, s: ClassicState, ed: Edition, offer: ProposeTrade) -> bool:
        """Sell a deed for cash if it is the only one of its set this bot holds."""
        if offer.give_deeds or offer.take_cash or offer.take_cards or not offer.take_deeds:
            return False
        for d in offer.take_deeds:
            members = ed.colour_sets[ed.deeds[d].colour]
            if sum(1 for m in members if s.owner.get(m) == self.player) > 1:
                return False
        return offer.give_cash >= sum(ed.deeds[d].price for d in offer.take_deeds)
