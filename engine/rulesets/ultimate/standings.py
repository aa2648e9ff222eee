"""Final standings (docs/rules.md 1.6, 6.2): cash + printed prices of owned deeds, ties by the most expensive deed.

Players equal on both totals share a rank; within a shared rank they keep registration order. A bankrupt
player ranks below every solvent one, even one with nothing left (together if several).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.editions import Edition
from engine.events import Standing


def compute_standings(edition: Edition, order: tuple[str, ...], balances: Mapping[str, int],
                      owner: Mapping[int, str], bankrupt: frozenset[str] = frozenset()) -> tuple[Standing, ...]:
    """Standings, best first. ``balances`` in money units by player; ``owner`` deed number -> player;
    ``bankrupt`` the players who went bankrupt (ranked after every solvent player)."""
    prices: dict[str, list[int]] = {p: [] for p in order}
    for deed, player in owner.items():
        prices[player].append(edition.deeds[deed].price)
    rows = [(p in bankrupt, balances[p] + sum(prices[p]), max(prices[p], default=0), i, p)
            for i, p in enumerate(order)]
    rows.sort(key=lambda r: (r[0], -r[1], -r[2], r[3]))
    out: list[Standing] = []
    last_bankrupt = False
    for i, (broke, total, top, _, p) in enumerate(rows):
        same = bool(out) and (last_bankrupt, out[-1].total, out[-1].top_deed) == (broke, total, top)
        last_bankrupt = broke
        rank = out[-1].rank if same else i + 1
        out.append(Standing(rank, p, balances[p], total - balances[p], total, top))
    return tuple(out)
