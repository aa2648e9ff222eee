"""What every classic rule module shares: the table a rule acts on, the common checks, rent and worth.

The checks of a player, a deed, the phase and the turn, and the turn order, are both rulesets'
(engine/rulesets/api.py, engine/turns.py), named here for the classic rules.

A rule is a pair: ``check_x(state, edition, cmd) -> Refusal | None`` (nothing changes) and
``do_x(table, cmd)`` (emits events, folded at once). Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from engine import events as ev
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets import api
from engine.rulesets.api import check_deed as check_deed
from engine.rulesets.api import check_phase as check_phase
from engine.rulesets.api import check_player as check_player
from engine.rulesets.classic.standings import compute_standings
from engine.rulesets.classic.state import POT, ClassicState
from engine.turns import check_turn as check_turn
from engine.turns import next_active as next_active

MORTGAGE_INTEREST: Final = 10  # percent added when a mortgage is lifted (docs/rules.md 3.1; no option)

Table: TypeAlias = api.Table[ClassicState]
"""The game as a classic rule sees it (engine/rulesets/api.py)."""


def check_owner(s: ClassicState, ed: Edition, player: str, deed: object, what: str) -> Refusal | None:
    """Refusal unless ``deed`` is a deed ``player`` owns."""
    reason = check_deed(ed, deed, what)
    if reason:
        return reason
    owner = s.owner.get(deed)  # type: ignore[call-overload]
    if owner != player:
        return refuse("deed_not_yours", f"{what}: deed {deed} belongs to {owner or 'the Bank'}, not {player}",
                      command=what, deed=deed, player=player, owner=owner or BANK)
    return None


def owns_set(s: ClassicState, ed: Edition, deed: int) -> bool:
    """Whether the owner of ``deed`` holds every deed of its colour set."""
    owners = s.owner
    owner = owners.get(deed)
    if owner is None:
        return False
    for d in ed.colour_sets[ed.deeds[deed].colour]:  # noqa: SIM110 (a loop, not all(...): rent's hot path)
        if owners.get(d) != owner:
            return False
    return True


def rent_for(s: ClassicState, ed: Edition, deed: int, dice: int = 0) -> int:
    """Rent in money units a visitor owes for ``deed`` now (``dice``: the roll, for a utility), before any
    card's rule and any late-game tax; 0 for an unowned or mortgaged deed."""
    owners, mortgaged = s.owner, s.mortgaged
    owner = owners.get(deed)
    if owner is None or deed in mortgaged:
        return 0
    d = ed.deeds[deed]
    if d.kind == "street":
        level = s.level.get(deed, 0)
        if level:
            return d.rents[level]
        if not owns_set(s, ed, deed):
            return d.rents[0]
        if mortgaged and not s.options.mortgaged_set_double_rent and not mortgaged.isdisjoint(
                ed.colour_sets[d.colour]):
            return d.rents[0]  # seed 000 l. 31, seed 002 l. 34: no double rent while a lot of the set is mortgaged
        return d.rents[0] * 2
    count = 0
    for m in ed.colour_sets[d.colour]:
        if owners.get(m) == owner:
            count += 1
    if d.kind == "railroad":
        return d.rents[count - 1]
    return d.rents[count - 1] * dice


def in_debt(s: ClassicState, player: str) -> bool:
    """Whether ``player`` has a debt queued (their further payments queue behind it)."""
    for d in s.debts:  # noqa: SIM110 (a loop, not any(...): every payment asks)
        if d.debtor == player:
            return True
    return False


def pay(t: Table, payer: str, payee: str, amount: int, reason: str) -> bool:
    """``payer`` pays ``amount`` to ``payee`` (a player, the Bank or the pot) now, or (short of cash, or
    already in debt) the amount is
    queued as a debt; True if paid at once."""
    s = t.state
    if amount <= 0:
        return True
    if s.ledger.balances[payer] >= amount and not in_debt(s, payer):
        t.emit(ev.MoneyTransferred, payer, payee, amount, reason)
        return True
    t.emit(ev.DebtOpened, payer, payee, amount, reason)
    return False


def charge(t: Table, player: str, amount: int, reason: str) -> bool:
    """A tax, fine or card payment to the Bank, or to the Free Parking pot with ``free_parking_jackpot``."""
    return pay(t, player, POT if t.state.options.free_parking_jackpot else BANK, amount, reason)


def is_over(s: ClassicState) -> bool:
    """Whether the game has ended by its bankruptcies: one player left, or the short game's second."""
    left = len(s.order) - len(s.bankrupt)
    return left <= 1 or (s.options.short_game and len(s.bankrupt) >= 2)


def end_if_over(t: Table) -> bool:
    """End the game when one player is left (or at the second bankruptcy of the short game)."""
    if is_over(t.state):
        t.emit(ev.GameEnded, compute_standings(t.state))
        return True
    return False
