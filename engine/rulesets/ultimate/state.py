"""The Ultimate Banking state and its fold: ``apply_event(state, event)`` is the only way state changes.

``GameState`` keeps small dicts of immutable values (balances, owners, levels, jail tries), so a copy for
undo is a handful of shallow dict copies. Read-only views (``players``, ``deeds``) are built on demand.
Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import events as ev
from engine.commands import PlayerSpec
from engine.editions import Edition
from engine.events import Standing
from engine.ledger import BANK, Ledger
from engine.rulesets.ultimate import events as uev
from engine.rulesets.ultimate.options import Options
from engine.state import AuctionState, DebtState, DeedState, PlayerState

PHASES = ("setup", "play", "auction", "event", "debt", "over")


@dataclass(frozen=True, slots=True)
class PendingEvent:
    """A drawn card waiting for ``player``'s choice; ``origin`` is the Event space (or None)."""

    player: str
    card: int
    origin: int | None


class GameState:
    """Everything the rules need. Mutated only by :func:`apply_event`; compare with ``==`` (snapshot)."""

    __slots__ = (
        "auction",
        "bankrupt",
        "bonus_done",
        "debt",
        "deck",
        "edition",
        "edition_id",
        "jail",
        "jail_rolled",
        "landing",
        "ledger",
        "level",
        "on_the_run",
        "options",
        "order",
        "owner",
        "pending",
        "phase",
        "seed",
        "specs",
        "standings_final",
        "turn",
    )

    def __init__(self, edition: Edition) -> None:
        self.edition = edition  # immutable, shared by copies; not part of the snapshot (edition_id is)
        self.phase = "setup"
        self.edition_id = ""
        self.options = Options()
        self.order: tuple[str, ...] = ()
        self.specs: dict[str, PlayerSpec] = {}
        self.ledger = Ledger()
        self.jail: dict[str, int] = {}  # player -> failed tries so far
        self.jail_rolled: str | None = None  # the player who already rolled for doubles this turn
        # (player, deed, command): the landing of the last command's jump (Location, a move card); resumable
        self.landing: tuple[str, int, int] | None = None
        self.bankrupt: frozenset[str] = frozenset()
        self.owner: dict[int, str] = {}
        self.level: dict[int, int] = {}
        self.bonus_done: frozenset[str] = frozenset()  # colours whose set bonus already fired
        self.deck: tuple[int, ...] = ()  # top first
        self.auction: AuctionState | None = None
        self.pending: PendingEvent | None = None
        self.debt: DebtState | None = None
        self.turn: str | None = None
        self.on_the_run = 0  # EndTurn commands left with level-1 rent
        self.standings_final: tuple[Standing, ...] = ()
        self.seed = 0

    def copy(self) -> GameState:
        """An independent copy: shallow copies of the small dicts (their values are immutable)."""
        c = GameState.__new__(GameState)
        c.edition = self.edition
        c.phase = self.phase
        c.edition_id = self.edition_id
        c.options = self.options
        c.order = self.order
        c.specs = self.specs  # never changed after GameStarted
        ledger = self.ledger
        c.ledger = Ledger(ledger.balances.copy(), ledger.issued, ledger.bank_position)
        c.jail = self.jail.copy()
        c.jail_rolled = self.jail_rolled
        c.landing = self.landing
        c.bankrupt = self.bankrupt
        c.owner = self.owner.copy()
        c.level = self.level.copy()
        c.bonus_done = self.bonus_done
        c.deck = self.deck
        c.auction = self.auction
        c.pending = self.pending
        c.debt = self.debt
        c.turn = self.turn
        c.on_the_run = self.on_the_run
        c.standings_final = self.standings_final
        c.seed = self.seed
        return c

    def assign(self, other: GameState) -> None:
        """Become ``other`` in place (used by undo, so a reference to the live state stays live).

        ``other`` must not be used afterwards: its dicts now belong to this state."""
        for name in GameState.__slots__:
            setattr(self, name, getattr(other, name))

    # -- read-only views -------------------------------------------------------------------------
    def balance(self, player: str) -> int:
        """``player``'s cash in money units."""
        return self.ledger.balances[player]

    def deeds_of(self, player: str) -> tuple[int, ...]:
        """Deed numbers owned by ``player``, ascending."""
        return tuple(sorted(d for d, o in self.owner.items() if o == player))

    def active_players(self) -> tuple[str, ...]:
        """Players not bankrupt, in turn order."""
        return tuple(p for p in self.order if p not in self.bankrupt)

    @property
    def players(self) -> dict[str, PlayerState]:
        """Player id -> :class:`PlayerState` (built on demand)."""
        return {
            p: PlayerState(p, s.name, s.token, self.ledger.balances[p], p in self.jail, self.jail.get(p, 0),
                           p in self.bankrupt, self.deeds_of(p))
            for p, s in self.specs.items()
        }

    @property
    def deeds(self) -> dict[int, DeedState]:
        """Deed number -> :class:`DeedState` for every deed of the edition (owner None = the Bank)."""
        return {d: DeedState(d, self.owner.get(d), self.level.get(d)) for d in self.edition.deeds}

    @property
    def pending_event(self) -> PendingEvent | None:
        """The card waiting for a choice (phase ``event``)."""
        return self.pending

    def rent_due(self, deed: int) -> int:
        """Rent in money units a visitor would pay for ``deed`` now (level-1 rent during ON THE RUN)."""
        level = self.level.get(deed)
        if level is None:
            return 0
        return self.edition.deeds[deed].rents[0 if self.on_the_run > 0 else level - 1]

    def wealth(self, player: str) -> int:
        """Cash + printed prices of owned deeds, in money units."""
        deeds = self.edition.deeds
        return self.ledger.balances[player] + sum(deeds[d].price for d, o in self.owner.items() if o == player)

    def standings(self) -> tuple[Standing, ...]:
        """Players best first by wealth, ties broken by the most expensive deed (engine/rulesets/ultimate/standings.py).

        After the game ended these are the standings recorded in ``GameEnded``."""
        if self.standings_final:
            return self.standings_final
        from engine.rulesets.ultimate.standings import compute_standings

        return compute_standings(self.edition, self.order, self.ledger.balances, self.owner, self.bankrupt)

    def snapshot(self) -> dict[str, object]:
        """The whole state as plain data (for equality, tests and display)."""
        return {
            "phase": self.phase, "edition": self.edition_id, "options": self.options.as_dict(),
            "order": self.order, "specs": {p: (s.name, s.token) for p, s in self.specs.items()},
            "ledger": self.ledger.snapshot(), "jail": dict(self.jail), "jail_rolled": self.jail_rolled,
            "landing": self.landing, "bankrupt": sorted(self.bankrupt),
            "owner": dict(sorted(self.owner.items())), "level": dict(sorted(self.level.items())),
            "bonus_done": sorted(self.bonus_done), "deck": self.deck, "auction": self.auction,
            "pending": self.pending, "debt": self.debt, "turn": self.turn, "on_the_run": self.on_the_run,
            "standings": self.standings_final, "seed": self.seed,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]


# -- the fold ----------------------------------------------------------------------------------------
# One function per event type, named after it; each changes exactly what its event says (amounts in money
# units move through the ledger). ``FOLD`` maps the event type to its function.
def _started(s: GameState, e: ev.GameStarted) -> None:
    s.phase = "play"
    s.edition_id = e.edition
    s.options = Options.from_mapping(e.options)
    s.order = tuple(p.id for p in e.players)
    s.specs = {p.id: p for p in e.players}
    s.seed = e.seed
    s.deck = e.deck
    s.turn = s.order[0]
    for p in s.order:
        s.ledger.open_account(p)
        s.ledger.transfer(BANK, p, s.options.start_money)


def _salary(s: GameState, e: ev.SalaryPaid) -> None:
    s.ledger.transfer(BANK, e.player, e.amount)


def _bought(s: GameState, e: ev.DeedBought) -> None:
    s.ledger.transfer(e.player, BANK, e.price)
    s.owner[e.deed] = e.player
    s.level[e.deed] = 1


def _nothing(s: GameState, e: object) -> None:
    return None


def _auction_opened(s: GameState, e: ev.AuctionOpened) -> None:
    s.phase = "auction"
    s.auction = AuctionState(e.deed, e.bidders)


def _bid(s: GameState, e: ev.BidPlaced) -> None:
    assert s.auction is not None
    s.auction = AuctionState(s.auction.deed, s.auction.bidders, e.amount, e.player)


def _auction_won(s: GameState, e: ev.AuctionWon) -> None:
    s.ledger.transfer(e.player, BANK, e.amount)
    s.owner[e.deed] = e.player
    s.level[e.deed] = 1
    s.auction = None
    s.phase = "play"


def _auction_ended(s: GameState, e: ev.AuctionEnded) -> None:
    s.auction = None
    s.phase = "play"


def _rent(s: GameState, e: ev.RentPaid) -> None:
    s.ledger.transfer(e.payer, e.owner, e.amount)


def _level(s: GameState, e: uev.LevelChanged) -> None:
    s.level[e.deed] = e.new


def _bonus(s: GameState, e: uev.ColourSetBonusApplied) -> None:
    s.bonus_done = s.bonus_done | {e.colour}


def _location(s: GameState, e: uev.LocationUsed) -> None:
    s.ledger.transfer(e.player, BANK, e.fee)
    s.landing = (e.player, e.deed, e.command)


def _jail_in(s: GameState, e: ev.JailEntered) -> None:
    s.jail[e.player] = 0


def _jail_fail(s: GameState, e: ev.JailRollFailed) -> None:
    s.jail[e.player] = e.tries
    s.jail_rolled = e.player


def _jail_out(s: GameState, e: ev.JailLeft) -> None:
    del s.jail[e.player]


def _money(s: GameState, e: ev.MoneyTransferred) -> None:
    s.ledger.transfer(e.payer, e.payee, e.amount)


def _drawn(s: GameState, e: uev.EventDrawn) -> None:
    deck = list(s.deck)
    deck.remove(e.card)
    deck.append(e.card)
    s.deck = tuple(deck)


def _awaiting(s: GameState, e: uev.ChoiceRequested) -> None:
    s.phase = "event"
    s.pending = PendingEvent(e.player, e.card, e.origin)


def _resolved(s: GameState, e: uev.EventResolved) -> None:
    s.pending = None
    s.phase = "play"
    card = next((c for c in s.edition.events if c.id == e.card), None)
    if card is not None and card.effect == "move_to_deed" and e.choice and type(e.choice[0]) is int:
        s.landing = (e.player, e.choice[0], e.command)


def _swapped(s: GameState, e: uev.DeedsSwapped) -> None:
    s.owner[e.deed] = e.other
    s.owner[e.other_deed] = e.player


def _on_the_run(s: GameState, e: uev.OnTheRunStarted) -> None:
    s.on_the_run = e.turns


def _debt(s: GameState, e: ev.DebtOpened) -> None:
    s.phase = "debt"
    s.debt = DebtState(e.debtor, e.creditor, e.amount, e.reason)


def _returned(s: GameState, e: uev.DeedReturned) -> None:
    s.ledger.transfer(BANK, e.player, e.price)
    del s.owner[e.deed]
    del s.level[e.deed]


def _settled(s: GameState, e: ev.DebtSettled) -> None:
    s.ledger.transfer(e.debtor, e.creditor, e.amount)
    s.debt = None
    s.phase = "play"


def _bankrupt(s: GameState, e: ev.PlayerBankrupt) -> None:
    s.ledger.transfer(e.player, e.creditor, e.paid)
    if e.covered:
        s.ledger.transfer(BANK, e.creditor, e.covered)
    s.bankrupt = s.bankrupt | {e.player}
    s.jail.pop(e.player, None)
    s.debt = None


def _ended(s: GameState, e: ev.GameEnded) -> None:
    s.phase = "over"
    s.standings_final = e.standings
    s.auction = None
    s.pending = None
    s.debt = None


def _turn(s: GameState, e: ev.TurnEnded) -> None:
    s.turn = e.next_player
    s.jail_rolled = None
    if s.on_the_run > 0:
        s.on_the_run -= 1


def _money_corrected(s: GameState, e: ev.MoneyCorrected) -> None:
    s.ledger.transfer(e.payer, e.payee, e.amount)


def _deed_corrected(s: GameState, e: ev.DeedCorrected) -> None:
    if e.to == BANK:
        del s.owner[e.deed]
        del s.level[e.deed]
    else:
        s.owner[e.deed] = e.to
        s.level.setdefault(e.deed, 1)  # from the Bank: level 1, as when bought; between players: kept


_FOLD: dict[type, Callable[[GameState, Any], None]] = {
    ev.GameStarted: _started, ev.SalaryPaid: _salary, ev.DeedBought: _bought, ev.DeedDeclined: _nothing,
    ev.AuctionOpened: _auction_opened, ev.BidPlaced: _bid, ev.AuctionWon: _auction_won,
    ev.AuctionEnded: _auction_ended, ev.RentPaid: _rent, ev.RentWaived: _nothing, uev.LevelChanged: _level,
    uev.ColourSetBonusApplied: _bonus, uev.LocationUsed: _location, ev.TokenMoved: _nothing,
    ev.JailEntered: _jail_in, ev.JailRollFailed: _jail_fail, ev.JailLeft: _jail_out, ev.MoneyTransferred: _money,
    uev.EventDrawn: _drawn, uev.ChoiceRequested: _awaiting, uev.EventResolved: _resolved,
    uev.DeedsSwapped: _swapped, uev.OnTheRunStarted: _on_the_run, ev.DebtOpened: _debt, uev.DeedReturned: _returned,
    ev.DebtSettled: _settled, ev.PlayerBankrupt: _bankrupt, ev.GameEnded: _ended, ev.TurnEnded: _turn,
    uev.OwnDeedVisited: _nothing,
    ev.MoneyCorrected: _money_corrected, ev.DeedCorrected: _deed_corrected,
}


def _with_landing(fold: Callable[[GameState, Any], None]) -> Callable[[GameState, Any], None]:
    """``fold``, after forgetting the landing of an earlier command's jump (resolved or left by now)."""

    def folded(s: GameState, e: Any) -> None:
        if s.landing is not None and e.command != s.landing[2]:
            s.landing = None
        fold(s, e)

    return folded


FOLD: dict[type, Callable[[GameState, Any], None]] = {t: _with_landing(f) for t, f in _FOLD.items()}


def apply_event(state: GameState, event: ev.Event) -> None:
    """Fold one event into ``state`` (``CommandUndone`` is folded by the game, which holds the history)."""
    FOLD[type(event)](state, event)
