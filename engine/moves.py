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
- :func:`roller`: who rolls now;
- :func:`dice_refusal`: the refusal of dice that are not two whole numbers 1..6.

Every function is pure: no state is changed and nothing is rolled here (the dice come in the command).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.commands import RollDice
from engine.errors import Refusal, refuse

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
