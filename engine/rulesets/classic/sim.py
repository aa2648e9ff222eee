"""The classic table of the simulator: bots (bots.py) play one game through the engine's commands.

The engine does not track tokens, so the table keeps the board: two dice from a ``random.Random`` seeded per
game, ``PassGo`` when a token passes or reaches GO, then the square's command (``BuyDeed`` or ``DeclineDeed``
and an auction, ``PayRent``/``PayUtilityRent``, ``DrawCard``, ``PayTax``, ``GoToJail``, ``CollectJackpot``).
Cards move tokens through the engine's ``TokenMoved`` events, and the new square is resolved in turn (back
three spaces onto Community Chest draws again). Doubles roll again; the third double goes to jail. Before
rolling, a bot lifts a mortgage, offers a deal for the one street it lacks in a set, and builds. Debts are
raised by selling buildings and mortgaging, then settled, or the debtor goes bankrupt.

Jail strategies: ``short`` leaves at once (a Get Out of Jail Free card, else the fine if it has the cash,
else it rolls); ``long`` rolls for doubles while allowed (the engine charges the fine after the last try).

Counts: ``rolls`` is every roll of the dice that moves a token or tries for doubles; each roll's final square
is counted in ``landings``, or in ``in_jail`` when the token ends it In Jail (Just Visiting is position 10).
Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from engine import commands as c
from engine import events as ev
from engine.editions import Edition
from engine.errors import IllegalCommand
from engine.game import Game
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic import events as cev
from engine.rulesets.classic import fused
from engine.rulesets.classic.bots import Bot
from engine.rulesets.classic.cards import tax_amount
from engine.rulesets.classic.edition import taxes
from engine.rulesets.classic.jail import jail_position
from engine.rulesets.classic.state import ClassicState
from engine.rulesets.classic.table import SimTable, light
from engine.rulesets.classic.watch import InvariantWatch
from engine.sim.results import GameResult, SimError

Apply = Callable[[c.Command], Sequence[ev.Event]]
JAIL_STRATEGIES: Final = ("short", "long")
CLASSIC_TURN_CAP: Final = 1000  # player turns before a game is stopped and counted apart (reason "cap")
TURNS_PER_MINUTE: Final = 2  # the simulated clock of the late-game rent tax: two player turns a minute
_TOKEN_MOVED: Final = ev.TokenMoved
_TOKEN_MOVED_LIGHT: Final = light(ev.TokenMoved)
_BUILT_LIGHT: Final = light(cev.BuildingBought)
_SOLD_LIGHT: Final = light(cev.BuildingSold)
_DRAWN: Final[tuple[Any, ...]] = (light(cev.CardDrawn)(0, 0, "", 0),)  # a fused draw, to the watch: decks only
_QUIET: Final[tuple[Any, ...]] = ()  # what the watch sees of a fused command that changed money and turn only
_HOLDINGS: Final[tuple[Any, ...]] = (object(),)  # ... of one that changed a holding: check everything
_CHANGES_HOLDINGS: Final = frozenset({c.BuyDeed, c.CloseAuction, cc.AcceptTrade, cc.DeclareBankruptcy, cc.MortgageDeed,
                               cc.PayWithDeeds, cc.TimeOut,
                               cc.LiftMortgage, c.StartGame})


_COMMANDS: Final[dict[tuple[object, ...], c.Command]] = {}
"""Commands already made, by (class, fields): commands are immutable values, and a bot game sends the same
few hundred (player, deed or square) combinations again and again, in every game of a run."""


def _command(cls: Callable[..., c.Command], *fields: object) -> c.Command:
    """The command ``cls(*fields)``, made once per process (see :data:`_COMMANDS`)."""
    key = (cls, *fields)
    found = _COMMANDS.get(key)
    if found is None:
        found = _COMMANDS[key] = cls(*fields)
    return found


_BOARDS: Final[dict[str, tuple[tuple[str, ...], tuple[int | None, ...], frozenset[int]]]] = {}


def _board(edition: Edition) -> tuple[tuple[str, ...], tuple[int | None, ...], frozenset[int]]:
    """The edition's square kinds, the deed on each square and the utilities' deed numbers, once per edition."""
    found = _BOARDS.get(edition.id)
    if found is None:
        found = _BOARDS[edition.id] = (
            tuple(sp.kind for sp in edition.spaces), tuple(sp.deed for sp in edition.spaces),
            frozenset(n for n, d in edition.deeds.items() if d.kind == "utility"))
    return found


class _GameOver(Exception):
    """Internal: the engine's phase became ``over``; unwinds the turn."""


class ClassicRunner:
    """One classic game played by bots. ``check_invariants``: after every command (True) or not at all
    (the caller checks at the end)."""

    def __init__(self, edition: Edition, players: int, seed: int, *, jail_strategy: str = "short",
                 options: dict[str, object] | None = None, game: Game | None = None,
                 apply: Apply | None = None, check_invariants: bool = True,
                 turn_cap: int = CLASSIC_TURN_CAP, fusing: bool = True) -> None:
        if jail_strategy not in JAIL_STRATEGIES:
            raise SimError(f"jail strategy: expected one of {JAIL_STRATEGIES}, got {jail_strategy!r}")
        self.edition = edition
        self.game: Game | SimTable = game if game is not None else SimTable(edition)
        self._apply = apply if apply is not None else self.game.apply
        # the lean table called directly (a native call once compiled) and the live state, which keeps its
        # identity for the whole game (Game's undo rebuilds it in place)
        self._table: SimTable | None = self.game if apply is None and isinstance(self.game, SimTable) else None
        self.state: ClassicState = self.game.state
        self.seed = seed
        self.rng = random.Random(seed)
        self.ids = tuple(f"p{i + 1}" for i in range(players))
        self.options = dict(options or {})
        self.bots = {p: Bot(p) for p in self.ids}
        self.short = jail_strategy == "short"
        self.check_invariants = check_invariants
        self.turn_cap = turn_cap
        self.positions = dict.fromkeys(self.ids, 0)
        self.kinds, self.deed_at, self.utility = _board(edition)
        self.result = GameResult(seed, landings=[0] * len(edition.spaces))
        self._mover: str | None = None  # the player whose roll is being resolved
        self._mover_jailed = False  # ... by a roll in jail
        self._busy = False  # settling a debt or running an auction: no nested settling
        self._version = 0  # counts commands that may change who holds which deed or mortgage
        self._seen: dict[str, tuple[int, tuple[tuple[int, ...], ...], cc.ProposeTrade | None]] = {}
        self._watch = InvariantWatch(edition)  # check_invariants after each command, by what it touched
        self._fz: fused.Fused | None = None  # on the lean table with the bare rules: the fused commands
        self._fusing = fusing
        self._jail_at = jail_position(edition)

    # -- sending commands ------------------------------------------------------------------------
    def send(self, cmd: c.Command) -> Sequence[ev.Event]:
        """Apply one command, check invariants if asked, stop at game over, settle debts and auctions."""
        table = self._table
        events = table.apply(cmd) if table is not None else self._apply(cmd)
        r = self.result
        r.commands += 1
        if type(cmd) in _CHANGES_HOLDINGS:
            self._version += 1
        if self.check_invariants:
            problems = self._watch.check(self.state, events)
            if problems:
                r.violations.extend(f"seed {self.seed} command {r.commands} {cmd!r}: {p}" for p in problems)
        phase = self.state.phase
        if phase != "play" and not self._busy:
            if phase == "over":
                raise _GameOver
            self._busy = True
            try:
                while phase in ("debt", "auction"):
                    if phase == "debt":
                        self._settle_debts()
                    else:
                        self._auction()
                    phase = self.state.phase
            finally:
                self._busy = False
        elif phase == "over":
            raise _GameOver
        return events

    def _fused(self, events: Sequence[Any], cls: Callable[..., c.Command], *fields: object) -> None:
        """Count the command ``cls(*fields)`` done by fused.py (as ``send`` does); ``events`` stand for its
        events to the watch."""
        self.result.commands += 1
        table = self._table
        assert table is not None
        table._command += 1
        if self.check_invariants:
            problems = self._watch.check(self.state, events)
            if problems:
                r = self.result
                cmd = cls(*fields)
                r.violations.extend(f"seed {self.seed} command {r.commands} {cmd!r}: {p}" for p in problems)

    def _go_to_jail(self, player: str) -> None:
        fz = self._fz
        if fz is not None and fz.go_to_jail(player):
            self._fused(_QUIET, c.GoToJail, player)
            self.positions[player] = self._jail_at  # its TokenMoved
        else:
            self._moved(self.send(_command(c.GoToJail, player)))

    def _moved(self, events: Sequence[Any]) -> None:
        for e in events:
            kind = type(e)
            if kind is _TOKEN_MOVED or kind is _TOKEN_MOVED_LIGHT:
                self.positions[e.player] = e.position

    def _settle_debts(self) -> None:
        s = self.state
        game = self.game
        if s.phase == "debt":
            debt = s.debts[0]
            debtor = debt.debtor
            if s.ledger.balances[debtor] >= debt.amount:
                fz = self._fz
                if fz is not None and fz.settle(debtor):
                    self._fused(_QUIET, cc.SettleDebt, debtor)
                else:
                    self.send(_command(cc.SettleDebt, debtor))
                return
            cmd = self.bots[debtor].raise_money(s, self.edition, self._legal)
            kind = type(cmd)
            if s.options.pay_debt_with_deeds and kind is not cc.SellBuilding and debt.creditor in self.bots:
                offer = self.bots[debtor].deed_payment(s, self.edition, debt.amount)  # the creditor agrees
                if offer is not None and game.check(offer) is None:
                    cmd = offer
                    kind = type(cmd)
            fz = self._fz
            if fz is not None and (kind is cc.SellBuilding or kind is cc.MortgageDeed):
                deed = cmd.deed  # type: ignore[attr-defined]
                if kind is cc.SellBuilding and fz.sell(debtor, deed):
                    self._fused((_SOLD_LIGHT(0, 0, debtor, deed, 0, 0),) if self.check_invariants else _QUIET,
                                cc.SellBuilding, debtor, deed)
                    return
                if kind is cc.MortgageDeed and fz.mortgage(debtor, deed):
                    self._version += 1  # as send: a mortgage changed
                    self._fused(_HOLDINGS, cc.MortgageDeed, debtor, deed)
                    return
            self.send(cmd if cmd is not None else _command(cc.DeclareBankruptcy, debtor))

    def _legal(self, cmd: object) -> bool:
        """Whether the table would accept ``cmd`` now (``check`` is None; fused.py's exact checks of a sale
        or a mortgage on the fused path)."""
        fz = self._fz
        if fz is not None:
            kind = type(cmd)
            if kind is cc.SellBuilding:
                return fz.may_sell(cmd.player, cmd.deed)  # type: ignore[attr-defined]
            if kind is cc.MortgageDeed:
                return fz.may_mortgage(cmd.player, cmd.deed)  # type: ignore[attr-defined]
        return self.game.check(cmd) is None

    def _auction(self) -> None:
        """Each bidder in turn order bids its limit once if that beats the high bid; then the close."""
        s = self.state
        if s.phase == "auction":
            lot = s.auction
            assert lot is not None
            if lot.kind == "deed":
                for bidder in lot.bidders:
                    limit = self.bots[bidder].bid_limit(s, self.edition, lot.deed)
                    current = s.auction
                    assert current is not None
                    if limit > current.high_bid and limit >= 1:
                        self.send(c.PlaceBid(bidder, limit))
            self.send(_command(c.CloseAuction))

    # -- a whole game ----------------------------------------------------------------------------
    def play(self) -> GameResult:
        """Start the game and play until it is over or reaches the turn cap (then ``capped``)."""
        r = self.result
        try:
            specs = tuple(c.PlayerSpec(p, p, "") for p in self.ids)
            self.send(c.StartGame(specs, self.options, self.seed))
            state = self.state
            clocked = state.options.late_game_rent_tax  # the online edition's clock (TURNS_PER_MINUTE)
            end_turn = {p: _command(c.EndTurn, p) for p in self.ids}
            if self._fusing and self._table is not None and fused.usable(state.options):
                self._fz = fused.Fused(state, self.edition)
            fz = self._fz
            while r.turns < self.turn_cap:
                player = state.turn
                assert player is not None
                if clocked and r.turns // TURNS_PER_MINUTE > state.minute:
                    self.send(_command(cc.AdvanceClock, r.turns // TURNS_PER_MINUTE))
                self._turn(player)
                if state.turn == player and player not in state.bankrupt:
                    if fz is not None and fz.end_turn(player):
                        self._fused(_QUIET, c.EndTurn, player)
                    else:
                        self.send(end_turn[player])
                r.turns += 1
            r.capped = True
        except _GameOver:
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

    def _turn(self, player: str) -> None:
        s = self.state
        self._before_roll(player)
        r = self.result
        if player in s.jail:
            if self.short and player in s.held.values():
                self.send(_command(cc.UseJailCard, player))
            elif self.short and s.ledger.balances[player] >= s.options.jail_fine:
                fz = self._fz
                if fz is not None and fz.pay_fine(player):
                    self._fused(_QUIET, c.PayJailFee, player)
                else:
                    self.send(_command(c.PayJailFee, player))
            else:
                d1, d2 = self._roll()
                r.rolls += 1
                self._mover, self._mover_jailed = player, True  # counted In Jail if the game ends here
                self.send(_command(c.JailRoll, player, d1 == d2))
                self._mover = None
                if player in s.jail or player in s.bankrupt:  # a bankrupt one: the fine after the last try
                    r.in_jail += 1
                else:
                    self._move(player, d1 + d2)  # leaving jail by a roll does not roll again
                return
        doubles = 0
        rnd = self.rng.random  # two dice, 1..6 each, as _roll
        while True:
            d1, d2 = 1 + int(rnd() * 6), 1 + int(rnd() * 6)
            r.rolls += 1
            if d1 == d2:
                doubles += 1
                if doubles == 3:
                    self._go_to_jail(player)
                    r.in_jail += 1
                    return
            self._move(player, d1 + d2)
            if d1 != d2 or player in s.jail or player in s.bankrupt or s.turn != player:
                return

    def _before_roll(self, player: str) -> None:
        """Lift a mortgage, offer a deal, build: what a bot does at the start of its turn. What the bot
        could build on or trade for is looked at again only after deeds changed hands or mortgages."""
        s, ed, bot = self.state, self.edition, self.bots[player]
        if s.mortgaged:
            deed = bot.lift_choice(s, ed)
            if deed is not None:
                fz = self._fz
                if fz is not None and fz.lift(player, deed):
                    self._version += 1  # as send: a mortgage changed
                    self._fused(_HOLDINGS, cc.LiftMortgage, player, deed)
                else:
                    self.send(_command(cc.LiftMortgage, player, deed))
        seen = self._seen.get(player)
        if seen is None or seen[0] != self._version:
            sets, offer = bot.survey(s, ed)  # complete_sets and trade_offer
            seen = (self._version, sets, offer)
            self._seen[player] = seen
        offer = seen[2]
        if offer is not None:
            self._seen[player] = (seen[0], seen[1], None)  # offered once per change of ownership
            if self.game.check(offer) is None:
                self.send(offer)
                partner = self.bots[offer.partner]
                accept = _command(cc.AcceptTrade, offer.partner)
                if partner.accepts(s, ed, offer) and self.game.check(accept) is None:
                    self.send(accept)
                else:
                    self.send(_command(cc.CancelTrade, player))
        if seen[1]:
            one_each = s.options.one_house_per_set  # the second text: one building per set a turn
            fz = self._fz
            while True:
                sets = seen[1] if not one_each else tuple(
                    m for m in seen[1] if f"built:{ed.deeds[m[0]].colour}" not in s.marks)
                deed = bot.build_choice(s, ed, sets)
                if deed is None:
                    return
                if fz is not None and fz.build(player, deed):
                    self._fused((_BUILT_LIGHT(0, 0, player, deed, 0, 0),) if self.check_invariants else _QUIET,
                                cc.BuildHouse, player, deed)
                else:
                    self.send(_command(cc.BuildHouse, player, deed))

    # -- moving and landing ----------------------------------------------------------------------
    def _move(self, player: str, steps: int) -> None:
        old = self.positions[player]
        new = (old + steps) % len(self.kinds)
        self.positions[player] = new
        self._mover, self._mover_jailed = player, False  # counted even if the game ends on this square
        if new < old:
            fz = self._fz
            if fz is not None and fz.pass_go(player):
                self._fused(_QUIET, c.PassGo, player)
            else:
                self.send(_command(c.PassGo, player))
        self._land(player, new, steps)
        self._mover = None
        if player in self.state.jail:  # as _count
            self.result.in_jail += 1
        else:
            self.result.landings[self.positions[player]] += 1

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
            fz = self._fz
            if fz is not None and fz.draw(player, position):  # a card that only moves money
                self._fused(_DRAWN, cc.DrawCard, player, position)
                return
            events = self.send(_command(cc.DrawCard, player, position))
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
            fz = self._fz
            if not percent and fz is not None and fz.pay_tax(player, position):
                self._fused(_QUIET, cc.PayTax, player, position, False)
            else:
                self.send(_command(cc.PayTax, player, position, percent))
        elif kind == "go_to_jail":
            self._go_to_jail(player)
        elif kind == "parking":
            s = self.state
            if s.options.free_parking_jackpot and s.pot > 0:
                self.send(_command(cc.CollectJackpot, player))

    def _resolve_deed(self, player: str, deed: int, dice: int) -> None:
        s = self.state
        owner = s.owner.get(deed)
        if owner is None:
            if self.bots[player].wants_to_buy(s, self.edition, deed):
                fz = self._fz
                if fz is not None and fz.buy(player, deed):
                    self._version += 1  # as send: a deed changed hands
                    self._fused(_HOLDINGS, c.BuyDeed, player, deed)
                else:
                    self.send(_command(c.BuyDeed, player, deed))
            else:
                self.send(_command(c.DeclineDeed, player, deed))
        elif owner != player:
            if deed in self.utility:
                card = s.card_rent
                if card is not None and card[2] == "tenfold" and card[1] == deed:
                    d1, d2 = self._roll()  # the card: roll the dice for the rent
                    dice = d1 + d2
                fz = self._fz
                if fz is not None and fz.utility_rent(player, deed, dice):
                    self._fused(_QUIET, cc.PayUtilityRent, player, deed, dice)
                else:
                    self.send(_command(cc.PayUtilityRent, player, deed, dice))
            elif self._fz is not None and self._fz.pay_rent(player, deed):
                self._fused(_QUIET, c.PayRent, player, deed)
            else:
                self.send(_command(c.PayRent, player, deed))
