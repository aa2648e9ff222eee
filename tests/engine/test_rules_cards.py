"""Event cards: every card with every valid target on a busy board; the deck model."""

from __future__ import annotations

import pytest

from engine.commands import BuyDeed, EndTurn, GoToJail, PlayerSpec, StartGame
from engine.editions import load_edition
from engine.game import Game
from engine.rulesets.ultimate.cards import targets
from engine.rulesets.ultimate.commands import DrawEvent, LandOnOwn, ResolveEvent

ED = load_edition("ultimate-uk")


def busy_game() -> Game:
    """A, B, C own deeds spread over every side; D is in jail and owns one deed."""
    game = Game(ED)
    game.apply(StartGame(tuple(PlayerSpec(p) for p in "ABCD"), {"start_money": 3000}, 11))
    for player, deeds in {"A": (1, 6, 12, 22), "B": (2, 9, 15, 18), "C": (3, 13), "D": (20,)}.items():
        for deed in deeds:
            game.apply(BuyDeed(player, deed))
    game.apply(EndTurn("D"))  # A's turn: B lands next, the turn moving on by itself (docs/flows.md)
    game.apply(LandOnOwn("B", 15))
    game.apply(EndTurn("B"))
    game.apply(EndTurn("C"))
    game.apply(GoToJail("D"))
    return game


BASE = busy_game()


def _cases() -> list[tuple[int, tuple[str | int, ...]]]:
    cases = []
    for card in ED.events:
        for choice in targets(BASE.state, ED, "A", card):
            cases.append((card.id, choice))
    return cases


CASES = _cases()


def test_every_card_has_targets_on_a_busy_board() -> None:
    assert {card for card, _ in CASES} == set(range(1, 24))
    own_and_opp = [c for card, c in CASES if card == 15]
    assert len(own_and_opp) == 4 * 7  # A's 4 deeds x the 7 deeds of others


@pytest.mark.parametrize(("card", "choice"), CASES, ids=[f"{c}-{'-'.join(map(str, ch))}" for c, ch in CASES])
def test_card_with_target(card: int, choice: tuple[str | int, ...]) -> None:
    game = Game.replay(ED, BASE.events)
    game.apply(DrawEvent("A", card))
    if game.state.phase == "event":
        game.apply(ResolveEvent("A", choice))
    assert game.state.phase in ("play", "debt")
    assert game.invariants() == []
    assert Game.replay(ED, game.events).state == game.state


def test_targets_follow_the_decisions() -> None:
    s = BASE.state
    assert targets(s, ED, "A", ED.card(1)) == [("brown",), ("pink",), ("red",), ("dark_blue",)]
    assert targets(s, ED, "C", ED.card(5)) == [("A",), ("C",)]
    assert targets(s, ED, "A", ED.card(8)) == [(d,) for d in sorted(s.owner)]  # any owned deed
    assert targets(s, ED, "A", ED.card(13)) == [("B",), ("C",), ("D",)]  # bonus: jailed players too
    assert targets(s, ED, "A", ED.card(17)) == [("B",), ("C",)]  # jail: not the jailed D
    assert len(targets(s, ED, "A", ED.card(18))) == 22


def test_house_party_wraps_and_lowers_neighbours() -> None:
    game = Game.replay(ED, BASE.events)
    for player in "DA":  # (D's turn in BASE) to B's: turns follow the table
        game.apply(EndTurn(player))
    game.apply(LandOnOwn("B", 2))
    for player in "BCD":
        game.apply(EndTurn(player))
    game.apply(DrawEvent("A", 11))
    events = game.apply(ResolveEvent("A", (1,)))
    changes = {(e.deed, e.old, e.new) for e in events if type(e).__name__ == "LevelChanged"}
    # deed 1 up; its neighbours: 2 (B's) down, 22 (A's, already at level 1) stays at the floor
    assert (1, game.state.level[1] - 1, game.state.level[1]) in changes
    assert game.state.level[2] == 2  # the brown bonus made it 2, LandOnOwn 3, HOUSE PARTY back to 2
    assert game.state.level[22] == 1


def test_deck_is_seeded_and_complete() -> None:
    def deck(seed: int) -> tuple[int, ...]:
        game = Game(ED)
        game.apply(StartGame((PlayerSpec("A"), PlayerSpec("B")), {}, seed))
        return game.state.deck

    assert deck(5) == deck(5)
    assert deck(5) != deck(6)
    assert sorted(deck(5)) == list(range(1, 24))


def test_physical_card_taken_from_the_middle() -> None:
    game = Game(ED)
    game.apply(StartGame((PlayerSpec("A"), PlayerSpec("B")), {}, 5))
    before = game.state.deck
    middle = before[10]
    game.apply(DrawEvent("A", middle))
    after = game.state.deck
    assert after[-1] == middle and after[:-1] == tuple(c for c in before if c != middle)
    top = after[0]
    game.apply(DrawEvent("B"))
    assert game.state.deck[-1] == top
