"""``boardbank sim --plot FILE.png``: landing shares drawn on the board, and the game lengths.

Needs matplotlib (the optional ``plot`` extra; the kiosk does without). The board is drawn as its spaces
around a square, GO at the bottom right, each shaded by its share of all landings (In Jail counted apart
from Just Visiting, in the middle). Shares are percent of every roll's final square.
"""

from __future__ import annotations

from typing import Any

from engine.editions import Edition


def _cell(position: int, size: int) -> tuple[float, float]:
    """The (x, y) of a space on a square of ``size`` spaces, GO bottom right, going clockwise."""
    side = size // 4
    k, i = divmod(position, side)
    if k == 0:
        return float(side - i), 0.0
    if k == 1:
        return 0.0, float(i)
    if k == 2:
        return float(i), float(side)
    return float(side), float(side - i)


def plot_report(report: Any, edition: Edition, path: str) -> None:
    """Write the picture of ``report`` (an engine.sim.runner.SimReport) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    landings = list(report.landings)
    total = sum(landings) + report.in_jail or 1
    shares = [100.0 * n / total for n in landings]
    top = max([*shares, 100.0 * report.in_jail / total]) or 1.0
    fig, (board, lengths) = plt.subplots(1, 2, figsize=(15, 7.5))
    cmap = plt.get_cmap("YlOrRd")
    size = len(edition.spaces)
    for pos, share in enumerate(shares):
        x, y = _cell(pos, size)
        board.add_patch(plt.Rectangle((x, y), 1, 1, facecolor=cmap(share / top), edgecolor="black"))
        board.text(x + 0.5, y + 0.62, edition.spaces[pos].name[:14], ha="center", va="center", fontsize=5)
        board.text(x + 0.5, y + 0.3, f"{share:.2f}%", ha="center", va="center", fontsize=7)
    side = size // 4
    jail = 100.0 * report.in_jail / total
    board.add_patch(plt.Rectangle((side / 2 - 1, side / 2 - 0.5), 2, 1, facecolor=cmap(jail / top), edgecolor="black"))
    board.text(side / 2, side / 2, f"In Jail {jail:.2f}%", ha="center", va="center", fontsize=9)
    board.set_xlim(0, side + 1)
    board.set_ylim(0, side + 1)
    board.set_aspect("equal")
    board.axis("off")
    board.set_title(f"{edition.id}: share of landings ({report.games} games)")
    lengths.hist(report.game_turns, bins=50, color="steelblue")
    lengths.set_xlabel("turns per game")
    lengths.set_ylabel("games")
    lengths.set_title(f"game lengths ({report.capped} capped)" if report.ruleset == "classic" else "game lengths")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
