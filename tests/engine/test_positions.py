"""The unit keeps the tokens, Ultimate Banking (option ``positions``; docs/flows.md "The unit keeps the tokens").

Sources: docs/rules.md 1.5 (roll, move clockwise, a double rolls again, the third double goes to jail
without moving), 1.12 (jail: doubles release and you move by that roll; the last failed try charges the
fee), 1.13 (GO pays 200 when passed or landed on). The board is docs/rules.md 1.7 (36 spaces; GO 0, Jail 9,
Go To Jail 27, Location 7/16/25/34). Every test also checks that ``Game.replay`` of the journal equals
the live state and that every event survives its JSON record.
"""

from __future__ import annotations

import pytest

from engine import commands as c
from engine import events as ev
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.game import Game
from engine.records import command_from_record, command_to_record, event_from_record, event_to_record
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate.moves import advance, roller

ED = load_edition("ultimate-uk")


def started(*players: str, positions: bool = True, **options: object) -> Game:
    game = Game(ED)
    specs = tuple(c.PlayerSpec(p, p.lower(), "red") for p in players or ("A", "B", "C"))
    game.apply(c.StartGame(specs, {"positions": positions, **options}, 3))
    return game


def roll(game: Game, player: str, d1: int, d2: int) -> tuple[ev.Event, ...]:
    events = game.apply(c.RollDice(player, d1, d2))
    assert Game.replay(ED, game.events).state == game.state  # replay equals the live state
    assert all(event_from_record(event_to_record(e)) == e for e in events)
    return events


def of(events: tuple[ev.Event, ...], kind: type) -> list[ev.Event]:
    return [e for e in events if type(e) is kind]


def test_advance_wraps_and_tells_go() -> None:
    """docs/rules.md 1.13: reaching GO counts as passing it, once."""
    assert advance(30, 6, 36) == (0, True)
    assert advance(30, 8, 36) == (2, True)
    assert advance(3, 4, 36) == (7, False)


def test_a_roll_moves_the_token_and_records_the_landing() -> None:
    """docs/rules.md 1.5: the token moves the dice's total; a deed reached is the landing to resolve."""
    game = started()
    events = roll(game, "A", 2, 3)
    (moved,) = of(events, ev.DiceRolled)
    assert (moved.start, moved.end, moved.passed_go, moved.doubles, moved.again) == (0, 5, False, 0, False)  # type: ignore[attr-defined]
    assert game.state.position == {"A": 5, "B": 0, "C": 0}
    assert game.state.landing == ("A", 3, moved.command)  # deed 3 stands on position 5
    game.apply(c.BuyDeed("A", 3))
    assert game.state.landing is None and game.state.owner[3] == "A"


def test_passing_go_pays_the_salary() -> None:
    """docs/rules.md 1.13: passing GO pays go_salary (200)."""
    game = started("A", "B")
    for d in ((6, 5), (6, 5), (6, 5)):  # A: 11, 22, 33 (each player rolls once, no doubles)
        roll(game, "A", *d)
        roll(game, "B", 1, 2)
    events = roll(game, "A", 2, 3)  # 33 + 5 = 38 -> 2
    assert of(events, ev.DiceRolled)[0].passed_go  # type: ignore[attr-defined]
    assert [e.amount for e in of(events, ev.SalaryPaid)] == [200]  # type: ignore[attr-defined]
    assert game.state.position["A"] == 2


def test_the_next_players_roll_moves_the_turn_on() -> None:
    """docs/flows.md "Turns follow the table": once A is done rolling, B's roll passes the turn first."""
    game = started()
    roll(game, "A", 1, 2)
    assert roller(game.state) == "B"
    events = roll(game, "B", 1, 3)
    assert type(events[0]) is ev.TurnEnded and game.state.turn == "B"


def test_a_roll_out_of_turn_is_refused() -> None:
    """Only the player who rolls now may roll; nothing changes."""
    game = started()
    before = game.state.snapshot()
    with pytest.raises(IllegalCommand, match="it is A's roll, not C's"):
        game.apply(c.RollDice("C", 1, 2))
    roll(game, "A", 1, 2)
    with pytest.raises(IllegalCommand, match="it is B's roll, not A's"):  # A is done
        game.apply(c.RollDice("A", 4, 5))
    assert before != game.state.snapshot()


def test_a_double_rolls_again_and_the_third_goes_to_jail() -> None:
    """docs/rules.md 1.5 and 1.12: a double rolls again; the third double in a row goes straight to jail
    without moving, and ends the turn."""
    game = started()
    assert of(roll(game, "A", 1, 1), ev.DiceRolled)[0].again  # type: ignore[attr-defined]
    assert roller(game.state) == "A"
    roll(game, "A", 2, 2)  # 2 -> 6
    events = roll(game, "A", 3, 3)
    moved = of(events, ev.DiceRolled)[0]
    assert (moved.start, moved.end, moved.doubles, moved.again) == (6, 6, 3, False)  # type: ignore[attr-defined]
    assert of(events, ev.JailEntered) and game.state.position["A"] == 9 and "A" in game.state.jail
    assert roller(game.state) == "B"


def test_go_to_jail_space() -> None:
    """docs/rules.md 1.12: landing on position 27 goes to jail, even on a double (no roll again)."""
    game = started("A", "B")
    roll(game, "A", 6, 5)  # 11
    roll(game, "B", 1, 2)
    events = roll(game, "A", 6, 5)  # 22
    roll(game, "B", 1, 2)
    events = roll(game, "A", 3, 2)  # 27
    assert of(events, ev.JailEntered) and game.state.position["A"] == 9
    assert not of(events, ev.DiceRolled)[0].again  # type: ignore[attr-defined]


def test_jail_doubles_release_and_move() -> None:
    """docs/rules.md 1.12: in jail a double frees you and you move by that roll, without rolling again."""
    game = started("A", "B")
    game.apply(c.GoToJail("A"))  # going to jail ends A's turn: B rolls next
    roll(game, "B", 1, 2)
    roll(game, "A", 1, 2)  # no double: stays (try 1)
    assert game.state.position["A"] == 9 and game.state.jail["A"] == 1
    roll(game, "B", 1, 2)
    events = roll(game, "A", 4, 4)
    assert of(events, ev.JailLeft) and game.state.position["A"] == 17
    assert roller(game.state) == "B"


def test_jail_last_try_charges_the_fee_and_moves() -> None:
    """docs/rules.md 1.12: the failed last try charges the fee (100) and releases; the token moves."""
    game = started("A", "B", jail_max_tries=1)
    game.apply(c.GoToJail("A"))
    roll(game, "B", 1, 2)
    events = roll(game, "A", 1, 2)
    assert [e.reason for e in of(events, ev.JailLeft)] == ["tries_used"]  # type: ignore[attr-defined]
    assert game.state.balance("A") == 1400 and game.state.position["A"] == 12


def test_location_and_move_cards_move_the_token() -> None:
    """docs/rules.md 1.10: a Location jump puts the token on the deed (the fold follows TokenMoved)."""
    game = started()
    roll(game, "A", 3, 4)  # 7: a Location space
    game.apply(uc.UseLocation("A", 16, 7))
    assert game.state.position["A"] == ED.deeds[16].position
    assert Game.replay(ED, game.events).state == game.state


def test_off_by_default_and_bad_dice() -> None:
    """RollDice needs option positions (off by default: the unit is told only what it must know); the dice
    are whole numbers 1..6; a refusal changes nothing."""
    game = started(positions=False)
    assert game.check(c.RollDice("A", 1, 2)).key == "positions_off"  # type: ignore[union-attr]
    game = started()
    for bad in ((0, 3), (3, 7), (True, 2), ("3", 4)):
        assert game.check(c.RollDice("A", *bad)).key == "bad_dice"  # type: ignore[arg-type, union-attr]
    assert game.state.position == {"A": 0, "B": 0, "C": 0}


def test_the_command_and_option_are_journaled() -> None:
    """The dice are part of the command (replay is exact); the mode is recorded in GameStarted."""
    cmd = c.RollDice("A", 6, 1)
    assert command_from_record(command_to_record(cmd), "ultimate") == cmd
    game = started()
    assert game.events[0].options["positions"] is True  # type: ignore[attr-defined]


def test_undo_puts_the_token_back() -> None:
    """Undo reverses a roll like any command: the token stands where it stood."""
    game = started()
    roll(game, "A", 5, 6)
    game.apply(c.Undo())
    assert game.state.position["A"] == 0 and roller(game.state) == "A"


@pytest.mark.parametrize("edition", ["ultimate-uk", "classic-uk"])
def test_go_pressed_by_hand_is_refused_when_the_unit_keeps_the_tokens(edition: str) -> None:
    """docs/flows.md "The unit keeps the tokens": the roll that passes GO pays it, so a PassGo by hand (the
    GO button) would pay a second salary; it is refused and nothing changes. Without the option it pays."""
    ed = load_edition(edition)
    for positions in (True, False):
        game = Game(ed)
        specs = tuple(c.PlayerSpec(p, p.lower(), "red") for p in ("A", "B"))
        game.apply(c.StartGame(specs, {"positions": positions}, 3))
        before = game.state.balance("A")
        if positions:
            with pytest.raises(IllegalCommand) as refused:
                game.apply(c.PassGo("A"))
            assert refused.value.key == "go_paid_by_move"
            assert game.state.balance("A") == before
        else:
            game.apply(c.PassGo("A"))
            assert game.state.balance("A") > before


@pytest.mark.parametrize("edition", ["ultimate-uk", "classic-uk"])
def test_a_jail_roll_by_hand_is_refused_when_the_unit_keeps_the_tokens(edition: str) -> None:
    """docs/flows.md "The unit keeps the tokens", in jail: the roll is ``RollDice``, which releases on doubles
    and moves the token by that roll. A ``JailRoll`` by hand (the jail-roll buttons) would release the player
    on their square and leave them a second roll, so it is refused and nothing changes; the manual "go to
    jail" puts the token on the jail square itself. Without the option the buttons work as before."""
    ed = load_edition(edition)
    jail_at = next(s.position for s in ed.spaces if s.kind == "jail")
    for positions in (True, False):
        game = Game(ed)
        specs = tuple(c.PlayerSpec(p, p.lower(), "red") for p in ("A", "B"))
        game.apply(c.StartGame(specs, {"positions": positions}, 3))
        game.apply(c.GoToJail("A"))
        assert "A" in game.state.jail
        if not positions:
            game.apply(c.JailRoll("A", True))
            assert "A" not in game.state.jail
            continue
        assert game.state.position["A"] == jail_at  # the manual jail moves the token
        before = len(game.events)
        for doubles in (True, False):
            with pytest.raises(IllegalCommand) as refused:
                game.apply(c.JailRoll("A", doubles))
            assert refused.value.key == "jail_roll_by_dice"
        assert len(game.events) == before and "A" in game.state.jail
