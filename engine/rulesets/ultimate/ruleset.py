"""The Ultimate Banking ruleset as the registry hands it out (engine/rulesets/registry.py)."""

from __future__ import annotations

from typing import Any

from engine.rulesets.api import Ruleset, Runner
from engine.rulesets.ultimate.commands import ULTIMATE_COMMANDS
from engine.rulesets.ultimate.edition import SPACE_KINDS, parse_edition
from engine.rulesets.ultimate.events import ULTIMATE_EVENTS
from engine.rulesets.ultimate.fold import FOLD
from engine.rulesets.ultimate.invariants import check_invariants
from engine.rulesets.ultimate.options import Options
from engine.rulesets.ultimate.rules import RULES
from engine.rulesets.ultimate.state import GameState


def _runner(*args: Any, **kwargs: Any) -> Runner:
    """The simulator's game (engine.rulesets.ultimate.sim), imported when a game is simulated: the touch
    app and the banker never load the simulator and its bots (about 1 MiB of the kiosk's memory)."""
    from engine.rulesets.ultimate.sim import GameRunner

    return GameRunner(*args, **kwargs)


RULESET = Ruleset(
    name="ultimate",
    options=Options,
    rules=RULES,
    new_state=GameState,
    fold=FOLD,
    invariants=check_invariants,
    parse_edition=parse_edition,
    space_kinds=SPACE_KINDS,
    runner=_runner,
    commands=ULTIMATE_COMMANDS,
    events=ULTIMATE_EVENTS,
    gestures="engine.rulesets.ultimate.gestures",
)
