"""The movement both rulesets share when the unit keeps the tokens (engine/moves.py).

Sources: docs/rules.md 1.5 (move clockwise by the dice; a double rolls again; the third double in a row goes
to jail without moving), 1.13 (reaching GO counts as passing it); docs/rules-classic.md 8 (the same three
doubles) and 3.3 (Chance "go back three spaces": a move backwards, which never passes GO). The boards:
36 squares (Ultimate), 40 (classic).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.commands import RollDice
from engine.moves import JAIL_DOUBLES, advance, dice_refusal, doubles_in_a_row, roller, third_double


def test_a_forward_move_wraps_round_the_board_and_passes_go() -> None:
    """docs/rules.md 1.5, 1.13: past the last square the count goes on from GO, and GO was passed."""
    assert advance(30, 8, 36) == (2, True)
    assert advance(36, 6, 40) == (2, True)
    assert advance(3, 4, 40) == (7, False)
    assert advance(28, 11, 40) == (39, False)  # the last square, GO not yet reached


def test_an_exact_landing_on_go_counts_as_passing_it() -> None:
    """docs/rules.md 1.13: landing on GO pays like passing it."""
    assert advance(30, 6, 36) == (0, True)
    assert advance(28, 12, 40) == (0, True)


def test_a_backward_move_never_passes_go() -> None:
    """docs/rules-classic.md 3.3: "go back three spaces" wraps backwards over GO without a salary."""
    assert advance(7, -3, 40) == (4, False)
    assert advance(3, -3, 40) == (0, False)  # back onto GO: no salary either
    assert advance(1, -3, 40) == (38, False)  # back over GO
    assert advance(0, -3, 36) == (33, False)


@given(st.integers(1, 60), st.data())
def test_advance_ends_on_the_board_and_passes_go_only_forwards(size: int, data: st.DataObject) -> None:
    """Any move ends on a square of the board, ``steps`` squares on modulo the board; GO is passed exactly
    when a forward move reaches square ``size`` or beyond."""
    start = data.draw(st.integers(0, size - 1))
    steps = data.draw(st.integers(-3 * size, 3 * size))
    end, passed = advance(start, steps, size)
    assert 0 <= end < size and (end - start - steps) % size == 0
    assert passed == (steps > 0 and start + steps >= size)


def test_doubles_in_a_row_count_on_within_the_players_own_rolls() -> None:
    """docs/rules.md 1.5: each double in a row counts; a roll that is not a double counts 0."""
    assert doubles_in_a_row(None, "A", 3, 3) == 1
    assert doubles_in_a_row(("A", 1, True), "A", 5, 5) == 2
    assert doubles_in_a_row(("A", 2, True), "A", 1, 1) == 3
    assert doubles_in_a_row(("A", 2, True), "A", 1, 2) == 0
    assert doubles_in_a_row(("B", 2, False), "A", 4, 4) == 1  # another player's roll starts the count again


def test_the_third_double_in_a_row_goes_to_jail() -> None:
    """docs/rules.md 1.5, docs/rules-classic.md 8: three doubles in a row, not two, go to jail."""
    last: tuple[str, int, bool] | None = None
    counts = []
    for die in (2, 6, 4):
        doubles = doubles_in_a_row(last, "A", die, die)
        counts.append((doubles, third_double(doubles)))
        last = ("A", doubles, not third_double(doubles))
    assert counts == [(1, False), (2, False), (3, True)]
    assert JAIL_DOUBLES == 3 and not third_double(0)


def test_the_roller_is_the_turns_player_until_they_are_done() -> None:
    """docs/flows.md "The unit keeps the tokens", who rolls: once the player whose turn it is rolled without
    a double, the next player's roll is expected."""
    following = {"A": "B", "B": "C", "C": "A"}.__getitem__
    assert roller(None, None, following) == ""
    assert roller("A", None, following) == "A"
    assert roller("A", ("A", 1, True), following) == "A"  # a double: A rolls again
    assert roller("A", ("A", 0, False), following) == "B"
    assert roller("B", ("A", 0, False), following) == "B"  # the turn moved on already


def test_dice_that_are_not_two_dice_are_refused_with_both_dice() -> None:
    """A die is a whole number 1..6; the refusal names both dice (reason.bad_dice's {die1} and {die2})."""
    assert dice_refusal(RollDice("A", 1, 6), "RollDice") is None
    for die1, die2 in ((0, 3), (3, 7), (True, 2), ("4", 4)):
        reason = dice_refusal(RollDice("A", die1, die2), "RollDice")  # type: ignore[arg-type]
        assert reason is not None and reason.key == "bad_dice"
        assert reason.params == {"command": "RollDice", "die1": repr(die1), "die2": repr(die2)}
