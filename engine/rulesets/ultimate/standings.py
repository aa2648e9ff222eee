"""Final standings (docs/rules.md 1.6, 6.2): cash + printed prices of owned deeds, ties by the most expensive deed.

Players equal on both totals share a rank; within a shared rank they keep registration order. Bankrupt
players own nothing and have no cash, so they rank last (together if several).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.editions import Edition
from engine.events import Standing


def compute_standings(edition: Edition, order: tuple[str, ...], balances: Mapping[str, int],
                      owner: Mapping[int, str]) -> tuple[Standing, ...]:
    """Standings, best first. ``balances`` in money units by player; ``owner`` deed number -> player."""
    prices: dict[str, list[int]] = {p: [] for p in order}
    for deed, player in owner.items():
        prices[player].append(edition.deeds[deed].price)
    rows = [(balances[p] + sum(prices[p]), max(prices[p], default=0), i, p) for i, p in enumerate(order)]
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    out: list[Standing] = []
    for i, (total, top, _, p) in enumerate(rows):
        same = bool(out) and (out[-1].total, out[-1].top_deed) == (total, top)
        rank = out[-1].rank if same else i + 1
        out.append(Standing(rank, p, balances[p], total - balances[p], total, top))
    return tuple(out)
