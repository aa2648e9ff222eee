"""The classic table of the simulator: bots (bots.py) play one game through the engine's commands.

The engine does not track tokens, so the table keeps the board: two dice from a ``random.Random`` seeded per
game, ``PassGo`` when a token passes or reaches GO, then the square's command (``BuyDeed`` or ``DeclineDeed``
and an auction, ``PayRent``/``PayUtilityRent``, ``DrawCard``, ``PayTax``, ``GoToJail``, ``CollectJackpot``).
Cards move tokens through the engine's ``TokenMoved`` events, and the new square is resolved in turn (back
three spaces onto Community Chest draws again). Doubles roll again; the third double goes to jail. Before
rolling, a bot lifts a mortgage, offers a deal for the one street it lacks in a set, and builds. Debts are
raised by selling buildings and mortgaging, then settled, or the debtor goes bankrupt. Every command goes
through the rule's own check and change (sim_send.py sends it): the simulator chooses, the rules decide.

A time-limited game (option ``time_limit``, minutes) ends when the simulated clock (:data:`TURNS_PER_MINUTE`)
reaches the limit: the bots call time between two turns (``CallTime``; the richest player wins).

Jail strategies: ``short`` leaves at once (a Get Out of Jail Free card, else the fine if it has the cash,
else it rolls); ``long`` rolls for doubles while allowed (the engine charges the fine after the last try).

Counts: ``rolls`` is every roll of the dice that moves a token or tries for doubles; each roll's final square
is counted in ``landings``, or in ``in_jail`` when the token ends it In Jail (Just Visiting is position 10).
Amounts are ``int`` in the edition's money unit.
"""
from __future__ import annotations

from typing import Final

from engine import commands as c
from engine.errors import IllegalCommand
from engine.moves import advance
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.cards import tax_amount
from engine.rulesets.classic.commands import command
from engine.rulesets.classic.edition import taxes
from engine.rulesets.classic.sim_send import CLASSIC_TURN_CAP, JAIL_STRATEGIES, GameOver, TableSender
from engine.sim.results import GameResult

__all__ = ["CLASSIC_TURN_CAP", "JAIL_STRATEGIES", "TURNS_PER_MINUTE", "ClassicRunner"]
TURNS_PER_MINUTE: Final = 2  # the simulated clock (late-game rent tax, time limit): two player turns a minute


class ClassicRunner(TableSender):
    """One classic game played by bots. ``check_invariants``: after every command (True) or not at all
    (the caller checks at the end)."""

    # -- a whole game ----------------------------------------------------------------------------
    def play(self) -> GameResult:
        """Start the game and play until it is over or reaches the turn cap (then ``capped``). Each turn:
        what the bot does before rolling, a turn in jail, then the rolls (doubles roll again; the third goes
        to jail), each roll's move and landing; then the end of turn."""
        r = self.result
        try:
            specs = tuple(c.PlayerSpec(p, p, "") for p in self.ids)
            self.send(c.StartGame(specs, self.options, self.seed))
            state = self.state
            clocked = state.options.late_game_rent_tax  # the online edition's clock (TURNS_PER_MINUTE)
            time_up = state.options.time_limit * TURNS_PER_MINUTE  # a time-limited game: turns until time
            end_turn = {p: command(c.EndTurn, p) for p in self.ids}
            rnd = self.rng.random  # two dice, 1..6 each, as _roll
            jail, turn_cap, send = state.jail, self.turn_cap, self.send
            while r.turns < turn_cap:
                player = state.turn
                assert player is not None
                if time_up and r.turns >= time_up:  # time is called between two turns: the richest wins
                    r.turns -= 1  # GameOver counts the turn in which the game ended; this one was not played
                    send(command(cc.CallTime))
                if clocked and r.turns // TURNS_PER_MINUTE > state.minute:
                    send(command(cc.AdvanceClock, r.turns // TURNS_PER_MINUTE))
                self._before_roll(player)
                if player not in jail or not self._jail_turn(player):
                    doubles = 0
                    while True:
                        d1 = 1 + int(rnd() * 6)
                        d2 = 1 + int(rnd() * 6)
                        r.rolls += 1
                        if d1 == d2:
                            doubles += 1
                            if doubles == 3:
                                self._go_to_jail(player)
                                r.in_jail += 1
                                break
                        self._move(player, d1 + d2)
                        if d1 != d2 or player in jail or player in state.bankrupt or state.turn != player:
                            break
                if state.turn == player and player not in state.bankrupt:
                    self.send_kept(end_turn[player])
                r.turns += 1
            r.capped = True
        except GameOver:
            if self._mover is not None:
                if self._mover_jailed:
                    r.in_jail += 1
                else:
                    self._count(self._mover)
            r.turns += 1  # the turn in which the game ended
            r.completed = True
            r.winner = self.ids.index(self.state.standings_final[0].player)
        except IllegalCommand as exc:
            r.violations.append(f"seed {self.seed} command {r.commands + 1}: the engine refused the bot: {exc}")
        return r

    def _roll(self) -> tuple[int, int]:
        """Two dice, 1..6 each."""
        rnd = self.rng.random
        return 1 + int(rnd() * 6), 1 + int(rnd() * 6)

    def _jail_turn(self, player: str) -> bool:
        """A turn that starts in jail: leave with the card or the fine (False: the turn goes on to roll), or
        roll for doubles (True: the turn's roll is done)."""
        s = self.state
        if self.short and player in s.held.values():
            self.send(command(cc.UseJailCard, player))
            return False
        if self.short and s.ledger.balances[player] >= s.options.jail_fine:
            self.send(command(c.PayJailFee, player))
            return False
        r = self.result
        d1, d2 = self._roll()
        r.rolls += 1
        self._mover, self._mover_jailed = player, True  # counted In Jail if the game ends here
        self.send(command(c.JailRoll, player, d1 == d2))
        self._mover = None
        if player in s.jail or player in s.bankrupt:  # a bankrupt one: the fine after the last try
            r.in_jail += 1
        else:
            self._move(player, d1 + d2)  # leaving jail by a roll does not roll again
        return True

    def _before_roll(self, player: str) -> None:
        """Lift a mortgage, offer a deal, build: what a bot does at the start of its turn. What the bot
        could build on or trade for is looked at again only after deeds changed hands or mortgages (its own
        holdings, kept in ``_held`` until its deeds change, and the offer from them at that moment)."""
        s, ed, bot = self.state, self.edition, self.bots[player]
        if s.mortgaged and s.ledger.balances[player] >= bot.lift_margin:  # (lift_choice's first test)
            deed = bot.lift_choice(s, ed)
            if deed is not None:
                self.send(command(cc.LiftMortgage, player, deed))
        seen = self._seen.get(player)
        if seen is None or seen[0] != self._version:
            held = self._held.get(player)
            if held is None:
                held = self._held[player] = bot.holdings(s, ed)
            seen = (self._version, held[0], bot.offer_from(s, ed, held[1]))
            self._seen[player] = seen
        offer = seen[2]
        if offer is not None:
            self._seen[player] = (seen[0], seen[1], None)  # offered once per change of ownership
            if self.attempt(offer):
                other = offer.partner
                accepted = False
                if self.bots[other].accepts(s, ed, offer):
                    accepted = self.attempt(command(cc.AcceptTrade, other))
                if not accepted:
                    self.send(command(cc.CancelTrade, player))
        if seen[1]:
            one_each = s.options.one_house_per_set  # the second text: one building per set a turn
            balances = s.ledger.balances
            floor = self._least_house + bot.build_reserve
            while True:
                if balances[player] < floor:
                    return  # as build_choice: no set's house is within reach
                sets = seen[1] if not one_each else tuple(
                    m for m in seen[1] if f"built:{ed.deeds[m[0]].colour}" not in s.marks)
                idle = self._idle.get(player)
                if idle is not None and idle[0] is sets and idle[2] == self._levels and balances[player] < idle[1]:
                    return  # build_choice said None, and says it below this cash while no building changes
                used = self._used
                if used is None:
                    used = self._used = s.buildings_used()
                deed, below = bot.build_plan(s, ed, sets, used)
                if not deed:
                    self._idle[player] = (sets, below, self._levels)
                    return
                self.send(command(cc.BuildHouse, player, deed))

    # -- moving and landing ----------------------------------------------------------------------
    def _move(self, player: str, steps: int) -> None:
        """Move ``player``'s token ``steps`` squares (GO's salary when it passes GO), resolve the landing
        and count it."""
        new, passed = advance(self.positions[player], steps, len(self.kinds))
        self.positions[player] = new
        self._mover, self._mover_jailed = player, False  # counted even if the game ends on this square
        if passed:
            self.send_kept(command(c.PassGo, player))
        self._land(player, new, steps)
        self._mover = None
        self._count(player)

    def _count(self, player: str) -> None:
        if player in self.state.jail:
            self.result.in_jail += 1
        else:
            self.result.landings[self.positions[player]] += 1

    def _land(self, player: str, position: int, dice: int) -> None:
        kind = self.kinds[position]
        if kind == "deed":
            deed = self.deed_at[position]
            assert deed is not None
            self._resolve_deed(player, deed, dice)
        elif kind == "chance" or kind == "chest":
            events = self.send(command(cc.DrawCard, player, position))
            if len(events) > 1:
                self._moved(events)
                s = self.state
                moved = self.positions[player]
                if moved != position and player in s.specs and player not in s.jail and player not in s.bankrupt:
                    self._land(player, moved, dice)
        elif kind == "tax":
            s = self.state
            percent = False
            if s.options.income_tax_choice and taxes(self.edition)[position][0] == "income":
                percent = tax_amount(s, self.edition, player, position, True) < tax_amount(
                    s, self.edition, player, position, False)
            self.send(command(cc.PayTax, player, position, percent))
        elif kind == "go_to_jail":
            self._go_to_jail(player)
        elif kind == "parking":
            s = self.state
            if s.options.free_parking_jackpot and s.pot > 0:
                self.send(command(cc.CollectJackpot, player))

    def _resolve_deed(self, player: str, deed: int, dice: int) -> None:
        s = self.state
        owner = s.owner.get(deed)
        if owner is None:
            if self.bots[player].wants_to_buy(s, self.edition, deed):
                self.send(command(c.BuyDeed, player, deed))
            else:
                self.send(command(c.DeclineDeed, player, deed))
        elif owner != player:
            if deed in self.utility:
                card = s.card_rent
                if card is not None and card[2] == "tenfold" and card[1] == deed:
                    d1, d2 = self._roll()  # the card: roll the dice for the rent
                    dice = d1 + d2
                self.send(command(cc.PayUtilityRent, player, deed, dice))
            else:
                self.send_kept(command(c.PayRent, player, deed))
