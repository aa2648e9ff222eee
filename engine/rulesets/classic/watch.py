"""The classic invariants after every command, re-checking only what the command's events can have touched.

``check_invariants`` after each command of a bot game costs several times the command itself, and most
commands (a rent, a salary, the end of a turn) change only money, the turn and the jail. The fold
(fold.py) decides what each event changes; :data:`QUIET` lists the events whose fold leaves the holdings
(owners, buildings, mortgages, lots, players and bankruptcies) and the decks alone, :data:`DECKS_ONLY`
those that change the decks or the jail cards but no holding, :data:`LEVEL_ONLY` those that change only
the buildings of one deed: after them, when the buildings were in order before, only the Bank's supply
and the touched deeds' colour sets are looked at (``buildings_clean``); :data:`OWNERS_ONLY` those that
change only the owners of the deeds they name (a purchase, an auction won, a debt paid in deeds): after
them, when the holdings were in order before, only those deeds and their colour sets (``owners_clean``);
anything found checks it all. After a command whose events are all quiet,
the previous results for those parts are still exactly right, so :class:`InvariantWatch` passes them to
``check_invariants`` instead of computing them again; anything else (an event not named here, a new
one included) checks everything. The answer is always exactly ``check_invariants(state, edition)``
(tests/engine/classic/test_classic_watch.py checks the lists against the fold on whole games).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from engine import events as ev
from engine.editions import Edition
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.invariants import (
    Holdings,
    buildings_clean,
    check_invariants,
    deck_problems,
    holdings_problems,
    owners_clean,
)
from engine.rulesets.classic.state import PHASES, ClassicState
from engine.rulesets.classic.table import light

_QUIET_EVENTS: Final[tuple[type, ...]] = (
    ev.SalaryPaid, ev.DeedDeclined, ev.BidPlaced, ev.AuctionEnded, ev.RentPaid, ev.RentWaived, ev.JailEntered,
    ev.JailRollFailed, ev.JailLeft, ev.MoneyTransferred, ev.DebtOpened, ev.DebtSettled, ev.TurnEnded,
    ev.TokenMoved, ev.DiceRolled, cev.CardRentSet, cev.MortgageFeePaid, cev.BuildingAuctionOpened,
    cev.BuildingAuctionWon, cev.BuildingAuctionEnded, cev.TradeProposed, cev.TradeCancelled, cev.TokenPlaced,
    cev.RollsReset,
)
_DECKS_ONLY_EVENTS: Final[tuple[type, ...]] = (cev.CardDrawn, cev.JailCardUsed)
_LEVEL_EVENTS: Final[tuple[type, ...]] = (cev.BuildingBought, cev.BuildingSold)
_OWNER_EVENTS: Final[tuple[type, ...]] = (ev.DeedBought, ev.AuctionWon)  # the deed in ``deed``
_OWNERS_EVENTS: Final[tuple[type, ...]] = (cev.DebtPaidInDeeds,)  # the deeds in ``deeds``


def _with_light(classes: Iterable[type]) -> frozenset[Any]:
    """The classes and their light twins (the lean table's events, table.py)."""
    return frozenset({*classes, *(light(cls) for cls in classes)})


QUIET: Final = _with_light(_QUIET_EVENTS)
"""Events whose fold changes neither the holdings nor the decks and jail cards."""
DECKS_ONLY: Final = _with_light(_DECKS_ONLY_EVENTS)
"""Events whose fold changes the decks or the jail cards, but no holding."""
LEVEL_ONLY: Final = _with_light(_LEVEL_EVENTS)
"""Events whose fold changes the buildings of their ``deed`` (and money), no other holding and no deck."""
OWNER_ONLY: Final = _with_light(_OWNER_EVENTS)
"""Events whose fold changes the owner of their ``deed`` (and money, the auction, the phase), no other
holding and no deck."""
OWNERS_ONLY: Final = _with_light(_OWNERS_EVENTS)
"""Events whose fold changes the owners of their ``deeds`` (and money, the debts, the phase), no other
holding and no deck."""


def healthy(s: ClassicState, holdings: Holdings, decks: list[str], players: set[str]) -> bool:
    """Whether ``check_invariants(s, ed, holdings, decks)`` finds nothing (True only if each of its
    clauses would add no sentence; then the list is not built): ``players`` is ``set(s.order)``."""
    phase = s.phase
    if phase == "setup" or phase not in PHASES or decks or holdings[0] or holdings[1] or holdings[2] \
            or holdings[3]:
        return False
    ledger = s.ledger
    balances = ledger.balances
    total = 0
    for v in balances.values():
        if v < 0:
            return False
        total += v
    if ledger.issued != total + ledger.bank_position or balances.keys() != players:
        return False
    over = phase == "over"
    if over and not s.standings_final:
        return False
    turn = s.turn
    if turn is not None and (turn not in s.specs or (turn in s.bankrupt and not over)):
        return False
    if not 0 <= s.pot <= ledger.bank_position or (s.auction is not None) != (phase == "auction") \
            or bool(s.debts) != (phase == "debt") or (s.credit is not None) != (phase == "place"):
        return False
    if s.jail:
        specs, bankrupt, most = s.specs, s.bankrupt, s.options.jail_max_turns
        for p, tries in s.jail.items():
            if p not in specs or p in bankrupt or not 0 <= tries < most:
                return False
    for debt in s.debts:  # noqa: SIM110 (a loop, as the others)
        if debt.debtor in s.bankrupt or debt.amount <= 0:
            return False
    return True


class InvariantWatch:
    """``check(state, events)``: ``check_invariants(state, edition)`` after a command that emitted ``events``
    (the watch must see every command of the game, from its start)."""

    __slots__ = ("_decks", "_holdings", "_order", "_players", "edition")

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self._holdings: Holdings | None = None
        self._decks: list[str] | None = None
        self._order: tuple[str, ...] = ()
        self._players: set[str] = set()

    def check(self, s: ClassicState, events: Iterable[Any]) -> list[str]:
        """The broken invariants of ``s`` (as ``check_invariants``), ``events`` those of the last command."""
        holdings, decks = self._holdings, self._decks
        quiet, decks_only, level_only = QUIET, DECKS_ONLY, LEVEL_ONLY
        built: list[Any] = []  # deeds whose buildings changed
        owned: list[Any] = []  # deeds whose owner changed
        for e in events:
            kind = type(e)
            if kind in quiet:
                continue
            if kind in decks_only:
                decks = None
                continue
            if kind in level_only:
                built.append(e.deed)
                continue
            if kind in OWNER_ONLY:
                owned.append(e.deed)
                continue
            if kind in OWNERS_ONLY:
                owned.extend(e.deeds)
                continue
            holdings = decks = None
            break
        if s.phase == "setup":
            holdings = decks = None
        ed = self.edition
        if built and holdings is not None and (holdings[1] or not buildings_clean(s, ed, built)):
            holdings = None  # found something before or now: everything again, for the full sentences
        if owned and holdings is not None and (any(holdings) or not owners_clean(s, ed, owned)):
            holdings = None  # (as above)
        if holdings is None:
            holdings = self._holdings = holdings_problems(s, ed)
        if decks is None:
            decks = self._decks = deck_problems(s, ed)
        if s.order is not self._order:
            self._order, self._players = s.order, set(s.order)
        if healthy(s, holdings, decks, self._players):
            return []
        return check_invariants(s, ed, holdings, decks)
