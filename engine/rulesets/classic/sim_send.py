"""How the classic simulator's table sends commands (sim.py plays the game): to the lean table (table.py)
or a journaled ``Game``, each through the rule's own check and change (rules.py) and checked by the
invariant watch if asked; debts settled and auctions run as soon as a command opens them. The bots (bots.py)
answer what to sell, mortgage or bid. The simulator implements no rule: it only chooses commands and keeps
what it may reuse of the bots' answers until a command could change them. Amounts are ``int`` in the
edition's money unit.
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
from engine.rulesets.classic.bots import Bot, Holdings, least_costs
from engine.rulesets.classic.commands import command
from engine.rulesets.classic.jail import jail_position
from engine.rulesets.classic.state import ClassicState
from engine.rulesets.classic.table import SimTable, light
from engine.rulesets.classic.watch import InvariantWatch
from engine.sim.results import GameResult, SimError

Apply = Callable[[c.Command], Sequence[ev.Event]]
JAIL_STRATEGIES: Final = ("short", "long")
CLASSIC_TURN_CAP: Final = 1000  # player turns before a game is stopped and counted apart (reason "cap")
TOKEN_MOVED: Final = ev.TokenMoved
TOKEN_MOVED_LIGHT: Final = light(ev.TokenMoved)
_LEVEL_EVENTS: Final = (cev.BuildingBought, cev.BuildingSold, cev.AssetsSeized, cev.AssetsReleased)
_LEVELS: Final = frozenset({*_LEVEL_EVENTS, *(light(e) for e in _LEVEL_EVENTS)})
"""The events whose fold changes a street's buildings (fold.py, variant_fold.py), and their light twins:
after them what the runner keeps of the buildings (a bot's None from build_choice, the supply used) is
dropped; no other command can change them."""
_CHANGESHOLDINGS: Final = frozenset({c.BuyDeed, c.CloseAuction, cc.AcceptTrade, cc.DeclareBankruptcy, cc.MortgageDeed,
                                    cc.PayWithDeeds, cc.TimeOut, cc.LiftMortgage, c.StartGame})
"""The commands whose events may change who holds a deed or which deeds are mortgaged."""
_KEEPS: Final = frozenset({c.EndTurn, c.PassGo, c.PayRent, cc.PayUtilityRent, cc.PayTax, c.PlaceBid})
"""Commands whose rules change neither a building, nor a deed's holder, nor a mortgage (only money, the
turn and a debt): after them nothing kept of the bots' answers is looked at again (a test reads the rules'
events to hold this)."""


Board = tuple[tuple[str, ...], tuple[int | None, ...], frozenset[int], int]
_BOARDS: Final[dict[str, Board]] = {}


def _board(edition: Edition) -> Board:
    """The edition's square kinds, the deed on each square, the utilities' deed numbers and the jail's
    position, once per edition."""
    found = _BOARDS.get(edition.id)
    if found is None:
        found = _BOARDS[edition.id] = (
            tuple(sp.kind for sp in edition.spaces), tuple(sp.deed for sp in edition.spaces),
            frozenset(n for n, d in edition.deeds.items() if d.kind == "utility"), jail_position(edition))
    return found


_IDS: Final[dict[int, tuple[str, ...]]] = {}  # players -> their ids, the same strings for every game
_BOTS: Final[dict[tuple[str, ...], dict[str, Bot]]] = {}


def _bots(ids: tuple[str, ...]) -> dict[str, Bot]:
    """A bot per player id (bots are frozen values: made once per process)."""
    found = _BOTS.get(ids)
    if found is None:
        found = _BOTS[ids] = {p: Bot(p) for p in ids}
    return found

class GameOver(Exception):
    """Internal: the engine's phase became ``over``; unwinds the turn."""

class TableSender:
    """The commands of one classic game played by bots (sim.py's ``ClassicRunner`` plays it).
    ``check_invariants``: after every command (True) or not at all (the caller checks at the end)."""


    def __init__(self, edition: Edition, players: int, seed: int, *, jail_strategy: str = "short",
                 options: dict[str, object] | None = None, game: Game | None = None,
                 apply: Apply | None = None, check_invariants: bool = True,
                 turn_cap: int = CLASSIC_TURN_CAP) -> None:
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
        ids = _IDS.get(players)
        if ids is None:  # one string per id for the process: the commands made once (command) hold them
            ids = _IDS[players] = tuple(f"p{i + 1}" for i in range(players))
        self.ids = ids
        self.options = dict(options or {})
        self.bots = _bots(ids)
        self.short = jail_strategy == "short"
        self.check_invariants = check_invariants
        self.turn_cap = turn_cap
        self.positions = dict.fromkeys(self.ids, 0)
        self.kinds, self.deed_at, self.utility, self._jail_at = _board(edition)
        self.result = GameResult(seed, landings=[0] * len(edition.spaces))
        self._mover: str | None = None  # the player whose roll is being resolved
        self._mover_jailed = False  # ... by a roll in jail
        self._busy = False  # settling a debt or running an auction: no nested settling
        self._version = 0  # counts commands that may change who holds which deed or mortgage
        self._seen: dict[str, tuple[int, tuple[tuple[int, ...], ...], cc.ProposeTrade | None]] = {}
        # each bot's own holdings (Bot.holdings), kept until its deeds or mortgages change: dropped by a
        # command of _CHANGESHOLDINGS, those of the players whose deeds or mortgages it changed (_forget)
        self._held: dict[str, Holdings] = {}
        self._least_house = least_costs(edition)[0]  # the cheapest house of any street set
        # a bot's last None from build_choice: (its sets, the floor of build_plan then, _levels then); the answer stays
        # None while its cash is below that floor and no building changed
        self._idle: dict[str, tuple[tuple[tuple[int, ...], ...], int, int]] = {}
        self._levels = 0  # counts the commands whose events bought, sold or seized buildings
        self._used: tuple[int, int] | None = None  # the houses and hotels standing, while known (buildings_used)
        self._watch = InvariantWatch(edition)  # check_invariants after each command, by what it touched

    # -- sending commands ------------------------------------------------------------------------
    def send(self, cmd: c.Command) -> Sequence[ev.Event]:
        """Apply one command, check invariants if asked, stop at game over, settle debts and auctions."""
        before = self._holdings_before(cmd)
        table = self._table
        events: Sequence[ev.Event] = table.apply(cmd) if table is not None else self._apply(cmd)
        return self._sent(cmd, events, *before)

    def send_kept(self, cmd: c.Command) -> Sequence[ev.Event]:
        """``send`` for a command of :data:`_KEEPS` (its rule changes no building, holder or mortgage): the
        same, without looking at what it could have changed (the play's hot path: salary, rent, end of
        turn)."""
        table = self._table
        return self._after(cmd, table.apply(cmd) if table is not None else self._apply(cmd))

    def _holdings_before(self, cmd: c.Command) -> tuple[dict[int, str] | None, frozenset[int]]:
        """What ``_sent`` compares after ``cmd``: the deeds' owners now if some bot's holdings are kept and
        ``cmd`` may change an owner (else None), and the mortgages now."""
        s = self.state
        return (s.owner.copy() if self._held and type(cmd) in _CHANGESHOLDINGS else None), s.mortgaged

    def attempt(self, cmd: c.Command) -> bool:
        """Send ``cmd`` if the table accepts it now (True), else change nothing (False): ``check`` and
        ``send`` in one, checked once on the lean table."""
        table = self._table
        if table is None:
            if self.game.check(cmd) is not None:
                return False
            self.send(cmd)
            return True
        before = self._holdings_before(cmd)
        try:
            events = table.apply(cmd)
        except IllegalCommand:
            return False
        self._sent(cmd, events, *before)
        return True

    def _sent(self, cmd: c.Command, events: Sequence[ev.Event], owners: dict[int, str] | None,
              mortgaged: frozenset[int]) -> Sequence[ev.Event]:
        """What ``send`` does after the table ran ``cmd`` (``owners`` and ``mortgaged``: the deeds' owners
        before it, if some holdings were kept, and the mortgages): count it, drop what was kept of the
        bots' answers that it may have changed, then as ``_after``."""
        kind = type(cmd)
        if kind not in _KEEPS:
            for e in events:  # the buildings changed: what was kept of them is dropped (_levels, _used)
                if type(e) in _LEVELS:
                    self._levels += 1
                    self._used = None
                    break
            if kind in _CHANGESHOLDINGS:  # every command whose events may change an owner or a mortgage
                self._version += 1
                if owners is not None:
                    self._forget(owners, mortgaged)
        return self._after(cmd, events)

    def _after(self, cmd: c.Command, events: Sequence[ev.Event]) -> Sequence[ev.Event]:
        """After any command sent: count it, check the invariants if asked, then settle and auction."""
        self.result.commands += 1
        if self.check_invariants:
            problems = self._watch.check(self.state, events)  # only what the events touched, again
            if problems:
                self._broken(cmd, problems)
        phase = self.state.phase
        if phase != "play":
            self.unwind(phase)
        return events

    def _broken(self, cmd: c.Command, problems: list[str]) -> None:
        """Each invariant broken after ``cmd`` is a violation of the run."""
        r = self.result
        r.violations.extend(f"seed {self.seed} command {r.commands} {cmd!r}: {p}" for p in problems)

    def unwind(self, phase: str) -> None:
        """After a command that left the game in ``phase`` (not play): stop at game over, settle the debts
        and run the auctions it opened (unless already settling one: no nested settling)."""
        if phase == "over":
            raise GameOver
        if self._busy:
            return
        self._busy = True
        try:
            while phase in ("debt", "auction"):
                if phase == "debt":
                    self._settle_debts()
                else:
                    self._auction()
                phase = self.state.phase  # (a command that ends the game raises GameOver as it is sent)
        finally:
            self._busy = False

    def _forget(self, owners: dict[int, str], mortgaged: frozenset[int]) -> None:
        """Drop the kept holdings (``_held``) of every player a deed passed from or to, or whose deed was
        mortgaged or lifted, since ``owners`` and ``mortgaged`` (the owners and mortgages before)."""
        held, s = self._held, self.state
        now = s.owner
        if now != owners:
            for _, p in now.items() ^ owners.items():  # (deed, owner) pairs on one side only
                held.pop(p, None)
        if s.mortgaged != mortgaged:
            for d in s.mortgaged ^ mortgaged:
                p2 = owners.get(d)
                if p2 is not None:
                    held.pop(p2, None)
                q2 = now.get(d)
                if q2 is not None:
                    held.pop(q2, None)

    def _go_to_jail(self, player: str) -> None:
        self._moved(self.send(command(c.GoToJail, player)))

    def _moved(self, events: Sequence[Any]) -> None:
        for e in events:
            kind = type(e)
            if kind is TOKEN_MOVED or kind is TOKEN_MOVED_LIGHT:
                self.positions[e.player] = e.position

    def _settle_debts(self) -> None:
        s = self.state
        if s.phase == "debt":
            debt = s.debts[0]
            debtor = debt.debtor
            if s.ledger.balances[debtor] >= debt.amount:
                self.send(command(cc.SettleDebt, debtor))
                return
            bot = self.bots[debtor]
            by_deeds = s.options.pay_debt_with_deeds and debt.creditor in self.bots
            # without a building raise_money only mortgages, which a deed payment the creditor takes comes
            # before: it is asked only if none is taken
            later = by_deeds and not any(v and s.owner.get(d) == debtor for d, v in s.level.items())
            cmd = None if later else bot.raise_money(s, self.edition, self._legal)
            if by_deeds and type(cmd) is not cc.SellBuilding:
                offer = bot.deed_payment(s, self.edition, debt.amount)  # the creditor agrees
                if offer is not None and self.attempt(offer):  # sent if the table takes it (checked once)
                    return
                if later:
                    cmd = bot.raise_money(s, self.edition, self._legal)
            self.send(cmd if cmd is not None else command(cc.DeclareBankruptcy, debtor))

    def _legal(self, cmd: object) -> bool:
        """Whether the table would accept ``cmd`` now (its ``check`` is None)."""
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
            self.send(command(c.CloseAuction))
