"""The unit keeps the tokens, the classic game (option ``positions``; docs/flows.md "The unit keeps the
tokens"), played through ``Game``.

Sources: docs/rules-classic.md (roll and move; a double rolls again; the third double goes to jail;
in jail doubles release and the last failed try pays the fine and moves), docs/rules.md 3.2 (the 40
spaces: GO 0, Chance 7/22/36, In Jail 10, Go To Jail 30, railroads 5/15/25/35), 3.3 (Chance: card 5 "next
station", card 10 "back three spaces", card 11 "go to jail"). Every step checks that ``Game.replay`` of the
journal equals the live state and that each event survives its JSON record.
"""

from __future__ import annotations

from functools import cache

import pytest

from engine import commands as c
from engine import events as ev
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.game import Game
from engine.records import event_from_record, event_to_record
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.moves import advance, roller

ED = load_edition("classic-uk")


@cache
def seed_with_chance_top(card: int) -> int:
    """The first seed whose shuffle puts Chance ``card`` on top (so card cases stay replayable)."""
    for seed in range(1, 5000):
        game = Game(ED)
        game.apply(c.StartGame((c.PlayerSpec("A"), c.PlayerSpec("B")), {}, seed))
        if game.state.chance[0] == card:
            return seed
    raise AssertionError(card)


def started(seed: int = 1, positions: bool = True, **options: object) -> Game:
    game = Game(ED)
    game.apply(c.StartGame((c.PlayerSpec("A", "Ann"), c.PlayerSpec("B", "Bob")), {"positions": positions, **options},
                           seed))
    return game


def apply(game: Game, cmd: c.Command) -> tuple[ev.Event, ...]:
    events = game.apply(cmd)
    assert Game.replay(ED, game.events).state == game.state
    assert all(event_from_record(event_to_record(e), "classic") == e for e in events)
    return events


def of(events: tuple[ev.Event, ...], kind: type) -> list[ev.Event]:
    return [e for e in events if type(e) is kind]


def test_advance() -> None:
    """A move of 0 steps or backwards never passes GO."""
    assert advance(36, 6, 40) == (2, True) and advance(7, -3, 40) == (4, False) and advance(3, 4, 40) == (7, False)


def test_pass_go() -> None:
    """Passing GO pays go_salary (200) once; the token wraps round the 40 spaces."""
    game = started()
    for _ in range(3):  # A: 11, 22, 33; B: 3, 6, 9
        apply(game, c.RollDice("A", 6, 5))
        apply(game, c.RollDice("B", 1, 2))
    events = apply(game, c.RollDice("A", 5, 4))  # 33 + 9 = 42 -> 2
    assert of(events, ev.DiceRolled)[0].passed_go  # type: ignore[attr-defined]
    assert [e.amount for e in of(events, ev.SalaryPaid)] == [200]  # type: ignore[attr-defined]
    assert game.state.position["A"] == 2


def test_card_back_three() -> None:
    """Chance card 10 from Chance at 7: back three spaces to Income Tax at 4, no salary."""
    game = started(seed_with_chance_top(10))
    apply(game, c.RollDice("A", 3, 4))
    events = apply(game, cc.DrawCard("A", 7))
    assert [(e.position, e.reason) for e in of(events, cev.TokenPlaced)] == [(4, "card")]  # type: ignore[attr-defined]
    assert not of(events, ev.SalaryPaid) and game.state.position["A"] == 4
    apply(game, cc.PayTax("A", 4))
    assert game.state.balance("A") == 1300


def test_card_nearest_station() -> None:
    """Chance card 5 from Chance at 7: on to the next station (15), which may be bought."""
    game = started(seed_with_chance_top(5))
    apply(game, c.RollDice("A", 3, 4))
    apply(game, cc.DrawCard("A", 7))
    assert game.state.position["A"] == 15
    station = ED.spaces[15].deed
    assert station is not None
    apply(game, c.BuyDeed("A", station))
    assert game.state.owner[station] == "A"


def test_third_double_to_jail() -> None:
    """The third double in a row goes to jail without moving; the turn's rolling ends."""
    game = started()
    assert of(apply(game, c.RollDice("A", 1, 1)), ev.DiceRolled)[0].again  # type: ignore[attr-defined]
    apply(game, c.RollDice("A", 2, 2))  # 2 -> 6
    events = apply(game, c.RollDice("A", 3, 3))
    moved = of(events, ev.DiceRolled)[0]
    assert (moved.start, moved.end, moved.doubles) == (6, 6, 3)  # type: ignore[attr-defined]
    assert "A" in game.state.jail and game.state.position["A"] == 10 and roller(game.state) == "B"


def test_go_to_jail_corner_and_card() -> None:
    """The Go To Jail corner (30) and Chance card 11 put the token In Jail (10)."""
    game = started(seed_with_chance_top(11))
    apply(game, c.RollDice("A", 3, 4))  # 7, Chance
    apply(game, cc.DrawCard("A", 7))
    assert "A" in game.state.jail and game.state.position["A"] == 10
    for d1, d2 in ((6, 5), (6, 5)):  # B: 11, 22; A tries for doubles in between
        apply(game, c.RollDice("B", d1, d2))
        apply(game, c.RollDice("A", 1, 2))
    assert game.state.jail["A"] == 2 and game.state.position["A"] == 10
    apply(game, c.RollDice("B", 5, 3))  # 30: Go To Jail
    assert "B" in game.state.jail and game.state.position["B"] == 10


def _jailed_by_doubles(**options: object) -> Game:
    game = started(**options)
    for d in (1, 2, 3):  # 2, 6, then the third double: jail
        apply(game, c.RollDice("A", d, d))
    apply(game, c.RollDice("B", 1, 2))
    return game


def test_jail_doubles_release_and_move() -> None:
    """In jail, doubles release and the token moves by that roll; the player does not roll again."""
    game = _jailed_by_doubles()
    events = apply(game, c.RollDice("A", 4, 4))
    assert [e.reason for e in of(events, ev.JailLeft)] == ["doubles"]  # type: ignore[attr-defined]
    assert game.state.position["A"] == 18 and roller(game.state) == "B"


def test_jail_last_try_pays_the_fine_and_moves() -> None:
    """After the last failed try the fine (50) is paid and the token moves by that roll."""
    game = _jailed_by_doubles(jail_max_turns=1)
    apply(game, c.RollDice("A", 1, 2))
    assert "A" not in game.state.jail and game.state.position["A"] == 13 and game.state.balance("A") == 1450


def test_wrong_player_refused() -> None:
    """Only the player who rolls now may roll; a refusal changes nothing."""
    game = started()
    before = game.state.snapshot()
    with pytest.raises(IllegalCommand, match="it is A's roll, not B's"):
        game.apply(c.RollDice("B", 1, 2))
    assert game.state.snapshot() == before
    apply(game, c.RollDice("A", 1, 2))
    with pytest.raises(IllegalCommand, match="it is B's roll, not A's"):
        game.apply(c.RollDice("A", 1, 2))


def test_end_turn_resets_the_doubles() -> None:
    """End turn passes the turn and the next player rolls afresh (a skipped player rolls nothing)."""
    game = started()
    apply(game, c.RollDice("A", 1, 2))
    apply(game, c.EndTurn("A"))
    apply(game, c.EndTurn("B"))  # B skipped
    assert roller(game.state) == "A"
    apply(game, c.RollDice("A", 1, 2))


def test_off_by_default() -> None:
    """Without option positions RollDice is refused, and cards place no token (TokenMoved only)."""
    game = started(positions=False)
    assert game.check(c.RollDice("A", 1, 2)).key == "positions_off"  # type: ignore[union-attr]


def test_a_landing_on_another_square_is_refused() -> None:
    """With the unit keeping the tokens, rent, buying and declining are the lander's on their own square:
    a wrong card at the table is refused with one clear line and nothing changes."""
    game = started()
    apply(game, c.RollDice("A", 2, 1))  # A on 3 (a street)
    deed = ED.spaces[3].deed
    assert deed is not None
    before = game.state.snapshot()
    refusal = game.check(c.BuyDeed("A", 1))
    assert refusal is not None and refusal.key == "not_on_square"
    assert str(refusal) == "BuyDeed: A stands on square 3, not on deed 1's"
    apply(game, c.BuyDeed("A", deed))
    apply(game, c.RollDice("B", 1, 1))  # B on 2 (Community Chest): not on A's street
    assert game.check(c.PayRent("B", deed)).key == "not_on_square"  # type: ignore[union-attr]
    assert game.state.snapshot() != before and game.state.owner[deed] == "A"
