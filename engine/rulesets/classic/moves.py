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
resets the doubles count (``RollsReset``). Positions are board positions 0..39 (absent: GO).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import events as ev
from engine.commands import GoToJail, JailRoll, RollDice
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.base import check_phase, check_player, next_active
from engine.rulesets.classic.jail import do_roll as jail_roll
from engine.rulesets.classic.jail import jail_position, send_to_jail
from engine.rulesets.classic.turns import salary

if TYPE_CHECKING:
    from engine.rulesets.classic.base import Table
    from engine.rulesets.classic.state import ClassicState


def advance(start: int, steps: int, size: int) -> tuple[int, bool]:
    """The board position ``steps`` spaces after ``start`` on a board of ``size`` spaces, and whether the
    move passed or reached GO (position 0). ``steps`` may be negative (back three spaces: never GO)."""
    total = start + steps
    return total % size, steps > 0 and total >= size


def roller(s: ClassicState) -> str:
    """Who rolls now: the player whose turn it is, or once they are done rolling, the next player ("" before
    the game starts)."""
    turn, last = s.turn or "", s.roll
    if turn and last is not None and last[0] == turn and not last[2]:
        return next_active(s, turn)
    return turn


def check_roll(s: ClassicState, ed: Edition, cmd: RollDice) -> Refusal | None:
    """RollDice: option ``positions``, phase play, two dice 1..6, the player who rolls now."""
    what = "RollDice"
    if not s.options.positions:
        return refuse("positions_off", f"{what}: the unit does not keep the tokens in this game (option "
                      "positions is off); expected the landing's own command", command=what)
    reason = check_phase(s, "play", what) or check_player(s, cmd.player, what)
    if reason:
        return reason
    for die in (cmd.die1, cmd.die2):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            return refuse("bad_dice", f"{what}: expected two dice 1..6, got {cmd.die1!r} and {cmd.die2!r}",
                          command=what, die1=repr(cmd.die1), die2=repr(cmd.die2))
    expected = roller(s)
    if cmd.player != expected:
        return refuse("not_your_turn", f"{what}: it is {expected}'s roll, not {cmd.player}'s", command=what,
                      player=cmd.player, turn=expected)
    return None


def do_roll(t: Table, cmd: RollDice) -> None:
    """Move the token by the dice (or try for doubles in jail); GO, the third double, Go To Jail."""
    s, player = t.state, cmd.player
    if player != s.turn:
        t.emit(ev.TurnEnded, s.turn, player)
    d1, d2 = cmd.die1, cmd.die2
    start = s.position.get(player, 0)
    if player in s.jail:  # the move first: the fine of the last try may end the game (GameEnded is last)
        if d1 == d2 or s.jail[player] + 1 >= s.options.jail_max_turns:
            _move(t, player, d1, d2, start, 0, False)
        else:
            t.emit(ev.DiceRolled, player, d1, d2, start, start, False, 0, False)
        jail_roll(t, JailRoll(player, d1 == d2))
        return
    last = s.roll
    doubles = ((last[1] if last is not None and last[0] == player else 0) + 1) if d1 == d2 else 0
    if doubles >= 3:
        t.emit(ev.DiceRolled, player, d1, d2, start, start, False, doubles, False)
        jail(t, player)
        return
    _move(t, player, d1, d2, start, doubles, d1 == d2)


def _move(t: Table, player: str, d1: int, d2: int, start: int, doubles: int, again: bool) -> None:
    ed = t.edition
    end, passed = advance(start, d1 + d2, len(ed.spaces))
    to_jail = ed.spaces[end].kind == "go_to_jail"
    t.emit(ev.DiceRolled, player, d1, d2, start, end, passed, doubles, again and not to_jail)
    if passed:
        t.emit(ev.SalaryPaid, player, salary(t.state))
    if to_jail:
        jail(t, player)


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


# -- the fold of the tokens (engine/rulesets/classic/fold.py) ---------------------------------------------


def fold_rolled(s: ClassicState, e: ev.DiceRolled) -> None:
    """The token stands on ``end``; the roll's doubles count and whether the player rolls again."""
    s.position = {**s.position, e.player: e.end}
    s.roll = (e.player, e.doubles, e.again)


def fold_placed(s: ClassicState, e: cev.TokenPlaced) -> None:
    """A card or jail put the token on ``position``; jail ends the turn's rolling."""
    s.position = {**s.position, e.player: e.position}
    if e.reason == "jail" and e.player == s.turn:
        s.roll = (e.player, 0, False)


def fold_reset(s: ClassicState, e: cev.RollsReset) -> None:
    """A fresh turn: no roll yet."""
    s.roll = None
