"""``DrawCard`` with the physical card the table drew (docs/rules-classic.md 1, 3): that card's effect, the
card goes under its deck (or stays with the player, a jail card); a card not in that deck is refused
(``card_not_in_deck``) and changes nothing; replay gives the same state."""

from __future__ import annotations

from engine import commands as c
from engine.editions import load_edition
from engine.game import Game
from engine.rulesets.classic import commands as cc

PLAYERS = (c.PlayerSpec("p1", "Ana", "red"), c.PlayerSpec("p2", "Boris", "green"))


def test_the_physical_card_is_drawn_from_anywhere_in_its_deck() -> None:
    game = Game(load_edition("classic-us"))
    game.apply(c.StartGame(PLAYERS, {}, 7))
    assert game.state.chance[0] == 4
    events = game.apply(cc.DrawCard("p1", 7, 8))  # Bank pays you a dividend of 50, from the middle of the deck
    assert [type(e).__name__ for e in events] == ["CardDrawn", "MoneyTransferred"]
    assert game.state.balance("p1") == 1550
    assert game.state.chance[0] == 4 and game.state.chance[-1] == 8 and len(game.state.chance) == 16
    game.apply(cc.DrawCard("p1", 7, 9))  # Get Out of Jail Free: kept
    assert game.state.held == {9: "p1"} and 9 not in game.state.chance
    before = game.state.snapshot()
    for card in (9, 17, 99, True):  # held by a player, a Community Chest card, no such card, not a number
        reason = game.check(cc.DrawCard("p1", 7, card))  # type: ignore[arg-type]
        assert reason is not None and reason.key == "card_not_in_deck", card
    assert game.state.snapshot() == before
    assert Game.replay(game.edition, game.events).state == game.state


def test_without_a_card_the_top_of_the_deck_is_drawn() -> None:
    game = Game(load_edition("classic-us"))
    game.apply(c.StartGame(PLAYERS, {}, 7))
    events = game.apply(cc.DrawCard("p1", 2))  # Community Chest's top card (seed 7): 29, collect 25
    assert events[0].card == 29 and game.state.balance("p1") == 1525
