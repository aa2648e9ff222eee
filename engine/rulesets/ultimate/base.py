"""What every rule module shares: the table a rule acts on, and the common checks.

A rule is a pair of functions: ``check_x(state, edition, cmd) -> Refusal | None`` (why the command is refused,
without changing anything: a str with a translation key, built with ``engine.errors.refuse``) and ``do_x(table, cmd)`` (emits the events; only called after the check passed).
Events are folded into ``table.state`` as they are emitted, so a rule reads the state after each event.
The checks of a player, a deed and the phase are both rulesets' (engine/rulesets/api.py).
"""

from __future__ import annotations

from typing import TypeAlias

from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets import api
from engine.rulesets.api import check_deed as check_deed
from engine.rulesets.api import check_phase as check_phase
from engine.rulesets.ultimate.state import GameState

MIN_LEVEL = 1
MAX_LEVEL = 5

Table: TypeAlias = api.Table[GameState]
"""The game as an Ultimate Banking rule sees it (engine/rulesets/api.py)."""


def check_player(s: GameState, player: object, what: str, *, free: bool = False) -> Refusal | None:
    """Refusal unless ``player`` is a registered, not bankrupt player (``free``: and not in jail)."""
    return api.check_player(s, player, what, s.jail if free else ())


def check_play(s: GameState, player: object, what: str, *, free: bool = True) -> Refusal | None:
    """Phase ``play`` and an active player (not in jail unless ``free`` is False)."""
    return check_phase(s, "play", what) or api.check_player(s, player, what, s.jail if free else ())


def check_unowned(s: GameState, ed: Edition, player: object, deed: object, what: str) -> Refusal | None:
    """Phase ``play``, a free ``player`` and an unowned ``deed`` (buying it or declining it)."""
    reason = check_play(s, player, what) or check_deed(ed, deed, what)
    if reason:
        return reason
    assert isinstance(deed, int)  # check_deed accepted it
    if deed in s.owner:
        owner = s.owner[deed]
        return refuse("deed_owned", f"{what}: deed {deed} is already owned by {owner}; expected an unowned deed",
                      command=what, deed=deed, owner=owner)
    return None


def space_position(ed: Edition, kind: str) -> int:
    """The board position of the first space of ``kind`` (e.g. ``"jail"``, ``"parking"``)."""
    for space in ed.spaces:
        if space.kind == kind:
            return space.position
    raise KeyError(kind)


def creditor_ok(s: GameState, creditor: str) -> bool:
    """Whether ``creditor`` can receive money (the Bank or a registered player)."""
    return creditor == BANK or creditor in s.specs
