"""Final standings of a classic game (docs/rules-classic.md 9).

Players still in the game come first, richest first by the worth the seeds define for the short and the
time-limited game (seed 000): cash, printed prices of deeds, mortgaged deeds at their mortgage value, and
buildings at cost, a hotel with the houses it needed; a tie goes to the most expensive deed. Bankrupt
players follow, the last one out first. Amounts in money units.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Protocol

from engine.editions import Edition
from engine.events import Standing
from engine.ledger import Ledger
from engine.rulesets.classic.options import Options

HOTEL: Final = 5  # the level of a hotel (engine/rulesets/classic/state.py)


class Holdings(Protocol):
    """What the standings read of a classic state (engine/rulesets/classic/state.py's ``ClassicState``,
    which calls :func:`compute_standings`: typed here by what it reads, so the two modules make no circle)."""

    @property
    def edition(self) -> Edition: ...
    @property
    def options(self) -> Options: ...
    @property
    def ledger(self) -> Ledger: ...
    @property
    def owner(self) -> Mapping[int, str]: ...
    @property
    def level(self) -> Mapping[int, int]: ...
    @property
    def mortgaged(self) -> frozenset[int]: ...
    @property
    def order(self) -> tuple[str, ...]: ...
    @property
    def bankrupt(self) -> frozenset[str]: ...
    @property
    def out(self) -> tuple[str, ...]: ...


def building_value(s: Holdings, ed: Edition, deed: int) -> int:
    """What the buildings on ``deed`` cost, in money units (a hotel counts with the houses it needed)."""
    level = s.level.get(deed, 0)
    houses = s.options.houses_per_hotel + 1 if level == HOTEL else level
    return houses * ed.deeds[deed].house_cost


def worth(s: Holdings, ed: Edition, player: str, *, mortgaged_at_half: bool) -> int:
    """Cash + deeds + buildings at cost, in money units. Income Tax counts every deed at its printed price
    (seed 001); the standings count a mortgaged deed at its mortgage value (seed 000, the short game)."""
    total = s.ledger.balances[player]
    for deed, owner in s.owner.items():
        if owner == player:
            d = ed.deeds[deed]
            total += d.mortgage if mortgaged_at_half and deed in s.mortgaged else d.price
            total += building_value(s, ed, deed)
    return total




def compute_standings(s: Holdings) -> tuple[Standing, ...]:
    """The standings of ``s`` now, best first (ranks shared on a full tie)."""
    ed = s.edition
    rows: list[tuple[int, int, str, int]] = []
    for p in s.order:
        if p in s.bankrupt:
            continue
        total = worth(s, ed, p, mortgaged_at_half=True)
        top = max((ed.deeds[d].price for d, o in s.owner.items() if o == p), default=0)
        rows.append((total, top, p, s.ledger.balances[p]))
    rows.sort(key=lambda r: (-r[0], -r[1], s.order.index(r[2])))
    out: list[Standing] = []
    for i, (total, top, p, cash) in enumerate(rows):
        rank = out[-1].rank if out and (out[-1].total, out[-1].top_deed) == (total, top) else i + 1
        out.append(Standing(rank, p, cash, total - cash, total, top))
    for p in reversed(s.out):
        out.append(Standing(len(out) + 1, p, 0, 0, 0, 0))
    return tuple(out)
