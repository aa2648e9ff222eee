"""The fold of the events of the seeds' remaining rules (docs/rules-classic.md 2, 13): the turn's marks, a
debt paid in deeds, the second text's free sale of a bankrupt's deeds, the dealt lots and a timeout. Each
function changes exactly what its event says (fold.py registers them). Amounts in money units."""

from __future__ import annotations

from typing import Any

from engine.rulesets.classic.edition import cards
from engine.rulesets.classic.state import ClassicState
from engine.state import DebtState


def fold_marked(s: ClassicState, e: Any) -> None:  # cev.TurnMarked
    s.marks = s.marks | {e.mark}


def fold_paid_in_deeds(s: ClassicState, e: Any) -> None:  # cev.DebtPaidInDeeds
    for d in e.deeds:
        s.owner[d] = e.creditor
    head = s.debts[0]
    left = head.amount - e.value
    if left > 0:
        s.debts = (DebtState(head.debtor, head.creditor, left, head.reason), *s.debts[1:])
    else:
        s.debts = s.debts[1:]
        if not s.debts:
            s.phase = "play"


def fold_released(s: ClassicState, e: Any) -> None:  # cev.AssetsReleased
    for d in e.deeds:
        del s.owner[d]
        s.level.pop(d, None)
    s.mortgaged = s.mortgaged - set(e.deeds)
    by_id = cards(s.edition)
    for c in e.cards:
        del s.held[c]
        if by_id[c].deck == "chance":
            s.chance = (*s.chance, c)
        else:
            s.chest = (*s.chest, c)


def fold_dealt(s: ClassicState, e: Any) -> None:  # cev.LotsDealt
    for d in e.deeds:
        s.owner[d] = e.player


def fold_timed_out(s: ClassicState, e: Any) -> None:  # cev.ActionTimedOut (what follows says what it cost)
    return None
