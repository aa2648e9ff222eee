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


def runner(*args: Any, **kwargs: Any) -> Runner:
    """The simulator's table for one game (engine/rulesets/ultimate/sim.py's ``GameRunner``), imported only
    when a game is simulated: a replay or the banker never loads the simulator and its bots."""
    from engine.rulesets.ultimate.sim import GameRunner

    return GameRunner(*args, **kwargs)


def receipt(*args: Any) -> Any:
    """How an event's amount was reached (engine/rulesets/ultimate/receipts.py, imported when first asked)."""
    from engine.rulesets.ultimate.receipts import receipt as make

    return make(*args)


RULESET = Ruleset(
    name="ultimate",
    options=Options,
    rules=RULES,
    new_state=GameState,
    fold=FOLD,
    invariants=check_invariants,
    parse_edition=parse_edition,
    space_kinds=SPACE_KINDS,
    runner=runner,
    receipt=receipt,
    commands=ULTIMATE_COMMANDS,
    events=ULTIMATE_EVENTS,
    gestures="engine.rulesets.ultimate.gestures",
)
