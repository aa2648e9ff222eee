"""Rule options: validated on the way in, recorded in GameStarted, and replay uses the recorded values."""

from __future__ import annotations

import dataclasses

import pytest

from engine.commands import BuyDeed, EndTurn, PassGo, PlayerSpec, StartGame
from engine.editions import load_edition
from engine.errors import IllegalCommand, OptionError
from engine.events import GameStarted
from engine.game import Game
from engine.options import parse_option_text
from engine.rulesets.ultimate.options import Options

ED = load_edition("ultimate-uk")


def test_defaults_are_rules_6_2() -> None:
    assert Options().as_dict() == {
        "max_players": 4, "start_money": 1500, "go_salary": 200, "colour_set_bonus": True,
        "location_fee": 100, "jump_collects_go": False, "jail_fee": 100, "jailed_owner_collects_rent": False,
        "auction": True, "auction_step": 20, "jail_max_tries": 3, "positions": False,
    }


@pytest.mark.parametrize(("values", "message"), [
    ({"colour": True}, "unknown rule option 'colour'"),
    ({"auction": 1}, "option auction expects true/false, got 1"),
    ({"start_money": "1500"}, "option start_money expects a whole number, got '1500'"),
    ({"start_money": True}, "expects a whole number, got True"),
    ({"max_players": 1}, "max_players expects 2..8, got 1"),
    ({"go_salary": -1}, "go_salary expects an amount >= 0, got -1"),
    ({"auction_step": 0}, "auction_step expects an amount >= 1"),
    ({"jail_max_tries": 0}, "jail_max_tries expects >= 1"),
])
def test_bad_options(values: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Options.from_mapping(values)


def test_bad_options_refuse_the_start() -> None:
    game = Game(ED)
    cmd = StartGame((PlayerSpec("A"), PlayerSpec("B")), {"auction": "yes"}, 1)
    assert game.check(cmd) == "StartGame: option auction expects true/false, got 'yes'"
    with pytest.raises(IllegalCommand):
        game.apply(cmd)
    assert game.state.phase == "setup" and not game.events


def test_parse_option_text() -> None:
    assert parse_option_text("max_players=6") == ("max_players", 6)
    assert parse_option_text("auction=off") == ("auction", False)
    assert parse_option_text(" jump_collects_go = on ") == ("jump_collects_go", True)
    with pytest.raises(OptionError, match="expected NAME=VALUE, got 'auction'"):
        parse_option_text("auction")
    with pytest.raises(OptionError, match="a number or on/off"):
        parse_option_text("go_salary=lots")


def test_options_in_force_are_recorded_and_replayed() -> None:
    """A replay reads the options from GameStarted, never today's defaults."""
    game = Game(ED)
    (started,) = game.apply(StartGame((PlayerSpec("A"), PlayerSpec("B")), {"go_salary": 150}, 1))
    assert isinstance(started, GameStarted)
    assert started.options == {**Options().as_dict(), "go_salary": 150}
    game.apply(PassGo("A"))
    # pretend the defaults changed since: the recorded options still rule the replay
    changed = dataclasses.replace(started, options={**started.options, "start_money": 1000})
    replayed = Game.replay(ED, [changed, *game.events[1:]])
    assert replayed.state.balance("A") == 1150 and replayed.state.options.start_money == 1000
    assert Game.replay(ED, game.events).state.balance("A") == 1650


def test_max_players_raised() -> None:
    game = Game(ED)
    players = tuple(PlayerSpec(str(i)) for i in range(8))
    assert "expected 2..4 players" in str(game.check(StartGame(players, {}, 1)))
    game.apply(StartGame(players, {"max_players": 8}, 1))
    for i in range(7):  # to the eighth player's turn (turns follow the table)
        game.apply(EndTurn(str(i)))
    game.apply(BuyDeed("7", 1))
    assert game.state.owner == {1: "7"}
