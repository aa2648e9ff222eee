"""What every rule module shares: the table a rule acts on, and the common checks.

A rule is a pair of functions: ``check_x(state, edition, cmd) -> str | None`` (why the command is refused,
without changing anything) and ``do_x(table, cmd)`` (emits the events; only called after the check passed).
Events are folded into ``table.state`` as they are emitted, so a rule reads the state after each event.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.editions import Edition
from engine.ledger import BANK
from engine.state import GameState

MIN_LEVEL = 1
MAX_LEVEL = 5


class Table(Protocol):
    """The game as a rule sees it: the state, the edition, and ``emit(EventClass, *fields)``."""

    @property
    def state(self) -> GameState: ...

    @property
    def edition(self) -> Edition: ...

    def emit(self, cls: type, *fields: Any) -> None: ...


def check_phase(s: GameState, expected: str, what: str) -> str | None:
    """Refusal if the game is not in phase ``expected``."""
    if s.phase != expected:
        return f"{what}: expected phase {expected}, the game is in phase {s.phase}"
    return None


def check_player(s: GameState, player: object, what: str, *, free: bool = False) -> str | None:
    """Refusal unless ``player`` is a registered, not bankrupt player (``free``: and not in jail)."""
    if not isinstance(player, str) or player not in s.specs:
        return f"{what}: unknown player {player!r}; expected one of {list(s.order)}"
    if player in s.bankrupt:
        return f"{what}: player {player} is bankrupt"
    if free and player in s.jail:
        return f"{what}: player {player} is in jail"
    return None


def check_deed(ed: Edition, deed: object, what: str) -> str | None:
    """Refusal unless ``deed`` is a deed number of the edition."""
    if isinstance(deed, bool) or not isinstance(deed, int) or deed not in ed.deeds:
        return f"{what}: unknown deed {deed!r}; expected a deed number 1..{len(ed.deeds)}"
    return None


def check_play(s: GameState, player: object, what: str, *, free: bool = True) -> str | None:
    """Phase ``play`` and an active player (not in jail unless ``free`` is False)."""
    return check_phase(s, "play", what) or check_player(s, player, what, free=free)


def space_position(ed: Edition, kind: str) -> int:
    """The board position of the first space of ``kind`` (e.g. ``"jail"``, ``"parking"``)."""
    for space in ed.spaces:
        if space.kind == kind:
            return space.position
    raise KeyError(kind)


def creditor_ok(s: GameState, creditor: str) -> bool:
    """Whether ``creditor`` can receive money (the Bank or a registered player)."""
    return creditor == BANK or creditor in s.specs
