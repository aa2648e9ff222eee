"""The Ultimate Banking state; its fold (engine/rulesets/ultimate/fold.py, ``apply_event``) is the only way
it changes.

``GameState`` keeps small dicts of immutable values (balances, owners, levels, jail tries), so a copy for
undo is a handful of shallow dict copies. Read-only views (``players``, ``deeds``) are built on demand.
Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.commands import PlayerSpec
from engine.editions import Edition
from engine.events import Standing
from engine.ledger import Ledger
from engine.rulesets.ultimate.options import Options
from engine.state import AuctionState, DebtState, DeedState, PlayerState, players_of, snapshot_of

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
        "position",
        "roll",
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
        # the unit keeps the tokens (option ``positions``; the simulator's are its own): player -> board
        # position 0..35, replaced as a whole when a token moves, so copies share it safely
        self.position: dict[str, int] = {}
        # (player, doubles in a row, rolls again) of the turn's last roll; None before the turn's first roll
        self.roll: tuple[str, int, bool] | None = None

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
        c.position = self.position
        c.roll = self.roll
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
        """Player id -> :class:`PlayerState` (built on demand; engine/state.py)."""
        return players_of(self)

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
        """The whole state as plain data (for equality, tests and display): engine/state.py's shape, with
        Ultimate Banking's own fields."""
        return snapshot_of(
            self, jail_rolled=self.jail_rolled, landing=self.landing, bonus_done=sorted(self.bonus_done),
            deck=self.deck, auction=self.auction, pending=self.pending, debt=self.debt, on_the_run=self.on_the_run)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]
