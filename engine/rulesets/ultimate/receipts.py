"""Receipts of Ultimate Banking: how each amount its events record was reached (engine/receipts.py).

Made from the state before the event and the other events of its command (the event card that
paid or charged); amounts in money units; sources as docs/rules.md names them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import events as ev
from engine.editions import Edition
from engine.receipts import Receipt, shared_receipt
from engine.rulesets.ultimate import events as uev
from engine.rulesets.ultimate.state import GameState


def rent_receipt(s: GameState, ed: Edition, deed: int) -> Receipt:
    """The rent of ``deed`` now: the rent printed for its level, or level 1's during ON THE RUN."""
    level = s.level.get(deed, 1)
    rents = ed.deeds[deed].rents
    if s.on_the_run > 0:
        return Receipt("rent_on_the_run", "rules.md 1.9, 1.11 (event 22)", rents[0], (("level", level), ("rent", rents[0])))
    return Receipt("rent_level", "rules.md 1.9", rents[level - 1], (("level", level), ("rent", rents[level - 1])))


def _card(ed: Edition, command: Sequence[Any], seq: int) -> Any:
    """The event card resolved or drawn before event ``seq`` in its command (None if none)."""
    for e in reversed([e for e in command if e.seq < seq]):
        if isinstance(e, uev.EventResolved | uev.EventDrawn):
            return ed.card(e.card)
    return None


def receipt(s: GameState, ed: Edition, event: Any, command: Sequence[Any] = ()) -> Receipt | None:
    """The receipt of ``event`` from the state ``s`` before it; None for an event that moves no money."""
    if isinstance(event, ev.RentPaid):
        return rent_receipt(s, ed, event.deed)
    if isinstance(event, uev.LocationUsed):
        return Receipt("location", "rules.md 1.10", s.options.location_fee, (("fee", s.options.location_fee),))
    if isinstance(event, uev.DeedReturned):
        price = ed.deeds[event.deed].price
        return Receipt("returned", "rules.md 1.15", price, (("price", price),))
    if isinstance(event, ev.MoneyTransferred):
        if event.reason == "jail_fee":
            return Receipt("jail_fee", "rules.md 1.12", s.options.jail_fee, (("fee", s.options.jail_fee),))
        card = _card(ed, command, event.seq)
        if event.reason == "event_bonus":
            printed = card.amount if card is not None else event.amount
            return Receipt("card", "rules.md 1.11", printed, (("printed", printed),))
        if event.reason == "highway_tax":
            owned = sum(1 for o in s.owner.values() if o == event.payer)
            per = card.amount if card is not None else event.amount // max(1, owned)
            return Receipt("highway_tax", "rules.md 1.11", per * owned, (("per_deed", per), ("count", owned)))
        return None
    return shared_receipt(s, event, command)
