"""The classic invariants after every command, re-checking only what the command's events can have touched.

``check_invariants`` after each command of a bot game costs several times the command itself, and most
commands (a rent, a salary, the end of a turn) change only money, the turn and the jail. The fold
(fold.py) decides what each event changes; :data:`QUIET` lists the events whose fold leaves the holdings
(owners, buildings, mortgages, lots, players and bankruptcies) and the decks alone, :data:`DECKS_ONLY`
those that change the decks or the jail cards but no holding, :data:`LEVEL_ONLY` those that change only
the buildings of one deed: after them, when the buildings were in order before, only the Bank's supply
and the touched deeds' colour sets are looked at (``buildings_clean``); anything found checks it all. After a command whose events are all quiet,
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
)
from engine.rulesets.classic.state import ClassicState
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


def _with_light(classes: Iterable[type]) -> frozenset[Any]:
    """The classes and their light twins (the lean table's events, table.py)."""
    return frozenset({*classes, *(light(cls) for cls in classes)})


QUIET: Final = _with_light(_QUIET_EVENTS)
"""Events whose fold changes neither the holdings nor the decks and jail cards."""
DECKS_ONLY: Final = _with_light(_DECKS_ONLY_EVENTS)
"""Events whose fold changes the decks or the jail cards, but no holding."""
LEVEL_ONLY: Final = _with_light(_LEVEL_EVENTS)
"""Events whose fold changes the buildings of their ``deed`` (and money), no other holding and no deck."""


class InvariantWatch:
    """``check(state, events)``: ``check_invariants(state, edition)`` after a command that emitted ``events``
    (the watch must see every command of the game, from its start)."""

    __slots__ = ("_decks", "_holdings", "edition")

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self._holdings: Holdings | None = None
        self._decks: list[str] | None = None

    def check(self, s: ClassicState, events: Iterable[Any]) -> list[str]:
        """The broken invariants of ``s`` (as ``check_invariants``), ``events`` those of the last command."""
        holdings, decks = self._holdings, self._decks
        quiet, decks_only, level_only = QUIET, DECKS_ONLY, LEVEL_ONLY
        built: list[Any] = []  # deeds whose buildings changed
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
            holdings = decks = None
            break
        if s.phase == "setup":
            holdings = decks = None
        ed = self.edition
        if built and holdings is not None and (holdings[1] or not buildings_clean(s, ed, built)):
            holdings = None  # found something before or now: everything again, for the full sentences
        if holdings is None:
            holdings = self._holdings = holdings_problems(s, ed)
        if decks is None:
            decks = self._decks = deck_problems(s, ed)
        return check_invariants(s, ed, holdings, decks)
