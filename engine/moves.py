"""The pure movement both rulesets share when the unit keeps the tokens (option ``positions``, docs/flows.md
"The unit keeps the tokens").

A ``RollDice(player, die1, die2)`` moves a token ``die1 + die2`` squares clockwise round a board of ``size``
squares, numbered 0 (GO) to ``size - 1``. Each ruleset's ``moves.py`` decides the rest with its own rules:
the salary for passing or reaching GO, its jail, what a landing asks for. What is the same in both is here:

- :func:`advance`: where a move of a number of squares ends and whether it passed or reached GO; a move
  backwards (a card's "go back three spaces") never passes GO;
- :func:`doubles_in_a_row`: the count of doubles the player has rolled in a row this turn, with this roll;
  :func:`third_double`: whether that count sends the player straight to jail without moving (docs/rules.md
  1.5, docs/rules-classic.md 8);
- :func:`roller`: who rolls now (:func:`roller_of`: in a ruleset's state);
- :func:`dice_refusal`: the refusal of dice that are not two whole numbers 1..6; :func:`check_roll`: the
  checks of ``RollDice`` both rulesets make;
- :func:`do_roll`: the roll itself (the turn passed to the roller first, the jail roll, the third double,
  the move, GO's salary, the Go To Jail space), with what differs said by the ruleset's :class:`Moves`: its
  salary, its jail's tries, its jail roll and how it sends a token to jail;
- :func:`fold_rolled`, :func:`fold_placed`, :func:`fold_jailed`: what a roll, a token put on a square and
  jail do to the tokens' part of a state (``position``, ``roll``).

The arithmetic is pure: nothing is rolled here (the dice come in the command), and only ``do_roll`` emits
events, through the rule's table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from engine import events as ev
from engine.commands import JailRoll, RollDice
from engine.errors import Refusal, refuse
from engine.rulesets.api import Table, check_phase, check_player
from engine.turns import follow_turn, next_active

JAIL_DOUBLES: Final = 3
"""The number of doubles in a row that sends the player to jail instead of moving."""

LastRoll = tuple[str, int, bool]
"""A state's record of the turn's last roll: (player, doubles in a row, whether the player rolls again)."""


def advance(start: int, steps: int, size: int) -> tuple[int, bool]:
    """The square ``steps`` squares after square ``start`` on a board of ``size`` squares, and whether the
    move passed or reached GO (square 0).

    ``start`` is 0..size-1 and ``size`` at least 1; ``steps`` may be negative (a move backwards), and such a
    move wraps round the board without passing GO: from square 1, three squares back is square ``size - 2``
    and no salary."""
    total = start + steps
    return total % size, steps > 0 and total >= size


def doubles_in_a_row(last: LastRoll | None, player: str, die1: int, die2: int) -> int:
    """How many doubles ``player`` has rolled in a row this turn, this roll of ``die1`` and ``die2`` (pips,
    1..6) included: 0 when it is not a double, else one more than the count of ``last`` (the turn's last
    roll) when that roll was the same player's, else 1."""
    if die1 != die2:
        return 0
    before = last[1] if last is not None and last[0] == player else 0
    return before + 1


def third_double(doubles: int) -> bool:
    """Whether ``doubles`` in a row (as counted by :func:`doubles_in_a_row`) send the player to jail without
    moving the token."""
    return doubles >= JAIL_DOUBLES


def roller(turn: str | None, last: LastRoll | None, following: Callable[[str], str]) -> str:
    """Who rolls now: the player whose turn it is (``turn``), or once they are done rolling (their last roll
    ``last`` does not roll again), the player ``following(turn)`` gives; "" before the game starts."""
    current = turn or ""
    if current and last is not None and last[0] == current and not last[2]:
        return following(current)
    return current


def dice_refusal(cmd: RollDice, what: str) -> Refusal | None:
    """The ``bad_dice`` refusal unless both dice of ``cmd`` are whole numbers 1..6 (a bool is not a die);
    None when they are. ``what`` names the command in the message."""
    for die in (cmd.die1, cmd.die2):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            return refuse("bad_dice", f"{what}: expected two dice 1..6, got {cmd.die1!r} and {cmd.die2!r}",
                          command=what, die1=repr(cmd.die1), die2=repr(cmd.die2))
    return None


def roll_refusal(cmd: RollDice, positions: bool, player_refusal: Callable[[], Refusal | None],
                 expected: Callable[[], str]) -> Refusal | None:
    """The checks of ``RollDice`` both rulesets make, in order: option ``positions`` on
    (``positions_off``), the ruleset's own phase and player checks (``player_refusal``), two dice 1..6
    (``bad_dice``), and the player who rolls now (``expected``, else ``not_your_turn``). None: accepted."""
    what = "RollDice"
    if not positions:
        return refuse("positions_off", f"{what}: the unit does not keep the tokens in this game (option "
                      "positions is off); expected the landing's own command", command=what)
    reason = player_refusal() or dice_refusal(cmd, what)
    if reason:
        return reason
    turn = expected()
    if cmd.player != turn:
        return refuse("not_your_turn", f"{what}: it is {turn}'s roll, not {cmd.player}'s", command=what,
                      player=cmd.player, turn=turn)
    return None


def roller_of(s: Any) -> str:
    """Who rolls now in the state ``s`` (its ``turn`` and last ``roll``): :func:`roller`, the next roller
    being the next active player ("" before the game starts)."""
    return roller(s.turn, s.roll, lambda turn: next_active(s, turn))


def check_roll(s: Any, cmd: RollDice) -> Refusal | None:
    """RollDice in the state ``s``: option ``positions``, phase play, a registered player who is not
    bankrupt, two dice 1..6, the player who rolls now (:func:`roll_refusal`)."""
    what = "RollDice"
    return roll_refusal(cmd, s.options.positions,
                        lambda: check_phase(s, "play", what) or check_player(s, cmd.player, what),
                        lambda: roller_of(s))


@dataclass(frozen=True, slots=True)
class Moves:
    """What a ruleset says of a roll where the rulesets differ.

    ``salary(state)``: what passing or reaching GO pays now (money units); ``jail_tries(state)``: how many
    failed jail rolls release the player (the last one pays the fine); ``jail_roll(table, JailRoll)``: the
    ruleset's jail roll (released or not, the fine); ``to_jail(table, player)``: into jail, token and all."""

    salary: Callable[[Any], int]
    jail_tries: Callable[[Any], int]
    jail_roll: Callable[[Any, JailRoll], None]
    to_jail: Callable[[Any, str], None]


def do_roll(t: Table[Any], cmd: RollDice, how: Moves) -> None:
    """Move the token by the dice (or try for doubles in jail); GO, the third double, Go To Jail.

    A roll by the next player passes the turn to them first. In jail the token moves only when the roll
    releases the player (doubles, or the last try), before the jail roll's events (the fine of the last try
    may end the game, and ``GameEnded`` comes last); the player does not roll again. Else the third double
    in a row goes to jail without moving, and a double rolls again unless the move ends on Go To Jail."""
    s, player = t.state, cmd.player
    follow_turn(t, player)
    d1, d2 = cmd.die1, cmd.die2
    start = s.position.get(player, 0)
    if player in s.jail:
        if d1 == d2 or s.jail[player] + 1 >= how.jail_tries(s):
            _move(t, how, player, d1, d2, start, 0, False)
        else:
            t.emit(ev.DiceRolled, player, d1, d2, start, start, False, 0, False)
        how.jail_roll(t, JailRoll(player, d1 == d2))
        return
    doubles = doubles_in_a_row(s.roll, player, d1, d2)
    if third_double(doubles):
        t.emit(ev.DiceRolled, player, d1, d2, start, start, False, doubles, False)
        how.to_jail(t, player)
        return
    _move(t, how, player, d1, d2, start, doubles, d1 == d2)


def _move(t: Table[Any], how: Moves, player: str, d1: int, d2: int, start: int, doubles: int, again: bool
          ) -> None:
    ed = t.edition
    end, passed = advance(start, d1 + d2, len(ed.spaces))
    to_jail = ed.spaces[end].kind == "go_to_jail"
    t.emit(ev.DiceRolled, player, d1, d2, start, end, passed, doubles, again and not to_jail)
    if passed:
        t.emit(ev.SalaryPaid, player, how.salary(t.state))
    if to_jail:
        how.to_jail(t, player)


# -- the fold of the tokens (each ruleset's fold.py names these) -----------------------------------------


def fold_rolled(s: Any, e: ev.DiceRolled) -> None:
    """The token stands on ``end``; the roll's doubles count and whether the player rolls again."""
    s.position = {**s.position, e.player: e.end}
    s.roll = (e.player, e.doubles, e.again)


def fold_placed(s: Any, player: str, position: int) -> None:
    """A card, a jump or jail put ``player``'s token on ``position`` (the dict replaced as a whole, so copies
    of the state share it safely)."""
    s.position = {**s.position, player: position}


def fold_jailed(s: Any, player: str) -> None:
    """Jail ends the turn's rolling and clears the doubles count (docs/rules.md 1.12,
    docs/rules-classic.md 8)."""
    if player == s.turn:
        s.roll = (player, 0, False)
