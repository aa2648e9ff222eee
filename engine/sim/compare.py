"""What a set of house rules does to a game: a baseline and variants played on the same seeds, side by side.

``boardbank sim --compare OPTION=VALUE`` and the setup screen's estimates (engine/sim/estimate.py) both come
here. Game ``i`` of every arm is played on ``derive_seed(seed, i)`` (common random numbers): the games are
paired, so the difference of an arm from the baseline has a tight interval (engine/sim/stats.py).

The measures of one game (:data:`MEASURES`): ``turns`` (player turns until the game ended or hit the turn
cap), ``first_wins`` (1 when the first seat won), ``money`` (money units on the table at the end: every
player's cash plus the Free Parking pot), ``capped`` (1 when the game hit the turn cap). Amounts are ``int``
in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine import commands as c
from engine.editions import Edition
from engine.game import Game
from engine.rulesets.registry import get_ruleset
from engine.sim.results import SimError, derive_seed
from engine.sim.stats import Interval, mean_interval, paired_difference, wilson

MEASURES: Final = ("turns", "first_wins", "money", "capped")
SHARES: Final = frozenset({"first_wins", "capped"})  # 0/1 per game: a share, with Wilson's interval
Options = Mapping[str, int | bool]


@dataclass(slots=True)
class Arm:
    """The per-game measures of one option set, game ``i`` on ``derive_seed(seed, i)``."""

    options: dict[str, int | bool]
    turns: list[int] = field(default_factory=list)
    first_wins: list[int] = field(default_factory=list)
    money: list[int] = field(default_factory=list)
    capped: list[int] = field(default_factory=list)
    seeds: list[int] = field(default_factory=list)

    def values(self, measure: str) -> list[int]:
        """The per-game values of ``measure`` (one of :data:`MEASURES`)."""
        values: list[int] = getattr(self, measure)
        return values

    def interval(self, measure: str) -> Interval:
        """The arm's mean of ``measure`` with its 95 % interval (a share: Wilson's, in 0..1)."""
        values = self.values(measure)
        if measure in SHARES:
            return wilson(sum(values), len(values))
        return mean_interval(values)


@dataclass(frozen=True, slots=True)
class Effect:
    """One measure of a variant next to the baseline: both arms' intervals and the paired difference
    (variant - baseline). Shares are in 0..1; ``percent`` is the difference relative to the baseline."""

    base: Interval
    variant: Interval
    diff: Interval

    @property
    def percent(self) -> float | None:
        """The difference in percent of the baseline's mean (None when the baseline's mean is 0)."""
        return 100.0 * self.diff.value / self.base.value if self.base.value else None

    def as_dict(self) -> dict[str, dict[str, float]]:
        """JSON: ``base``, ``variant``, ``diff`` as :meth:`Interval.as_dict`."""
        return {"base": self.base.as_dict(), "variant": self.variant.as_dict(), "diff": self.diff.as_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, dict[str, float]]) -> Effect:
        """The inverse of :meth:`as_dict`."""
        return cls(*(Interval.from_dict(data[k]) for k in ("base", "variant", "diff")))


@dataclass(frozen=True, slots=True)
class Estimate:
    """What ``options`` (the canonical option set: only the values that differ from the defaults) does to a
    game of ``players`` players of ``edition``, from ``games`` paired games; ``effects`` by measure."""

    edition: str
    players: int
    options: dict[str, int | bool]
    games: int
    effects: dict[str, Effect]

    def as_dict(self) -> dict[str, object]:
        """JSON (the cache's file, ``--compare --json``)."""
        return {"edition": self.edition, "players": self.players, "options": dict(self.options),
                "games": self.games, "effects": {m: e.as_dict() for m, e in self.effects.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Estimate:
        """The inverse of :meth:`as_dict`; raises ``KeyError``/``TypeError``/``ValueError`` on a bad object."""
        effects = data["effects"]
        options = data["options"]
        if not isinstance(effects, dict) or not isinstance(options, dict):
            raise TypeError("expected objects for effects and options")
        return cls(str(data["edition"]), int(str(data["players"])), dict(options), int(str(data["games"])),
                   {m: Effect.from_dict(effects[m]) for m in MEASURES})


def canonical_options(edition: Edition, options: Options) -> dict[str, int | bool]:
    """``options`` checked by the edition's ruleset (raises ``OptionError`` for an unknown name or a bad
    value) and reduced to the values that differ from the defaults, sorted by name: the cache's key."""
    cls = get_ruleset(edition.ruleset).options
    chosen = cls.from_mapping(dict(options)).as_dict()
    defaults = cls().as_dict()
    return {k: chosen[k] for k in sorted(chosen) if chosen[k] != defaults.get(k)}


def check_settings(edition: Edition, players: int, options: Options) -> None:
    """Raise ``OptionError`` (a wrong option) or :class:`SimError` (settings the engine refuses), playing
    nothing: the start check of one game with these settings."""
    get_ruleset(edition.ruleset).options.from_mapping(dict(options))
    if not 2 <= players <= 8:
        raise SimError(f"expected 2..8 players, got {players}")
    probe = c.StartGame(tuple(c.PlayerSpec(f"p{i + 1}") for i in range(players)), dict(options), 1)
    refusal = Game(edition).check(probe)
    if refusal is not None:
        hint = f" (for more players add the option max_players={players})" if "max_players" in refusal else ""
        raise SimError(f"the engine refuses these settings: {refusal}{hint}")


def play_game(edition: Edition, players: int, seed: int, options: Options, arm: Arm,
              turn_cap: int | None = None, jail_strategy: str = "short") -> None:
    """Play one game of bots on ``seed`` (no invariant checks: the plain simulator's tests keep those) and
    append its measures to ``arm``."""
    cap: dict[str, int] = {} if turn_cap is None else {"turn_cap": turn_cap}
    runner = get_ruleset(edition.ruleset).runner(edition, players, seed, options=dict(options),
                                                  jail_strategy=jail_strategy, check_invariants=False, **cap)
    r = runner.play()
    if r.violations:
        raise SimError(f"a simulated game went wrong: {r.violations[0]}")
    state = runner.game.state  # type: ignore[attr-defined]
    arm.turns.append(r.turns)
    arm.first_wins.append(int(r.winner == 0))
    arm.money.append(sum(state.ledger.balances.values()) + int(getattr(state, "pot", 0)))
    arm.capped.append(int(r.capped or not r.completed))
    arm.seeds.append(seed)


def effects(base: Arm, variant: Arm) -> dict[str, Effect]:
    """Each measure of ``variant`` next to ``base`` (the same seeds, in order)."""
    if base.seeds != variant.seeds:
        raise SimError("expected two arms played on the same seeds")
    return {m: Effect(base.interval(m), variant.interval(m), paired_difference(base.values(m), variant.values(m)))
            for m in MEASURES}


def compare(edition: Edition, players: int, games: int, seed: int, base: Options,
            variants: Sequence[Options], *, turn_cap: int | None = None, jail_strategy: str = "short",
            progress: Callable[[int, int], None] | None = None) -> tuple[Arm, list[Arm]]:
    """Play ``games`` games of the baseline ``base`` and of each variant (``base`` with the variant's values
    over it) on the same seeds, the bots leaving jail by ``jail_strategy``. Every option set is checked
    first (nothing is played if one is wrong).
    ``progress(done, total)`` counts games of all arms."""
    if games < 1:
        raise SimError(f"expected at least 1 game, got {games}")
    sets = [dict(base)] + [{**base, **v} for v in variants]
    for options in sets:
        check_settings(edition, players, options)
    arms = [Arm(options) for options in sets]
    total, done = games * len(arms), 0
    for i in range(games):
        game_seed = derive_seed(seed, i)
        for arm in arms:
            play_game(edition, players, game_seed, arm.options, arm, turn_cap, jail_strategy)
            done += 1
            if progress is not None:
                progress(done, total)
    return arms[0], arms[1:]


def estimate_of(edition: Edition, players: int, base: Arm, variant: Arm) -> Estimate:
    """The :class:`Estimate` of ``variant`` against ``base``."""
    return Estimate(edition.id, players, canonical_options(edition, variant.options), len(base.seeds),
                    effects(base, variant))
