"""The child of bench/bench_engine.py that times ``Game.apply`` alone and the fold, for one checkout.

Usage: ``python bench/engine_child.py ROOT RULESET GAMES ROUNDS``: imports ``engine`` from the checkout
``ROOT`` (this tree, or an older commit unpacked in a temporary folder), lets the bots play ``GAMES`` games
through ``Game.apply`` recording each command, then times only the replay of those commands into fresh
games (``Game(edition).apply`` per command, nothing else in the loop) and ``Game.replay`` of their events,
each ``ROUNDS`` times, in CPU seconds (``time.process_time``). Prints one JSON line: the commands, the best
rate in commands per CPU second, the events and the best fold time in seconds per 100,000 events. Not a
benchmark of its own (``make bench`` runs only ``bench_*.py``).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def main(root: str, ruleset: str, games: int, rounds: int) -> dict[str, Any]:
    sys.path.insert(0, root)
    from engine.editions import load_edition
    from engine.game import Game

    try:
        from engine.sim.results import derive_seed
    except ImportError:  # before the rulesets were split out
        from engine.sim import derive_seed  # type: ignore[no-redef]
    runner: Any
    if ruleset == "ultimate":
        edition = load_edition("ultimate-uk")
        try:
            from engine.rulesets.ultimate.sim import GameRunner as runner
        except ImportError:  # before the rulesets were split out
            from engine.sim import GameRunner as runner  # type: ignore[no-redef]
    else:
        edition = load_edition("classic-us")
        from engine.rulesets.classic.sim import ClassicRunner as runner
    recorded: list[list[Any]] = []
    histories: list[tuple[Any, ...]] = []
    for i in range(games):
        game, commands = Game(edition), []

        def record(cmd: Any, game: Any = game, commands: list[Any] = commands) -> Any:
            commands.append(cmd)
            return game.apply(cmd)

        runner(edition, 4, derive_seed(1, i), game=game, apply=record, check_invariants=False).play()
        recorded.append(commands)
        histories.append(game.events)
    n_commands = sum(map(len, recorded))
    n_events = sum(map(len, histories))
    best_apply = best_fold = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        for commands in recorded:
            apply = Game(edition).apply
            for cmd in commands:
                apply(cmd)
        t1 = time.process_time()
        for events in histories:
            Game.replay(edition, events)
        t2 = time.process_time()
        best_apply, best_fold = min(best_apply, t1 - t0), min(best_fold, t2 - t1)
    return {"commands": n_commands, "apply_rate": n_commands / best_apply, "events": n_events,
            "fold_per_100k": best_fold / n_events * 100_000}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
