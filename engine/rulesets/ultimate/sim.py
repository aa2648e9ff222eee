"""The Ultimate Banking table of the simulator: bots (bots.py) play one game through the engine's commands.

The engine does not know where tokens stand, so the simulator keeps the board itself: it rolls two dice
from a ``random.Random`` seeded per game (never global randomness), moves the token around the edition's
spaces, sends ``PassGo`` when it passes or lands on GO, resolves the space it lands on with the same
commands the banker sends (``BuyDeed`` / ``DeclineDeed`` + bids + ``CloseAuction``, ``PayRent``,
``LandOnOwn``, ``UseLocation``, ``DrawEvent`` + ``ResolveEvent``, ``GoToJail``), settles debts with
``ReturnDeed`` (cheapest deed first) and ends the turn with ``EndTurn``. Doubles roll again; the third
double goes to jail without moving. Tokens follow the engine's ``TokenMoved`` events (move cards,
TOTAL GRIDLOCK, jail). A game ends when the engine's phase is ``over`` (the first bankruptcy); a generous
turn cap stops a game that would not end (it then counts as not completed).

Jail strategies: ``short`` pays the fee at once when it has the cash (else rolls); ``long`` rolls for
doubles until the engine charges the fee after the last allowed try.

Landing counts: every time a token arrives on a space on its own turn (a dice move, a Location jump, a
move card) the space's count goes up; a token sent to jail counts in ``in_jail`` instead of position 9
(which counts Just Visiting). Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import commands as c
from engine import events as ev
from engine.editions import Edition
from engine.errors import IllegalCommand
from engine.game import Game
from engine.moves import third_double
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate.bots import Bot
from engine.rulesets.ultimate.cards import targets
from engine.sim.results import DEFAULT_TURN_CAP, GameResult, SimError

Apply = Callable[[c.Command], tuple[ev.Event, ...]]
JAIL_STRATEGIES = ("short", "long")
_TOKEN_MOVED, _JAIL_ENTERED = ev.TokenMoved, ev.JailEntered


class _GameOver(Exception):
    """Internal: the engine's phase became ``over``; unwinds the turn."""


class GameRunner:
    """One game played by bots. ``apply`` defaults to ``game.apply`` (pass a ``DurableGame.apply`` to
    journal every command); ``check_invariants`` runs ``game.invariants()`` after every command."""

    def __init__(self, edition: Edition, players: int, seed: int, *, jail_strategy: str = "short",
                 options: dict[str, object] | None = None, game: Game | None = None,
                 apply: Apply | None = None, check_invariants: bool = True,
                 turn_cap: int = DEFAULT_TURN_CAP) -> None:
        if jail_strategy not in JAIL_STRATEGIES:
            raise SimError(f"jail strategy: expected one of {JAIL_STRATEGIES}, got {jail_strategy!r}")
        self.edition = edition
        self.game = game if game is not None else Game(edition)
        self._apply = apply if apply is not None else self.game.apply
        self.seed = seed
        self.rng = random.Random(seed)
        self.ids = tuple(f"p{i + 1}" for i in range(players))
        self.options = dict(options or {})
        self.bots = {p: Bot(p) for p in self.ids}
        self.jail_strategy = jail_strategy
        self.check_invariants = check_invariants
        self.turn_cap = turn_cap
        self.positions = dict.fromkeys(self.ids, 0)
        self.jail_position = next(sp.position for sp in edition.spaces if sp.kind == "jail")
        self.result = GameResult(seed, landings=[0] * len(edition.spaces))

    # -- sending commands ------------------------------------------------------------------------
    def send(self, cmd: c.Command) -> tuple[ev.Event, ...]:
        """Apply one command, follow token moves and jailings, check invariants, stop at game over."""
        events = self._apply(cmd)
        r = self.result
        r.commands += 1
        for e in events:
            kind = type(e)
            if kind is _TOKEN_MOVED:
                self.positions[e.player] = e.position  # type: ignore[attr-defined]
            elif kind is _JAIL_ENTERED:
                r.in_jail += 1
        if self.check_invariants:
            problems = self.game.invariants()
            if problems:
                r.violations.extend(f"seed {self.seed} command {r.commands} {cmd!r}: {p}" for p in problems)
        phase = self.game.state.phase
        if phase == "over":
            raise _GameOver
        if phase == "debt":
            self._settle_debt()
        return events

    def _settle_debt(self) -> None:
        s = self.game.state
        while s.phase == "debt":
            assert s.debt is not None
            debtor = s.debt.debtor
            self.send(uc.ReturnDeed(debtor, self.bots[debtor].deed_to_return(s, self.edition)))

    # -- a whole game ----------------------------------------------------------------------------
    def play(self) -> GameResult:
        """Start the game (unless ``game`` was already started) and play until it is over or capped."""
        r = self.result
        try:
            if self.game.state.phase == "setup":
                specs = tuple(c.PlayerSpec(p, p, "") for p in self.ids)
                self.send(c.StartGame(specs, self.options, self.seed))
            else:
                self._resume()
            while r.turns < self.turn_cap:
                player = self.game.state.turn
                assert player is not None
                self._turn(player)
                self.send(c.EndTurn(player))
                r.turns += 1
        except _GameOver:
            r.turns += 1  # the turn in which the game ended
            r.completed = True
            winner = self.game.state.standings_final[0].player
            r.winner = self.ids.index(winner)
        except IllegalCommand as exc:
            r.violations.append(f"seed {self.seed} command {r.commands + 1}: the engine refused the bot: {exc}")
        return r

    def _resume(self) -> None:
        """Continue a game rebuilt mid-turn (e.g. after a crash): finish what is pending; tokens restart
        on their last known spaces (GO if unknown), the engine does not track them."""
        s = self.game.state
        if s.phase == "over":
            raise _GameOver
        self.positions.update({p: self.jail_position for p in s.jail})
        if s.phase == "auction":
            assert s.auction is not None
            self._auction(s.auction.deed)
        elif s.phase == "event":
            assert s.pending is not None
            self._choose(s.pending.player)
        elif s.phase == "debt":
            self._settle_debt()

    def _roll(self) -> tuple[int, int]:
        """Two dice, 1..6 each (``random()`` is a single C call: three times faster than ``randint``)."""
        r = self.rng.random
        return 1 + int(r() * 6), 1 + int(r() * 6)

    def _turn(self, player: str) -> None:
        s = self.game.state
        doubles = 0
        if player in s.jail:
            if s.jail_rolled == player:  # resumed after its roll for doubles failed: its turn is over
                return
            if self.jail_strategy == "short" and s.balance(player) >= s.options.jail_fee:
                self.send(c.PayJailFee(player))  # pays only from cash (short of it, it rolls); then a turn
            else:
                d1, d2 = self._roll()
                self.send(c.JailRoll(player, d1 == d2))
                if player not in s.jail:
                    self._move(player, d1 + d2)  # leaving jail by a roll does not roll again
                return
        while True:
            d1, d2 = self._roll()
            if d1 == d2:
                doubles += 1
                if third_double(doubles):  # engine/moves.py: the third double in a row goes to jail
                    self.send(c.GoToJail(player))
                    return
            self._move(player, d1 + d2)
            if d1 != d2 or player in s.jail:
                return

    # -- moving and landing ----------------------------------------------------------------------
    def _move(self, player: str, steps: int) -> None:
        size = len(self.edition.spaces)
        old = self.positions[player]
        new = (old + steps) % size  # engine/moves.py ``advance`` inline (the simulator's hot path): a test
        self.positions[player] = new  # holds the two equal (tests/engine/test_rules_once.py)
        if new < old or new == 0:
            self.send(c.PassGo(player))
        self._land(player, new)

    def _land(self, player: str, position: int) -> None:
        self.result.landings[position] += 1
        space = self.edition.spaces[position]
        kind = space.kind
        if kind == "deed":
            assert space.deed is not None
            self._resolve_deed(player, space.deed)
        elif kind == "event":
            self._draw(player, position)
        elif kind == "location":
            bot = self.bots[player]
            target = bot.jump_target(self.game.state, self.edition, self.game.state.options.location_fee)
            if target is not None:
                self.send(uc.UseLocation(player, target, position))
                self.result.landings[self.positions[player]] += 1
                self._resolve_deed(player, target)
        elif kind == "go_to_jail":
            self.send(c.GoToJail(player))

    def _resolve_deed(self, player: str, deed: int) -> None:
        s = self.game.state
        owner = s.owner.get(deed)
        if owner is None:
            if self.bots[player].wants_to_buy(s, self.edition, deed):
                self.send(c.BuyDeed(player, deed))
            else:
                self.send(c.DeclineDeed(player, deed))
                if s.phase == "auction":
                    self._auction(deed)
        elif owner == player:
            self.send(uc.LandOnOwn(player, deed))
        else:
            self.send(c.PayRent(player, deed))

    def _auction(self, deed: int) -> None:
        """Each bidder in turn order bids its limit once if that beats the high bid; then the close."""
        s = self.game.state
        auction = s.auction
        assert auction is not None
        for bidder in auction.bidders:
            limit = self.bots[bidder].bid_limit(s, self.edition, deed)
            current = s.auction
            assert current is not None
            if limit > current.high_bid:
                self.send(c.PlaceBid(bidder, limit))
        self.send(c.CloseAuction())

    def _draw(self, player: str, position: int) -> None:
        s = self.game.state
        self.send(uc.DrawEvent(player, None, position))
        if s.phase == "event":
            self._choose(player)
        moved_to = self.positions[player]
        if moved_to != position and player not in s.jail:
            self.result.landings[moved_to] += 1
            target = self.edition.spaces[moved_to].deed
            if target is not None:
                self._resolve_deed(player, target)

    def _choose(self, player: str) -> None:
        """Answer the pending event card with the bot's pick among the legal targets."""
        s = self.game.state
        assert s.pending is not None
        card = self.edition.card(s.pending.card)
        options = targets(s, self.edition, player, card)
        self.send(uc.ResolveEvent(player, self.bots[player].event_choice(s, self.edition, card, options)))



# -- a run of many games ---------------------------------------------------------------------------------
