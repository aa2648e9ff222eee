"""Child process of tests/engine/test_durability.py: bots play through a DurableGame until killed.

Usage: ``python durability_child.py DB SEED``. Opens (or creates) the journal, continues the latest game
if it is not over (finishing whatever was pending when the previous child was killed), else starts a new
one, and prints ``ready`` once the journal is open. After each command's ``apply`` has returned (the
command is durable: acknowledged) it prints ``GAME_ID COMMAND_NUMBER``. Exits by itself after
``MAX_SECONDS`` so a crashed test never leaves it running, and with status 3 (the refusal on stderr) when
the engine refuses a bot, since reopening that game would meet the same refusal forever.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.commands import Command
from engine.editions import load_edition
from engine.events import Event
from engine.game import Game
from engine.rulesets.ultimate.sim import GameRunner
from engine.sim.runner import derive_seed
from engine.store.durable import DurableGame
from engine.store.journal import Journal

MAX_SECONDS = 30.0
PLAYERS = 3


def main(db: str, seed: int) -> int:
    edition = load_edition("ultimate-uk")
    journal = Journal.open(db)
    deadline = time.monotonic() + MAX_SECONDS
    print("ready", flush=True)
    game_index = 0
    while time.monotonic() < deadline:
        gid = journal.latest_game()
        durable = DurableGame.open(journal, gid) if gid is not None else None
        if durable is None or durable.game.state.phase == "over":
            game_seed = derive_seed(seed, game_index)
            gid = journal.create_game(edition.id, game_seed, {})
            durable = DurableGame(journal, gid, Game(edition))
        game_index += 1

        def acknowledged(cmd: Command, d: DurableGame = durable) -> tuple[Event, ...]:
            events = d.apply(cmd)
            print(d.game_id, events[0].command, flush=True)
            return events

        runner = GameRunner(edition, PLAYERS, derive_seed(seed, 1000 + game_index), game=durable.game,
                            apply=acknowledged, check_invariants=False)
        result = runner.play()
        if result.violations:  # the same game would be reopened and refused again: say so and stop
            print(f"game {gid}: {result.violations[0]}", file=sys.stderr, flush=True)
            return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
