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
the rent due. Positions are board positions 0..35; the fold follows every ``TokenMoved`` too. The arithmetic
both rulesets share (the move round the board, the doubles in a row, who rolls, the dice check) is
engine/moves.py; the salary and the jail are this ruleset's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import events as ev
from engine.commands import JailRoll, RollDice
from engine.editions import Edition
from engine.errors import Refusal
from engine.moves import advance, doubles_in_a_row, roll_refusal, third_double
from engine.moves import roller as roller_after
from engine.rulesets.ultimate import jail
from engine.rulesets.ultimate.base import check_play
from engine.rulesets.ultimate.turns import follow_turn, next_player

if TYPE_CHECKING:
    from engine.rulesets.ultimate.base import Table
    from engine.rulesets.ultimate.state import GameState


def roller(s: GameState) -> str:
    """Who rolls now: the player whose turn it is, or once they are done rolling, the next player ("" before
    the game starts)."""
    return roller_after(s.turn, s.roll, lambda turn: next_player(s, turn))


def check_roll(s: GameState, ed: Edition, cmd: RollDice) -> Refusal | None:
    """RollDice: option ``positions``, phase play, two dice 1..6, the player who rolls now."""
    reason = roll_refusal(cmd, s.options.positions, lambda: check_play(s, cmd.player, "RollDice", free=False),
                          lambda: roller(s))
    if reason:
        return reason
    if cmd.player in s.jail:
        return jail.check_try(s, ed, JailRoll(cmd.player, cmd.die1 == cmd.die2))
    return None


def do_roll(t: Table, cmd: RollDice) -> None:
    """Move the token by the dice (or try for doubles in jail); GO, the third double, Go To Jail."""
    s, player = t.state, cmd.player
    follow_turn(t, player)
    d1, d2 = cmd.die1, cmd.die2
    start = s.position.get(player, 0)
    if player in s.jail:  # the move first: the fee of the last try may end the game (GameEnded is last)
        if d1 == d2 or s.jail[player] + 1 >= s.options.jail_max_tries:
            _move(t, player, d1, d2, start, 0, False)
        else:
            t.emit(ev.DiceRolled, player, d1, d2, start, start, False, 0, False)
        jail.do_roll(t, JailRoll(player, d1 == d2))
        return
    doubles = doubles_in_a_row(s.roll, player, d1, d2)
    if third_double(doubles):
        t.emit(ev.DiceRolled, player, d1, d2, start, start, False, doubles, False)
        jail.send_to_jail(t, player)
        return
    _move(t, player, d1, d2, start, doubles, d1 == d2)


def _move(t: Table, player: str, d1: int, d2: int, start: int, doubles: int, again: bool) -> None:
    ed = t.edition
    end, passed = advance(start, d1 + d2, len(ed.spaces))
    to_jail = ed.spaces[end].kind == "go_to_jail"
    t.emit(ev.DiceRolled, player, d1, d2, start, end, passed, doubles, again and not to_jail)
    if passed:
        t.emit(ev.SalaryPaid, player, t.state.options.go_salary)
    if to_jail:
        jail.send_to_jail(t, player)


# -- the fold of the tokens (engine/rulesets/ultimate/fold.py) ------------------------------------------


def fold_rolled(s: GameState, e: ev.DiceRolled) -> None:
    """The token stands on ``end``; a deed reached by the move is the landing to resolve."""
    s.position = {**s.position, e.player: e.end}
    s.roll = (e.player, e.doubles, e.again)
    deed = s.edition.spaces[e.end].deed
    if deed is not None and e.end != e.start:
        s.landing = (e.player, deed, e.command)


def fold_token_moved(s: GameState, e: ev.TokenMoved) -> None:
    """A jump, a card or jail put the token on ``position``."""
    s.position = {**s.position, e.player: e.position}


def fold_jailed(s: GameState, player: str) -> None:
    """Jail ends the turn's rolling and clears the doubles count (docs/rules.md 1.12)."""
    if player == s.turn:
        s.roll = (player, 0, False)
