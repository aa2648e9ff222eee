"""What a simulated game reports, shared by the simulator (engine/sim/runner.py) and each ruleset's table.

Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Final

from engine.errors import EngineError

DEFAULT_TURN_CAP: Final = 2000  # player turns per game; real games end far sooner


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (stable across Python versions and runs)."""
    digest = hashlib.sha256(f"boardbank-sim:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class SimError(EngineError, ValueError):
    """Simulator settings that cannot be played (player count, jail strategy, options the engine refuses)."""


@dataclass(slots=True)
class GameResult:
    """What one game did: ``turns`` = ``EndTurn`` commands; ``winner`` = the seat (0-based) ranked first."""

    seed: int
    completed: bool = False
    turns: int = 0
    commands: int = 0
    landings: list[int] = field(default_factory=list)
    in_jail: int = 0
    violations: list[str] = field(default_factory=list)
    winner: int | None = None
    rolls: int = 0  # dice rolls that moved a token or tried for doubles in jail (the classic table counts them)
    capped: bool = False  # the game reached the turn cap without ending
