"""The Ultimate Banking ruleset as the registry hands it out (engine/rulesets/registry.py), laid out as every
ruleset is (engine/rulesets/api.py ``ruleset_in``: its simulator and receipts loaded only when used)."""

from __future__ import annotations

from engine.rulesets.api import ruleset_in
from engine.rulesets.ultimate.commands import ULTIMATE_COMMANDS
from engine.rulesets.ultimate.edition import SPACE_KINDS, parse_edition
from engine.rulesets.ultimate.events import ULTIMATE_EVENTS
from engine.rulesets.ultimate.fold import FOLD
from engine.rulesets.ultimate.invariants import check_invariants
from engine.rulesets.ultimate.options import Options
from engine.rulesets.ultimate.rules import RULES
from engine.rulesets.ultimate.state import GameState

RULESET = ruleset_in(
    "engine.rulesets.ultimate", runner="GameRunner", options=Options, new_state=GameState, rules=RULES,
    fold=FOLD, invariants=check_invariants, parse_edition=parse_edition, space_kinds=SPACE_KINDS,
    commands=ULTIMATE_COMMANDS, events=ULTIMATE_EVENTS)
