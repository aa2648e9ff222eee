"""The simulator's fused commands: the hottest commands of a bot game run as one method on the lean table.

A bot game sends about two and a half commands a roll, mostly an end of turn, a rent, a building, a salary,
a purchase or a tax; through the lean table (table.py) each is a rule check, a rule that emits light events
and a fold of each event. Each method of :class:`Fused` does one such command in one go when it is in its
common case, and changes the state exactly as the events of the rule would through the fold (fold.py); in
any other case (any check that might refuse, a debt to open, an option that changes the rule) it changes
nothing and returns False, and the caller sends the command through the table, which refuses it or runs it
as always. So a fused command is never accepted where the rule would refuse it and never does anything the
rule would not do; tests/engine/classic/test_classic_fused.py compares both from many states of whole games.

A :class:`Fused` is made for one started game whose options leave the landing rules unwrapped (no turn
marks, no tokens kept by the unit: :func:`usable`); it reads the options once (they are fixed at
``StartGame``). Money moves as ``Ledger.transfer`` posts it. Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from engine.rulesets.classic.base import next_active, rent_for
from engine.rulesets.classic.cards import _nearest
from engine.rulesets.classic.commands import ProposeTrade
from engine.rulesets.classic.fused_holdings import DEBT, PLAY, FusedHoldings
from engine.rulesets.classic.options import Options
from engine.rulesets.classic.rent import UTILITY_CARD_TIMES
from engine.rulesets.classic.state import Offer
from engine.rulesets.classic.turns import LATE_GO_MINUTE
from engine.state import DebtState


def usable(options: Options) -> bool:
    """Whether a game of ``options`` may use the fused commands (the rule table is the bare one, as
    ``rules_for`` gives without turn marks and without positions)."""
    return not options.marks_turn and not options.positions


class Fused(FusedHoldings):
    """The fused commands of the started game of state ``s`` (see the module's docstring; those of holdings
    and debts in fused_holdings.py)."""

    def end_turn(self, player: str) -> bool:
        """``EndTurn(player)``: the turn passes to the next active player (``TurnEnded``)."""
        s = self.s
        if player != s.turn or s.phase != PLAY:
            return False
        out = len(s.bankrupt)  # players only go bankrupt in a game: the next one changes only then
        if out != self.out:
            self.next = {p: next_active(s, p) for p in s.order}
            self.out = out
        s.turn = self.next[player]
        s.card_rent = None
        if s.fresh:
            s.fresh = frozenset()
        if s.marks:
            s.marks = frozenset()
        return True

    def pass_go(self, player: str) -> bool:
        """``PassGo(player)``: the salary from the Bank (``SalaryPaid``); not in jail."""
        s = self.s
        if player != s.turn or s.phase != PLAY or player in s.jail:
            return False
        amount = 0 if self.late_tax and s.minute >= LATE_GO_MINUTE else self.salary  # turns.salary
        ledger = s.ledger
        ledger.issued += amount
        ledger.balances[player] += amount
        return True

    def buy(self, player: str, deed: int) -> bool:
        """``BuyDeed(player, deed)`` of an unowned deed with the cash for it (``DeedBought``)."""
        s = self.s
        deeds = self.ed.deeds
        if player != s.turn or s.phase != PLAY or deed not in deeds or s.owner.get(deed) is not None:
            return False
        price = deeds[deed].price
        ledger = s.ledger
        cash = ledger.balances[player]
        if cash < price or price < 0:
            return False
        ledger.balances[player] = cash - price
        ledger.bank_position += price
        s.owner[deed] = player
        return True

    def pay_rent(self, payer: str, deed: int) -> bool:
        """``PayRent(payer, deed)`` for a street or railroad another player owns, paid at once (``RentPaid``),
        owed as a debt (``DebtOpened``: the phase becomes debt) or nothing owed (``RentWaived``); the
        late-game rent tax goes through the rule."""
        s = self.s
        ed = self.ed
        if (s.phase != PLAY or self.late_tax or payer not in s.specs or payer in s.bankrupt
                or deed not in ed.deeds or (self.claimed and payer != s.turn)):
            return False
        owners = s.owner
        owner = owners.get(deed)
        if owner is None or owner == payer:
            return False
        d = ed.deeds[deed]
        kind = d.kind
        if kind == "utility":
            return False
        mortgaged = s.mortgaged
        if deed in mortgaged:  # base.rent_for, in one pass over the set
            amount = 0
        elif kind == "street":
            level = s.level.get(deed, 0)
            if level:
                amount = d.rents[level]
            else:
                amount = d.rents[0]
                whole, lent = True, False
                for m in ed.colour_sets[d.colour]:
                    if owners.get(m) != owner:
                        whole = False
                        break
                    if m in mortgaged:
                        lent = True
                if whole and (self.double_lent or not lent):
                    amount *= 2
        else:
            count = 0
            for m in ed.colour_sets[d.colour]:
                if owners.get(m) == owner:
                    count += 1
            amount = d.rents[count - 1] if kind == "railroad" else 0  # (any other kind: times no dice)
        card = s.card_rent
        if card is not None and card[0] == payer and card[1] == deed and card[2] == "double":
            amount *= 2
        return self._collect(payer, owner, amount)

    def _collect(self, payer: str, owner: str, amount: int) -> bool:
        """The end of a fused rent: ``amount`` paid at once from ``payer`` to ``owner`` (nothing when it is
        0) and the card's rent rule spent; or, when the payer lacks the cash or owes a debt already, the
        debt queued (phase debt; the card's rule stays, as the rule leaves it)."""
        s = self.s
        if amount > 0:
            balances = s.ledger.balances
            cash = balances[payer]
            if cash < amount or (s.debts and self._owes(payer)):  # rent._charge_rent's debt (DebtOpened)
                s.phase = DEBT
                s.debts = (*s.debts, DebtState(payer, owner, amount, "rent"))
                return True
            balances[payer] = cash - amount
            balances[owner] += amount
        s.card_rent = None
        return True

    def pay_tax(self, player: str, position: int) -> bool:
        """``PayTax(player, position, False)``: the printed tax paid at once to the Bank or the pot
        (``MoneyTransferred``)."""
        s = self.s
        if player != s.turn or s.phase != PLAY:
            return False
        tax = self.taxes.get(position)
        if tax is None:
            return False
        amount = int(tax[1])
        return amount > 0 and self._charge(player, amount)

    def draw(self, player: str, position: int) -> int:
        """``DrawCard(player, position)``: the card to the bottom of its deck (``CardDrawn``) and its effect
        when it moves money with the Bank, the pot or each other player (``MoneyTransferred``), moves the
        token (``TokenMoved`` and the salary past GO; a nearest deed's card rule, ``CardRentSet``), sends it
        to jail (``JailEntered``) or is a jail card kept; the token's square after it, or -1 (nothing
        changed) for any other card, a payout the late-game tax may cut, or a payment that opens a debt:
        those go through the rule."""
        s = self.s
        spaces = len(self.space_kinds)
        if player != s.turn or s.phase != PLAY or not 0 <= position < spaces:
            return -1
        kind = self.space_kinds[position]
        if kind == "chance":
            deck = s.chance
        elif kind == "chest":
            deck = s.chest
        else:
            return -1
        if not deck:
            return -1
        card = self.cards[deck[0]]
        if card.deck != kind:
            return -1
        effect = card.effect
        amount = card.amount
        target = position
        if effect == "collect":
            if self.card_tax or amount < 0:
                return -1
            ledger = s.ledger
            ledger.issued += amount
            ledger.balances[player] += amount
        elif effect == "pay":
            if not self._charge(player, amount):
                return -1
        elif effect == "advance" or effect == "nearest":  # cards._move
            if effect == "advance":
                target = int(str(card.params["target"]))
            else:
                target = _nearest(self.ed, position, str(card.params["kind"]))
            if target < position:
                pay = 0 if self.late_tax and s.minute >= LATE_GO_MINUTE else self.salary  # turns.salary
                ledger = s.ledger
                ledger.issued += pay
                ledger.balances[player] += pay
            if effect == "nearest":
                deed = self.ed.spaces[target].deed
                assert deed is not None
                owner = s.owner.get(deed)
                if owner is not None and owner != player:
                    s.card_rent = (player, deed, str(card.params["rule"]))
        elif effect == "back":
            target = (position - int(str(card.params["steps"]))) % spaces
        elif effect == "jail":  # moves.jail (JailEntered, TokenMoved onto In Jail)
            s.jail[player] = 0
            s.card_rent = None
            target = self.jail_at
        elif effect == "repairs":
            if not self._charge(player, self._repairs(player, card)):
                return -1
        elif effect == "pay_each" or effect == "collect_each":
            if not self._each(player, amount, effect == "pay_each"):
                return -1
        elif effect != "jail_card":  # (a jail card is only held: the deck's fold below)
            return -1
        rest = deck[1:]
        if effect == "jail_card":
            s.held[deck[0]] = player
        else:
            rest = (*rest, deck[0])
        if kind == "chance":
            s.chance = rest
        else:
            s.chest = rest
        return target

    def go_to_jail(self, player: str) -> bool:
        """``GoToJail(player)``: into jail, the token on In Jail (``JailEntered``, ``TokenMoved``)."""
        s = self.s
        if player != s.turn or s.phase != PLAY or player in s.jail:
            return False
        s.jail[player] = 0
        s.card_rent = None
        return True

    def pay_fine(self, player: str) -> bool:
        """``PayJailFee(player)``: the fine paid at once and out of jail (``MoneyTransferred``, ``JailLeft``)."""
        s = self.s
        if player != s.turn or s.phase != PLAY or player not in s.jail or s.ledger.balances[player] < self.fine:
            return False
        if not self._charge(player, self.fine):
            return False
        del s.jail[player]
        return True

    def utility_rent(self, payer: str, deed: int, dice: int) -> bool:
        """``PayUtilityRent(payer, deed, dice)`` for a utility another player owns, paid at once or nothing
        owed (as :meth:`pay_rent`)."""
        s = self.s
        ed = self.ed
        if (s.phase != PLAY or self.late_tax or payer not in s.specs or payer in s.bankrupt
                or deed not in ed.deeds or (self.claimed and payer != s.turn) or not 2 <= dice <= 12):
            return False
        owner = s.owner.get(deed)
        if owner is None or owner == payer or ed.deeds[deed].kind != "utility":
            return False
        card = s.card_rent
        if card is not None and card[0] == payer and card[1] == deed and card[2] == "tenfold":
            amount = 0 if deed in s.mortgaged else UTILITY_CARD_TIMES * dice
        else:
            amount = rent_for(s, ed, deed, dice)
        return self._collect(payer, owner, amount)

    def _sale(self, o: ProposeTrade | Offer) -> bool:
        """Whether the deal ``o`` is a plain sale that trade._check_offer accepts: two different active
        players, ``give_cash`` (an int, at most the player's cash) for the partner's ``take_deeds`` (ints,
        each once, none mortgaged, no building on their sets), nothing else. False for anything else,
        refused or not (the rule decides those)."""
        s = self.s
        player, partner = o.player, o.partner
        specs, bankrupt = s.specs, s.bankrupt
        if (player == partner or player not in specs or partner not in specs or player in bankrupt
                or partner in bankrupt or self.deals_before_roll):
            return False
        cash, deeds, take_cash = o.give_cash, o.take_deeds, o.take_cash
        if (o.give_deeds != () or o.give_cards != () or o.take_cards != () or type(take_cash) is not int
                or take_cash != 0 or type(cash) is not int or cash < 0 or cash > s.ledger.balances[player]
                or type(deeds) is not tuple or not deeds):
            return False
        owner, level, mortgaged, ed = s.owner, s.level, s.mortgaged, self.ed
        for i, d in enumerate(deeds):
            if type(d) is not int or owner.get(d) != partner or d in mortgaged or d in deeds[:i]:
                return False
            for m in ed.colour_sets[ed.deeds[d].colour]:
                if level.get(m):
                    return False
        return True

    def propose(self, o: ProposeTrade) -> bool:
        """``ProposeTrade`` of a plain sale (:meth:`_sale`) when no offer is open: the offer recorded
        (``TradeProposed``)."""
        s = self.s
        if s.phase != PLAY or s.trade is not None or not self._sale(o):
            return False
        s.trade = Offer(o.player, o.partner, o.give_deeds, o.give_cash, o.give_cards, o.take_deeds, o.take_cash,
                        o.take_cards)
        return True

    def accept(self, player: str) -> bool:
        """``AcceptTrade(player)`` of the open plain sale by its partner: the deeds to the player, the cash
        to the partner, no transfer fee (no deed mortgaged) (``TradeCompleted``)."""
        s = self.s
        o = s.trade
        if s.phase != PLAY or o is None or player != o.partner or not self._sale(o):
            return False
        cash = o.give_cash
        balances = s.ledger.balances
        if balances[player] + cash < 0:  # as check_accept: each side's cash after the deal covers its fees
            return False
        owner = s.owner
        for d in o.take_deeds:
            owner[d] = o.player
        if cash:
            balances[o.player] -= cash
            balances[player] += cash
        s.trade = None
        return True
