"""The unit keeps the tokens (option ``positions``, docs/flows.md "The unit keeps the tokens").

``RollDice(player, die1, die2)`` carries dice rolled outside the engine (the table's pad or the banker's
seeded roll). The player whose turn it is rolls; once they are done (a roll that was not a double, a jail
roll, or jail), the next player's roll moves the turn on first, as their landing would (turns.py). The
token moves ``die1 + die2`` spaces clockwise (``DiceRolled`` with from, to, passed GO and the doubles in a
row); passing or reaching GO pays ``go_salary``; a double rolls again; the third double in a row goes
straight to jail without moving (docs/rules.md 1.5), as does the Go To Jail space. A jailed player's roll is
the jail roll (jail.py): doubles, or the failure that uses up ``jail_max_tries`` (the fee charged), release
the player, who moves by that roll and does not roll again (docs/rules.md 1.12). Landing on a deed records
it as the landing to resolve (``GameState.landing``), so a unit that lost power resumes with the buy or
the rent due. Positions are board positions 0..35; the fold follows every ``TokenMoved`` too. The roll itself is
both rulesets' (engine/moves.py: the move round the board, the doubles in a row, who rolls, the checks,
the jail roll's and the third double's order, the fold of the tokens); this ruleset says its salary and
its jail (``ULTIMATE_MOVES``), its jail roll's own check, and the landing a roll leaves to resolve.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import events as ev
from engine import moves
from engine.commands import JailRoll, RollDice
from engine.editions import Edition
from engine.errors import Refusal
from engine.moves import Moves, roller_of
from engine.moves import advance as advance
from engine.rulesets.ultimate import jail

if TYPE_CHECKING:
    from engine.rulesets.ultimate.base import Table
    from engine.rulesets.ultimate.state import GameState


def roller(s: GameState) -> str:
    """Who rolls now: the player whose turn it is, or once they are done rolling, the next player ("" before
    the game starts)."""
    return roller_of(s)


def check_roll(s: GameState, ed: Edition, cmd: RollDice) -> Refusal | None:
    """RollDice: option ``positions``, phase play, two dice 1..6, the player who rolls now (engine/moves.py);
    in jail, a jail roll the player may make."""
    reason = moves.check_roll(s, cmd)
    if reason:
        return reason
    if cmd.player in s.jail:
        return jail.check_try(s, ed, JailRoll(cmd.player, cmd.die1 == cmd.die2))
    return None


ULTIMATE_MOVES = Moves(salary=lambda s: s.options.go_salary, jail_tries=lambda s: s.options.jail_max_tries,
                       jail_roll=jail.do_roll, to_jail=jail.send_to_jail)
"""Ultimate Banking's salary and jail for the shared roll (engine/moves.py)."""


def do_roll(t: Table, cmd: RollDice) -> None:
    """Move the token by the dice (or try for doubles in jail); GO, the third double, Go To Jail
    (engine/moves.py, with this ruleset's salary and jail)."""
    moves.do_roll(t, cmd, ULTIMATE_MOVES)


# -- the fold of the tokens (engine/rulesets/ultimate/fold.py) ------------------------------------------


def fold_rolled(s: GameState, e: ev.DiceRolled) -> None:
    """The token stands on ``end``; a deed reached by the move is the landing to resolve."""
    moves.fold_rolled(s, e)
    deed = s.edition.spaces[e.end].deed
    if deed is not None and e.end != e.start:
        s.landing = (e.player, deed, e.command)


def fold_token_moved(s: GameState, e: ev.TokenMoved) -> None:
    """A jump, a card or jail put the token on ``position``."""
    moves.fold_placed(s, e.player, e.position)


fold_jailed = moves.fold_jailed
