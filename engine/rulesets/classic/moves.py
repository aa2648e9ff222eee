"""The unit keeps the tokens in the classic game (option ``positions``, docs/flows.md "The unit keeps the
tokens"), and the pure movement it shares with the simulator's table.

``RollDice(player, die1, die2)`` carries dice rolled outside the engine (the table's pad or the banker's
seeded roll). The player whose turn it is rolls; once they are done (a roll that was not a double, a jail
roll, jail), the next player's roll passes the turn to them first. The token moves ``die1 + die2`` spaces
(``DiceRolled``: from, to, passed GO, doubles in a row); passing or reaching GO pays the salary of
turns.py; a double rolls again; the third double in a row goes to jail without moving, and so does the Go
To Jail corner (docs/rules-classic.md 8). In jail the roll is the jail roll (jail.py): doubles release the
player, and after the last failed try the fine is paid; either way the token moves by that roll and the
player does not roll again. Cards and jail put the token on its square with ``TokenPlaced``. End turn
resets the doubles count (``RollsReset``). Positions are board positions 0..39 (absent: GO). The roll
itself is both rulesets' (engine/moves.py: the move round the board, the doubles in a row, who rolls, the
checks, the jail roll's and the third double's order, the fold of the tokens); this ruleset says its
salary and its jail (``CLASSIC_MOVES``), and its own ``TokenPlaced``, ``RollsReset`` and landing check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import moves
from engine.commands import GoToJail, RollDice
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.moves import Moves, roller_of
from engine.moves import advance as advance
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.jail import do_roll as jail_roll
from engine.rulesets.classic.jail import jail_position, send_to_jail
from engine.rulesets.classic.turns import salary

if TYPE_CHECKING:
    from engine.rulesets.classic.base import Table
    from engine.rulesets.classic.state import ClassicState


def roller(s: ClassicState) -> str:
    """Who rolls now: the player whose turn it is, or once they are done rolling, the next player ("" before
    the game starts)."""
    return roller_of(s)


def check_roll(s: ClassicState, ed: Edition, cmd: RollDice) -> Refusal | None:
    """RollDice: option ``positions``, phase play, two dice 1..6, the player who rolls now (engine/moves.py)."""
    return moves.check_roll(s, cmd)


def do_roll(t: Table, cmd: RollDice) -> None:
    """Move the token by the dice (or try for doubles in jail); GO, the third double, Go To Jail
    (engine/moves.py, with this ruleset's salary and jail)."""
    moves.do_roll(t, cmd, CLASSIC_MOVES)


def jail(t: Table, player: str) -> None:
    """Into jail, the token on In Jail."""
    send_to_jail(t, player)
    placed(t, player, jail_position(t.edition), "jail")


def placed(t: Table, player: str, position: int, reason: str) -> None:
    """With option ``positions``: a card or jail put the token on ``position``."""
    if t.state.options.positions:
        t.emit(cev.TokenPlaced, player, position, reason)


def do_go_to_jail(t: Table, cmd: GoToJail) -> None:
    """GoToJail (the table's command), the token on In Jail."""
    jail(t, cmd.player)


def at_square(rule: tuple[Callable[..., Refusal | None], Callable[..., None]], field: str, what: str
              ) -> tuple[Callable[..., Refusal | None], Callable[..., None]]:
    """``rule`` for a landing on a deed: with option ``positions`` the command's ``field`` (the lander) must
    stand on the deed's square, so a wrong card at the table is refused and nothing changes."""
    check, do = rule

    def checked(s: ClassicState, ed: Edition, cmd: Any) -> Refusal | None:
        reason = check(s, ed, cmd)
        if reason is not None or not s.options.positions:
            return reason
        player, deed = getattr(cmd, field), cmd.deed
        at = s.position.get(player, 0)
        if ed.deeds[deed].position != at:
            return refuse("not_on_square", f"{what}: {player} stands on square {at}, not on deed {deed}'s",
                          command=what, player=player, deed=deed, position=at)
        return None

    return checked, do


CLASSIC_MOVES = Moves(salary=salary, jail_tries=lambda s: s.options.jail_max_turns, jail_roll=jail_roll,
                      to_jail=jail)
"""The classic game's salary and jail for the shared roll (engine/moves.py)."""


# -- the fold of the tokens (engine/rulesets/classic/fold.py) ---------------------------------------------

fold_rolled = moves.fold_rolled


def fold_placed(s: ClassicState, e: cev.TokenPlaced) -> None:
    """A card or jail put the token on ``position``; jail ends the turn's rolling."""
    moves.fold_placed(s, e.player, e.position)
    if e.reason == "jail":
        moves.fold_jailed(s, e.player)


def fold_reset(s: ClassicState, e: cev.RollsReset) -> None:
    """A fresh turn: no roll yet."""
    s.roll = None
