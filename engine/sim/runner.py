"""The headless simulator: bots (engine/rulesets/ultimate/bots.py) play whole games through the engine's commands.

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

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import commands as c
from engine import events as ev
from engine.editions import Edition
from engine.errors import EngineError, IllegalCommand
from engine.game import Game
from engine.rulesets.ultimate.bots import Bot
from engine.rulesets.ultimate.cards import targets

Apply = Callable[[c.Command], tuple[ev.Event, ...]]
JAIL_STRATEGIES = ("short", "long")
DEFAULT_TURN_CAP = 2000  # player turns per game; real games end far sooner
_TOKEN_MOVED, _JAIL_ENTERED = ev.TokenMoved, ev.JailEntered


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (stable across Python versions and runs)."""
    digest = hashlib.sha256(f"boardbank-sim:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class SimError(EngineError, ValueError):
    """Simulator settings that cannot be played (player count, jail strategy, options the engine refuses)."""


class _GameOver(Exception):
    """Internal: the engine's phase became ``over``; unwinds the turn."""


@dataclass(slots=True)
class GameResult:
    """What one game did: ``turns`` = ``EndTurn`` commands; ``winner`` = the seat (0-based) ranked first."""

    seed: int
    completed: bool = False
    turns: int = 0
    commands: int = 0
    landings: list[int] = field(default_factory=list)
    in_jail: int = 0
    violations: list[str] = field(default_factory=list)
    winner: int | None = None


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
                self.positions[e.player] = e.position  # type: ignore[union-attr]
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
            self.send(c.ReturnDeed(debtor, self.bots[debtor].deed_to_return(s, self.edition)))

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
            if self.jail_strategy == "short" and self.game.check(c.PayJailFee(player)) is None:
                self.send(c.PayJailFee(player))  # then an ordinary turn
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
                if doubles == 3:
                    self.send(c.GoToJail(player))
                    return
            self._move(player, d1 + d2)
            if d1 != d2 or player in s.jail:
                return

    # -- moving and landing ----------------------------------------------------------------------
    def _move(self, player: str, steps: int) -> None:
        size = len(self.edition.spaces)
        old = self.positions[player]
        new = (old + steps) % size
        self.positions[player] = new
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
                self.send(c.UseLocation(player, target, position))
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
            self.send(c.LandOnOwn(player, deed))
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
        self.send(c.DrawEvent(player, None, position))
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
        self.send(c.ResolveEvent(player, self.bots[player].event_choice(s, self.edition, card, options)))



# -- a run of many games ---------------------------------------------------------------------------------

@dataclass(slots=True)
class SimReport:
    """Totals of a run. ``turns`` is the mean per game; ``seconds`` comes from the injected clock."""

    games: int
    completed: int
    turns: float
    landings: list[int]
    in_jail: int
    invariant_violations: int
    commands: int
    seconds: float
    commands_per_second: float
    winners: list[int]
    problems: list[str] = field(default_factory=list)  # the first violation messages, for the log

    def as_dict(self) -> dict[str, object]:
        """The CLI's JSON object (exactly the documented keys)."""
        return {
            "games": self.games, "completed": self.completed, "turns": self.turns, "landings": self.landings,
            "in_jail": self.in_jail, "invariant_violations": self.invariant_violations,
            "commands": self.commands, "seconds": self.seconds,
            "commands_per_second": self.commands_per_second, "winners": self.winners,
        }


def run_sim(edition: Edition, players: int, games: int, seed: int, *, jail_strategy: str = "short",
            options: dict[str, object] | None = None, check_invariants: bool = True,
            turn_cap: int = DEFAULT_TURN_CAP, clock: Callable[[], float] | None = None) -> SimReport:
    """Play ``games`` games of ``players`` bots; game ``i`` uses ``derive_seed(seed, i)``.

    ``clock`` (e.g. ``time.perf_counter``, seconds) times the run; without it the timing fields are 0.
    """
    if games < 0 or not 2 <= players <= 8:
        raise SimError(f"expected games >= 0 and 2..8 players, got games={games}, players={players}")
    probe = c.StartGame(tuple(c.PlayerSpec(f"p{i + 1}") for i in range(players)), dict(options or {}), seed)
    refusal = Game(edition).check(probe)
    if refusal is not None:
        hint = f" (for more players add the option max_players={players})" if "max_players" in refusal else ""
        raise SimError(f"the engine refuses these settings: {refusal}{hint}")
    start = clock() if clock else 0.0
    landings = [0] * len(edition.spaces)
    winners = [0] * players
    report = SimReport(games, 0, 0.0, landings, 0, 0, 0, 0.0, 0.0, winners)
    total_turns = 0
    for i in range(games):
        runner = GameRunner(edition, players, derive_seed(seed, i), jail_strategy=jail_strategy,
                            options=options, check_invariants=check_invariants, turn_cap=turn_cap)
        r = runner.play()
        report.completed += r.completed
        total_turns += r.turns
        report.commands += r.commands
        report.in_jail += r.in_jail
        report.invariant_violations += len(r.violations)
        report.problems.extend(r.violations[: max(0, 20 - len(report.problems))])
        for pos, n in enumerate(r.landings):
            landings[pos] += n
        if r.winner is not None:
            winners[r.winner] += 1
    report.turns = round(total_turns / games, 3) if games else 0.0
    if clock:
        report.seconds = round(clock() - start, 3)
        report.commands_per_second = round(report.commands / report.seconds, 1) if report.seconds > 0 else 0.0
    return report
