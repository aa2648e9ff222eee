"""The classic game's state: small dicts and tuples of immutable values, changed only by the fold (fold.py).

Money lives in the ledger (engine/ledger.py); the Free Parking pot is not a ledger account: money paid
into it is posted to the Bank and counted in ``pot``, so the books stay those of the ledger and the Bank's
own holdings are ``bank_position - pot``. A street's ``level`` is its buildings (1..4 houses, 5 a hotel;
absent = none); the Bank's supply of houses and hotels is what the levels do not use. Amounts are ``int``
in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine.commands import PlayerSpec
from engine.editions import Edition
from engine.events import Standing
from engine.ledger import Ledger
from engine.rulesets.classic.options import Options
from engine.state import DebtState, DeedState, PlayerState, players_of, snapshot_of

PHASES: Final = ("setup", "play", "auction", "debt", "place", "over")
"""``auction``: a deed or a building under the hammer; ``debt``: a debtor raising money; ``place``: the
winner of a building auction places it; the others as in engine/state.py."""
POT: Final = "pot"
"""The Free Parking pot as a payer or payee in ``MoneyTransferred`` and debts."""
HOTEL: Final = 5
_DEFAULTS: Final = Options()
"""The options of a state before ``StartGame`` (frozen values: every new state shares them, as the
simulator makes a state per game)."""


@dataclass(frozen=True, slots=True)
class Lot:
    """The running auction: ``deed`` (0 for a building) or ``kind`` ``"house"``/``"hotel"``; bids in money units."""

    deed: int
    kind: str
    bidders: tuple[str, ...]
    high_bid: int = 0
    high_bidder: str | None = None


@dataclass(frozen=True, slots=True)
class Offer:
    """The open trade offer (``give_*`` from ``player`` to ``partner``, ``take_*`` back; cash in money units)."""

    player: str
    partner: str
    give_deeds: tuple[int, ...]
    give_cash: int
    give_cards: tuple[int, ...]
    take_deeds: tuple[int, ...]
    take_cash: int
    take_cards: tuple[int, ...]


_SLOTS: Final = (
    "auction", "bankrupt", "card_rent", "chance", "chest", "credit", "debts", "edition", "edition_id",
    "fresh", "held", "jail", "ledger", "level", "lots", "marks", "minute", "mortgaged", "options", "order", "out",
    "owner", "phase", "position", "pot", "roll", "seed", "specs", "standings_final", "trade", "turn",
)
"""The state's attribute names (a module constant, so that mypyc can compile the copy loops)."""


class ClassicState:
    """Everything the classic rules need. Mutated only by the fold; compare with ``==`` (snapshot)."""

    __slots__ = _SLOTS

    def __init__(self, edition: Edition) -> None:
        self.edition = edition  # immutable, shared by copies; not part of the snapshot (edition_id is)
        self.phase = "setup"
        self.edition_id = ""
        self.options = _DEFAULTS
        self.order: tuple[str, ...] = ()
        self.specs: dict[str, PlayerSpec] = {}
        self.ledger = Ledger()
        self.pot = 0  # money units in the Free Parking pot (held by the Bank)
        self.owner: dict[int, str] = {}
        self.level: dict[int, int] = {}  # street -> buildings (1..4 houses, 5 hotel); absent = none
        self.mortgaged: frozenset[int] = frozenset()
        self.jail: dict[str, int] = {}  # player -> failed rolls so far
        self.bankrupt: frozenset[str] = frozenset()
        self.out: tuple[str, ...] = ()  # bankrupt players, first out first
        self.chance: tuple[int, ...] = ()  # card ids, top first
        self.chest: tuple[int, ...] = ()
        self.held: dict[int, str] = {}  # jail card id -> the player holding it
        self.auction: Lot | None = None
        self.lots: tuple[int, ...] = ()  # seized deeds still to be auctioned
        self.debts: tuple[DebtState, ...] = ()  # the head is being raised
        self.trade: Offer | None = None
        self.card_rent: tuple[str, int, str] | None = None  # (player, deed, "double" | "tenfold")
        self.fresh: frozenset[int] = frozenset()  # deeds whose transfer fee was paid this turn
        self.credit: tuple[str, str, int] | None = None  # (player, kind, amount) of a won building
        self.minute = 0
        self.turn: str | None = None
        self.standings_final: tuple[Standing, ...] = ()
        self.seed = 0
        # the unit keeps the tokens (option ``positions``): player -> board position 0..39 (absent: GO),
        # replaced as a whole when a token moves, so copies share it safely
        self.position: dict[str, int] = {}
        # (player, doubles in a row, rolls again) of the last roll; None before any or after End turn
        self.roll: tuple[str, int, bool] | None = None
        # what the turn's player did that the second text's limits count ("rolled", "built:COLOUR"); emptied
        # at the end of the turn
        self.marks: frozenset[str] = frozenset()

    def copy(self) -> ClassicState:
        """An independent copy: shallow copies of the dicts (their values are immutable)."""
        c = _blank(self.edition)  # every slot is set below
        c.auction = self.auction
        c.bankrupt = self.bankrupt
        c.card_rent = self.card_rent
        c.chance = self.chance
        c.chest = self.chest
        c.credit = self.credit
        c.debts = self.debts
        c.edition = self.edition
        c.edition_id = self.edition_id
        c.fresh = self.fresh
        c.lots = self.lots
        c.marks = self.marks
        c.minute = self.minute
        c.mortgaged = self.mortgaged
        c.options = self.options
        c.order = self.order
        c.out = self.out
        c.phase = self.phase
        c.position = self.position
        c.pot = self.pot
        c.roll = self.roll
        c.seed = self.seed
        c.specs = self.specs
        c.standings_final = self.standings_final
        c.trade = self.trade
        c.turn = self.turn
        ledger = self.ledger
        c.ledger = Ledger(ledger.balances.copy(), ledger.issued, ledger.bank_position)
        c.owner = self.owner.copy()
        c.level = self.level.copy()
        c.jail = self.jail.copy()
        c.held = self.held.copy()
        return c

    def assign(self, other: ClassicState) -> None:
        """Become ``other`` in place (undo), so a reference to the live state stays live."""
        for name in _SLOTS:
            setattr(self, name, getattr(other, name))

    # -- read-only views -------------------------------------------------------------------------
    @property
    def debt(self) -> DebtState | None:
        """The debt being raised (the head of the queue), or None."""
        return self.debts[0] if self.debts else None

    def balance(self, player: str) -> int:
        """``player``'s cash in money units."""
        return self.ledger.balances[player]

    def deeds_of(self, player: str) -> tuple[int, ...]:
        """Deed numbers owned by ``player``, ascending."""
        return tuple(sorted(d for d, o in self.owner.items() if o == player))

    def cards_of(self, player: str) -> tuple[int, ...]:
        """Jail card ids ``player`` holds, ascending."""
        return tuple(sorted(c for c, p in self.held.items() if p == player))

    def active_players(self) -> tuple[str, ...]:
        """Players not bankrupt, in turn order."""
        return tuple(p for p in self.order if p not in self.bankrupt)

    def buildings_used(self) -> tuple[int, int]:
        """The houses and the hotels standing on the board, counted in one pass (a hotel holds no house)."""
        houses = hotels = 0
        for v in self.level.values():
            if v == HOTEL:
                hotels += 1
            elif v < HOTEL:
                houses += v
        return houses, hotels

    def houses_used(self) -> int:
        """Houses standing on the board (a hotel holds none)."""
        return self.buildings_used()[0]

    def hotels_used(self) -> int:
        """Hotels standing on the board."""
        return self.buildings_used()[1]

    @property
    def players(self) -> dict[str, PlayerState]:
        """Player id -> :class:`PlayerState` (built on demand; engine/state.py)."""
        return players_of(self)

    @property
    def deeds(self) -> dict[int, DeedState]:
        """Deed number -> :class:`DeedState`; ``level`` is the buildings (0..5) of an owned deed."""
        return {d: DeedState(d, self.owner.get(d), self.level.get(d, 0) if d in self.owner else None)
                for d in self.edition.deeds}

    def standings(self) -> tuple[Standing, ...]:
        """Players best first (engine/rulesets/classic/standings.py); after the end, the recorded ones."""
        if self.standings_final:
            return self.standings_final
        from engine.rulesets.classic.standings import compute_standings

        return compute_standings(self)

    def snapshot(self) -> dict[str, object]:
        """The whole state as plain data (for equality, tests and display): engine/state.py's shape, with the
        classic game's own fields."""
        return snapshot_of(
            self, pot=self.pot, mortgaged=sorted(self.mortgaged), out=self.out, chance=self.chance,
            chest=self.chest, held=dict(sorted(self.held.items())), auction=self.auction, lots=self.lots,
            debts=self.debts, trade=self.trade, card_rent=self.card_rent, fresh=sorted(self.fresh),
            credit=self.credit, minute=self.minute, marks=sorted(self.marks))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClassicState):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]


def _blank_maker() -> Callable[[Edition], ClassicState]:
    """What :meth:`ClassicState.copy` starts from: a state without ``__init__`` (it would build a whole blank
    state, Options and all, only to be overwritten), or, compiled by mypyc (whose classes refuse
    ``object.__new__``), a plain new state."""
    try:
        object.__new__(ClassicState)
    except TypeError:
        return ClassicState
    return lambda edition: object.__new__(ClassicState)


_blank: Final[Callable[[Edition], ClassicState]] = _blank_maker()
