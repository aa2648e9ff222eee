"""The headless simulator: bots play whole games through the engine's commands, many games per run.

Each game is played by the table of the edition's ruleset (``Ruleset.runner``, e.g.
engine/rulesets/ultimate/sim.py), seeded with :func:`derive_seed` so a run is reproducible; this module
adds up what the games report. Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine import commands as c
from engine.editions import Edition
from engine.game import Game
from engine.rulesets.registry import get_ruleset
from engine.sim.results import DEFAULT_TURN_CAP, GameResult, SimError, derive_seed

__all__ = ["DEFAULT_TURN_CAP", "GameResult", "SimError", "SimReport", "derive_seed", "run_sim"]


@dataclass(slots=True)
class SimReport:
    """Totals of a run. ``turns`` is the mean per game; ``seconds`` comes from the injected clock."""

    games: int
    completed: int
    turns: float
    landings: list[int]
    in_jail: int
    invariant_violations: int
    commands: int
    seconds: float
    commands_per_second: float
    winners: list[int]
    problems: list[str] = field(default_factory=list)  # the first violation messages, for the log
    rolls: int = 0  # dice rolls of the whole run (the classic table counts them)
    capped: int = 0  # games stopped at the turn cap
    game_turns: list[int] = field(default_factory=list)  # each game's turns, in order (for the plot)
    ruleset: str = "ultimate"

    def as_dict(self) -> dict[str, object]:
        """The CLI's JSON object (exactly the documented keys; a classic run adds ``capped``, ``rolls`` and
        ``rolls_per_second``, so an Ultimate Banking run prints what it always did)."""
        out: dict[str, object] = {
            "games": self.games, "completed": self.completed, "turns": self.turns, "landings": self.landings,
            "in_jail": self.in_jail, "invariant_violations": self.invariant_violations,
            "commands": self.commands, "seconds": self.seconds,
            "commands_per_second": self.commands_per_second, "winners": self.winners,
        }
        if self.ruleset == "classic":
            rps = round(self.rolls / self.seconds, 1) if self.seconds > 0 else 0.0
            out.update({"capped": self.capped, "rolls": self.rolls, "rolls_per_second": rps})
        return out


def run_sim(edition: Edition, players: int, games: int, seed: int, *, jail_strategy: str = "short",
            options: dict[str, object] | None = None, check_invariants: bool = True,
            turn_cap: int | None = None, clock: Callable[[], float] | None = None, check_end: bool = False,
            progress: Callable[[int, int], None] | None = None) -> SimReport:
    """Play ``games`` games of ``players`` bots; game ``i`` uses ``derive_seed(seed, i)``.

    ``check_invariants`` checks after every command; ``check_end`` (with it off) once at each game's end.
    ``turn_cap`` None leaves the ruleset's own cap (Ultimate Banking :data:`DEFAULT_TURN_CAP`, classic
    1000). ``clock`` (e.g. ``time.perf_counter``, seconds) times the run; without it the timing fields are
    0. ``progress(done, games)`` is called after each game.
    """
    if games < 0 or not 2 <= players <= 8:
        raise SimError(f"expected games >= 0 and 2..8 players, got games={games}, players={players}")
    probe = c.StartGame(tuple(c.PlayerSpec(f"p{i + 1}") for i in range(players)), dict(options or {}), seed)
    refusal = Game(edition).check(probe)
    if refusal is not None:
        hint = f" (for more players add the option max_players={players})" if "max_players" in refusal else ""
        raise SimError(f"the engine refuses these settings: {refusal}{hint}")
    make = get_ruleset(edition.ruleset).runner
    start = clock() if clock else 0.0
    landings = [0] * len(edition.spaces)
    winners = [0] * players
    report = SimReport(games, 0, 0.0, landings, 0, 0, 0, 0.0, 0.0, winners, ruleset=edition.ruleset)
    total_turns = 0
    cap: dict[str, int] = {} if turn_cap is None else {"turn_cap": turn_cap}
    for i in range(games):
        runner = make(edition, players, derive_seed(seed, i), jail_strategy=jail_strategy,
                      options=options, check_invariants=check_invariants, **cap)
        r = runner.play()
        if check_end and not check_invariants:
            r.violations.extend(f"seed {r.seed} at the end: {p}" for p in runner.game.invariants())  # type: ignore[attr-defined]
        report.rolls += r.rolls
        report.capped += r.capped
        report.game_turns.append(r.turns)
        if progress is not None:
            progress(i + 1, games)
        report.completed += r.completed
        total_turns += r.turns
        report.commands += r.commands
        report.in_jail += r.in_jail
        report.invariant_violations += len(r.violations)
        report.problems.extend(r.violations[: max(0, 20 - len(report.problems))])
        for pos, n in enumerate(r.landings):
            landings[pos] += n
        if r.winner is not None:
            winners[r.winner] += 1
    report.turns = round(total_turns / games, 3) if games else 0.0
    if clock:
        report.seconds = round(clock() - start, 3)
        report.commands_per_second = round(report.commands / report.seconds, 1) if report.seconds > 0 else 0.0
    return report
