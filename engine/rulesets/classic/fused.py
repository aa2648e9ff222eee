"""The simulator's fused commands: the hottest commands of a bot game run as one function on the lean table.

A bot game sends about two and a half commands a roll, mostly an end of turn, a rent, a building, a salary,
a purchase or a tax; through the lean table (table.py) each is a rule check, a rule that emits light events
and a fold of each event. Each function here does one such command in one go when it is in its common case,
and changes the state exactly as the events of the rule would through the fold (fold.py); in any other
case (any check that might refuse, a debt to open, an option that changes the rule) it changes nothing and
returns False, and the caller sends the command through the table, which refuses it or runs it as always.
So a fused command is never accepted where the rule would refuse it and never does anything the rule would
not do; the tests (tests/engine/classic/test_classic_fused.py) compare both on whole games, state by state.

The functions are valid only on a game whose options leave the landing rules unwrapped (no turn marks,
no tokens kept by the unit: :func:`usable`). Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from typing import Final

from engine.editions import Edition
from engine.ledger import BANK
from engine.rulesets.classic.base import next_active, rent_for
from engine.rulesets.classic.edition import taxes
from engine.rulesets.classic.fold import move_money
from engine.rulesets.classic.options import Options
from engine.rulesets.classic.state import HOTEL, POT, ClassicState
from engine.rulesets.classic.turns import salary

PLAY: Final = "play"


def usable(options: Options) -> bool:
    """Whether a game of ``options`` may use the fused commands (the rule table is the bare one, as
    ``rules_for`` gives without turn marks and without positions)."""
    return not options.marks_turn and not options.positions


def _owes(s: ClassicState, player: str) -> bool:
    """Whether ``player`` has a debt queued (base.in_debt)."""
    for d in s.debts:
        if d.debtor == player:
            return True
    return False


def end_turn(s: ClassicState, player: str) -> bool:
    """``EndTurn(player)``: the turn passes to the next active player (``TurnEnded``)."""
    if player != s.turn or s.phase != PLAY:
        return False
    s.turn = next_active(s, player)
    s.card_rent = None
    if s.fresh:
        s.fresh = frozenset()
    if s.marks:
        s.marks = frozenset()
    return True


def pass_go(s: ClassicState, player: str) -> bool:
    """``PassGo(player)``: the salary from the Bank (``SalaryPaid``); not in jail."""
    if player != s.turn or s.phase != PLAY or player in s.jail:
        return False
    s.ledger.transfer(BANK, player, salary(s))
    return True


def buy(s: ClassicState, ed: Edition, player: str, deed: int) -> bool:
    """``BuyDeed(player, deed)`` of an unowned deed with the cash for it (``DeedBought``)."""
    if player != s.turn or s.phase != PLAY or deed not in ed.deeds or s.owner.get(deed) is not None:
        return False
    price = ed.deeds[deed].price
    if s.ledger.balances[player] < price:
        return False
    s.ledger.transfer(player, BANK, price)
    s.owner[deed] = player
    return True


def pay_rent(s: ClassicState, ed: Edition, payer: str, deed: int) -> bool:
    """``PayRent(payer, deed)`` for a street or railroad another player owns, paid at once (``RentPaid``) or
    nothing owed (``RentWaived``); a debt or the late-game rent tax go through the rule."""
    opts = s.options
    if (s.phase != PLAY or payer not in s.specs or payer in s.bankrupt or deed not in ed.deeds
            or opts.late_game_rent_tax or (opts.rent_must_be_claimed and payer != s.turn)):
        return False
    owner = s.owner.get(deed)
    if owner is None or owner == payer or ed.deeds[deed].kind == "utility":
        return False
    amount = rent_for(s, ed, deed)
    card = s.card_rent
    if card is not None and card[0] == payer and card[1] == deed and card[2] == "double":
        amount *= 2
    if amount > 0:
        if s.ledger.balances[payer] < amount or (s.debts and _owes(s, payer)):
            return False
        s.ledger.transfer(payer, owner, amount)
    s.card_rent = None
    return True


def pay_tax(s: ClassicState, ed: Edition, player: str, position: int) -> bool:
    """``PayTax(player, position, False)``: the printed tax paid at once to the Bank or the pot
    (``MoneyTransferred``)."""
    if player != s.turn or s.phase != PLAY:
        return False
    table = taxes(ed)
    if position not in table:
        return False
    amount = int(table[position][1])
    if amount <= 0 or s.ledger.balances[player] < amount or (s.debts and _owes(s, player)):
        return False
    if s.options.free_parking_jackpot:
        s.pot += amount
    s.ledger.transfer(player, BANK, amount)
    return True


def build(s: ClassicState, ed: Edition, player: str, deed: int) -> bool:
    """``BuildHouse(player, deed)`` in phase play: the next house or the hotel on a street of a whole,
    unmortgaged set, evenly, from the Bank's supply, paid at once (``BuildingBought``); the second text's
    turn limits go through the rule."""
    opts = s.options
    if (s.phase != PLAY or s.credit is not None or player not in s.specs or player in s.bankrupt
            or opts.build_before_roll or opts.one_house_per_set):
        return False
    owner = s.owner
    d = ed.deeds.get(deed)
    if d is None or owner.get(deed) != player or d.kind != "street":
        return False
    mortgaged, level = s.mortgaged, s.level
    per_hotel = opts.houses_per_hotel
    low = 99
    for m in ed.colour_sets[d.colour]:
        if owner.get(m) != player or m in mortgaged:
            return False
        h = level.get(m, 0)
        h = per_hotel + 1 if h == HOTEL else h
        if h < low:
            low = h
    now = level.get(deed, 0)
    if now == HOTEL or (opts.even_build and now > low):
        return False
    cost = d.house_cost
    if s.ledger.balances[player] < cost:
        return False
    if now == per_hotel:  # the hotel
        if sum(1 for v in level.values() if v == HOTEL) >= opts.hotels_in_bank:
            return False
        new = HOTEL
    else:
        if sum(v for v in level.values() if v < HOTEL) >= opts.houses_in_bank:
            return False
        new = now + 1
    s.ledger.transfer(player, BANK, cost)
    level[deed] = new
    return True


def _may_raise(s: ClassicState, ed: Edition, player: str, deed: int) -> bool:
    """Selling and mortgaging (building._check_raise): phase play, or debt for the debtor; the player's deed."""
    phase = s.phase
    if phase == "debt":
        if player != s.debts[0].debtor:
            return False
    elif phase != PLAY:
        return False
    return player in s.specs and player not in s.bankrupt and deed in ed.deeds and s.owner.get(deed) == player


def may_sell(s: ClassicState, ed: Edition, player: str, deed: int) -> bool:
    """Whether ``SellBuilding(player, deed)`` would be accepted (exactly building.check_sell is None)."""
    if not _may_raise(s, ed, player, deed):
        return False
    level = s.level
    now = level.get(deed, 0)
    if not now:
        return False
    opts = s.options
    if opts.even_build:
        per_hotel = opts.houses_per_hotel
        high = per_hotel + 1 if now == HOTEL else now
        for m in ed.colour_sets[ed.deeds[deed].colour]:
            h = level.get(m, 0)
            if (per_hotel + 1 if h == HOTEL else h) > high:
                return False
    return True


def may_mortgage(s: ClassicState, ed: Edition, player: str, deed: int) -> bool:
    """Whether ``MortgageDeed(player, deed)`` would be accepted (exactly building.check_mortgage is None)."""
    if not _may_raise(s, ed, player, deed) or deed in s.mortgaged:
        return False
    level = s.level
    for m in ed.colour_sets[ed.deeds[deed].colour]:
        if level.get(m):
            return False
    return True


def sell(s: ClassicState, ed: Edition, player: str, deed: int) -> bool:
    """``SellBuilding(player, deed)``: one building back to the Bank, evenly, at ``house_sell_price`` percent
    (``BuildingSold``); a hotel the Bank lacks the houses for goes through the rule."""
    if not may_sell(s, ed, player, deed):
        return False
    level = s.level
    now = level[deed]
    opts = s.options
    per_hotel = opts.houses_per_hotel
    d = ed.deeds[deed]
    if now == HOTEL:
        if opts.houses_in_bank - sum(v for v in level.values() if v < HOTEL) < per_hotel:
            return False
        new = per_hotel
    else:
        new = now - 1
    s.ledger.transfer(BANK, player, d.house_cost * opts.house_sell_price // 100)
    if new:
        level[deed] = new
    else:
        del level[deed]
    return True


def mortgage(s: ClassicState, ed: Edition, player: str, deed: int) -> bool:
    """``MortgageDeed(player, deed)``: the Bank lends the printed value on a deed whose set has no buildings
    (``DeedMortgaged``)."""
    if not may_mortgage(s, ed, player, deed):
        return False
    s.ledger.transfer(BANK, player, ed.deeds[deed].mortgage)
    s.mortgaged = s.mortgaged | {deed}
    return True


def settle(s: ClassicState, player: str) -> bool:
    """``SettleDebt(player)``: the debtor pays the debt at the head of the queue (``DebtSettled``)."""
    if s.phase != "debt":
        return False
    d = s.debts[0]
    if player != d.debtor or s.ledger.balances[player] < d.amount:
        return False
    move_money(s, player, d.creditor, d.amount)
    s.debts = s.debts[1:]
    if not s.debts:
        s.phase = PLAY
    return True


__all__ = ["POT", "build", "buy", "end_turn", "may_mortgage", "may_sell", "mortgage", "pass_go", "pay_rent", "pay_tax", "sell", "settle",
           "usable"]
