"""Corrections: the banker fixes a mistake at the table, journaled as its own command and event.

Every ruleset accepts them (its rule table includes :data:`CORRECTION_RULES`; its fold moves the money
through the ledger and the deed as its state keeps deeds). A correction moves ``amount`` money units
between a player and the Bank or between two players (:class:`~engine.commands.CorrectMoney`), or gives a
deed to another player or back to the Bank (:class:`~engine.commands.CorrectDeed`), always with a reason
shown in the game's history and export. It is undone like any command. The banker puts it behind the PIN.
"""

from __future__ import annotations

from typing import Any

from engine import events as ev
from engine.commands import CorrectDeed, CorrectMoney
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK

MAX_REASON = 80  # characters of a correction's reason


def _party(s: Any, who: object, what: str, role: str) -> Refusal | None:
    if who == BANK:
        return None
    if not isinstance(who, str) or who not in s.specs or who in s.bankrupt:
        return refuse("bad_correction", f"{what}: the {role} must be the Bank or an active player, got {who!r}",
                      command=what, problem=f"{role}={who!r}")
    return None


def _reason(reason: object, what: str) -> Refusal | None:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON or not reason.isprintable():
        return refuse("bad_correction", f"{what}: expected a reason of 1..{MAX_REASON} printable characters, "
                      f"got {reason!r}", command=what, problem="reason")
    return None


def check_money(s: Any, ed: Edition, cmd: CorrectMoney) -> Refusal | None:
    """CorrectMoney: two different parties, a positive whole amount the payer has (the Bank always has)."""
    what = "CorrectMoney"
    reason = _party(s, cmd.payer, what, "payer") or _party(s, cmd.payee, what, "payee") or _reason(cmd.reason, what)
    if reason:
        return reason
    if cmd.payer == cmd.payee:
        return refuse("bad_correction", f"{what}: payer and payee are both {cmd.payer}", command=what,
                      problem="same party")
    if isinstance(cmd.amount, bool) or not isinstance(cmd.amount, int) or cmd.amount <= 0:
        return refuse("bad_correction", f"{what}: expected a whole amount > 0, got {cmd.amount!r}", command=what,
                      problem=f"amount={cmd.amount!r}")
    if cmd.payer != BANK and s.ledger.balances[cmd.payer] < cmd.amount:
        cash = s.ledger.balances[cmd.payer]
        return refuse("bad_correction", f"{what}: {cmd.payer} has {cash}, less than {cmd.amount}", command=what,
                      problem=f"cash={cash}")
    return None


def do_money(t: Any, cmd: CorrectMoney) -> None:
    """Move the money."""
    t.emit(ev.MoneyCorrected, cmd.payer, cmd.payee, cmd.amount, cmd.reason.strip())


def check_deed(s: Any, ed: Edition, cmd: CorrectDeed) -> Refusal | None:
    """CorrectDeed: a deed of the edition going to someone other than who holds it now."""
    what = "CorrectDeed"
    if isinstance(cmd.deed, bool) or not isinstance(cmd.deed, int) or cmd.deed not in ed.deeds:
        return refuse("bad_correction", f"{what}: unknown deed {cmd.deed!r}", command=what, problem=f"deed={cmd.deed!r}")
    reason = _party(s, cmd.to, what, "receiver") or _reason(cmd.reason, what)
    if reason:
        return reason
    if s.owner.get(cmd.deed, BANK) == cmd.to:
        return refuse("bad_correction", f"{what}: deed {cmd.deed} is already {cmd.to}'s", command=what,
                      problem="same owner")
    return None


def do_deed(t: Any, cmd: CorrectDeed) -> None:
    """Give the deed."""
    t.emit(ev.DeedCorrected, cmd.deed, t.state.owner.get(cmd.deed, BANK), cmd.to, cmd.reason.strip())


CORRECTION_RULES: dict[type, tuple[Any, Any]] = {
    CorrectMoney: (check_money, do_money),
    CorrectDeed: (check_deed, do_deed),
}
"""The corrections' rules, for a ruleset's rule table."""
