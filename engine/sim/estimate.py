"""The estimate of what an option set does to a game, within a time budget (the setup screen's house rules).

``estimate(edition, players, options, games=N)`` plays ``N`` paired games of the defaults and of ``options``
(engine/sim/compare.py); ``budget_s=S`` picks ``N`` so both arms fit in ``S`` seconds on one core of the
reference machine (:data:`GAMES_PER_SECOND`, measured by bench/bench_estimate.py), or, with an injected
``clock`` (seconds, e.g. ``time.perf_counter``), plays pairs until ``S`` seconds have passed: a slower unit
(a Raspberry Pi) or a slower variant then plays fewer games and says so in ``Estimate.games``. The engine
reads no clock of its own. The cache and the background worker live in ui/estimates.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.editions import Edition
from engine.sim.compare import Arm, Estimate, Options, check_settings, estimate_of, play_game
from engine.sim.results import SimError, derive_seed

GAMES_PER_SECOND: Final[dict[str, float]] = {"ultimate": 250.0, "classic": 120.0}
"""Games of 4 bots per second on one core of the reference machine (no invariant checks), per ruleset, set
below the lowest figures bench/bench_estimate.py measured on a busy machine (classic 240..540 by edition,
Ultimate 290..830); a game of ``p`` players is counted as ``p / 4`` of one."""
BUDGET_SHARE: Final = 0.6  # the share of the budget the table's rate plans for (slower variants, a busy core)
MIN_GAMES: Final = 20  # fewer paired games give intervals too wide to say anything
MAX_GAMES: Final = 2000  # more narrow the intervals little (their width goes as 1/sqrt(games))
DEFAULT_SEED: Final = 1


def games_for_budget(edition: Edition, players: int, budget_s: float) -> int:
    """Paired games (two games each: the defaults and the option set) that fit in ``budget_s`` seconds by
    :data:`GAMES_PER_SECOND`, within :data:`MIN_GAMES`..:data:`MAX_GAMES`."""
    if budget_s <= 0:
        raise SimError(f"expected a budget above 0 seconds, got {budget_s}")
    rate = GAMES_PER_SECOND.get(edition.ruleset, min(GAMES_PER_SECOND.values())) * 4 / players
    return max(MIN_GAMES, min(MAX_GAMES, int(budget_s * BUDGET_SHARE * rate / 2)))


def estimate(edition: Edition, players: int, options: Options, *, games: int | None = None,
             budget_s: float | None = None, clock: Callable[[], float] | None = None,
             seed: int = DEFAULT_SEED) -> Estimate:
    """What ``options`` does to a game of ``players`` bots of ``edition`` against the defaults.

    Exactly one of ``games`` (paired games) and ``budget_s`` (seconds) is given. With ``budget_s`` and
    ``clock``, pairs are played until the clock says the budget is spent (at least :data:`MIN_GAMES`, at
    most :data:`MAX_GAMES`); without ``clock``, :func:`games_for_budget` picks the count. Raises
    ``OptionError`` or :class:`SimError` for settings that cannot be played, before playing anything.
    """
    if (games is None) == (budget_s is None):
        raise SimError("expected either games or budget_s")
    check_settings(edition, players, {})
    check_settings(edition, players, options)
    if games is not None and games < 1:
        raise SimError(f"expected at least 1 game, got {games}")
    base, variant = Arm({}), Arm(dict(options))
    if games is None:
        assert budget_s is not None
        games = games_for_budget(edition, players, budget_s) if clock is None else MAX_GAMES
    deadline = None if clock is None or budget_s is None else clock() + budget_s
    for i in range(games):
        if deadline is not None and clock is not None and clock() >= deadline and i >= MIN_GAMES:
            break  # the clock is read before every pair
        game_seed = derive_seed(seed, i)
        play_game(edition, players, game_seed, base.options, base)
        play_game(edition, players, game_seed, variant.options, variant)
    return estimate_of(edition, players, base, variant)


__all__ = ["GAMES_PER_SECOND", "Arm", "Estimate", "estimate", "games_for_budget"]
