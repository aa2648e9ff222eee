"""Undo: a reversing event, never a deletion; repeated undo walks back; everything is restored."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.commands import (
    BuyDeed,
    DeclineDeed,
    EndTurn,
    GoToJail,
    JailRoll,
    PayRent,
    PlaceBid,
    PlayerSpec,
    StartGame,
    Undo,
)
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.game import Game
from engine.rulesets.ultimate.commands import DrawEvent, LandOnOwn, ReturnDeed
from engine.rulesets.ultimate.rules import RULES
from engine.rulesets.ultimate.state import GameState

ED = load_edition("ultimate-uk")


def new_game(*players: str, **options: object) -> Game:
    game = Game(ED)
    game.apply(StartGame(tuple(PlayerSpec(p) for p in players or ("A", "B", "C")), options, 7))
    return game


def test_undo_appends_and_walks_back() -> None:
    game = new_game()
    game.apply(BuyDeed("A", 16))
    game.apply(LandOnOwn("A", 16))
    n = len(game.events)
    (undone,) = game.apply(Undo())
    assert isinstance(undone, ev.CommandUndone) and undone.undone == 3 and undone.command == 4
    assert len(game.events) == n + 1  # nothing deleted
    assert game.state.level == {16: 1}
    game.apply(Undo())
    assert game.state.owner == {} and game.state.balance("A") == 1500
    game.apply(BuyDeed("B", 16))
    game.apply(Undo())  # undoes the new purchase, not an undo
    assert game.state.owner == {}
    assert Game.replay(ED, game.events).state == game.state


def test_undo_restores_deck_auction_debt_jail_and_event_phase() -> None:
    game = new_game()
    deck = game.state.deck
    game.apply(DrawEvent("A"))
    assert game.state.deck != deck
    game.apply(Undo())
    assert game.state.deck == deck

    game.apply(DeclineDeed("A", 5))
    game.apply(PlaceBid("B", 40))
    game.apply(Undo())
    auction = game.state.auction
    assert game.state.phase == "auction" and auction is not None and auction.high_bid == 0

    game.apply(Undo())
    game.apply(GoToJail("A"))
    game.apply(JailRoll("A", False))
    game.apply(EndTurn("A"))  # one jail roll a turn (docs/rules.md 1.12)
    game.apply(EndTurn("B"))
    game.apply(EndTurn("C"))
    game.apply(JailRoll("A", False))
    assert game.state.jail == {"A": 2}
    game.apply(Undo())
    assert game.state.jail == {"A": 1}

    game.apply(DrawEvent("B", 7))  # GRAND DESIGNS, B owns nothing: resolves at once
    assert game.state.phase == "play"
    game.apply(BuyDeed("B", 3))
    game.apply(DrawEvent("B", 7))
    assert game.state.phase == "event"
    game.apply(Undo())
    assert game.state.phase == "play" and game.state.pending_event is None
    assert Game.replay(ED, game.events).state == game.state


def test_undo_reopens_a_debt_and_a_finished_game() -> None:
    game = new_game("A", "B", start_money=300)
    game.apply(BuyDeed("B", 16))
    for _ in range(3):
        game.apply(LandOnOwn("B", 16))
    game.apply(BuyDeed("A", 1))
    game.apply(PayRent("A", 16))  # 640 owed, 240 in cash, one deed
    assert game.state.phase == "debt"
    game.apply(ReturnDeed("A", 1))
    assert game.state.phase == "over" and game.state.bankrupt == {"A"}
    game.apply(Undo())
    debt = game.state.debt
    assert game.state.phase == "debt" and debt is not None and debt.amount == 640
    assert game.state.owner[1] == "A" and not game.state.bankrupt
    assert game.invariants() == []


def test_nothing_to_undo() -> None:
    game = Game(ED)
    assert game.check(Undo()) is not None
    with pytest.raises(IllegalCommand, match="there is none"):
        game.apply(Undo())
    game.apply(StartGame((PlayerSpec("A"), PlayerSpec("B")), {}, 1))
    game.apply(Undo())
    assert game.state.phase == "setup" and game.state == GameState(ED)
    assert len(game.events) == 2


def test_copy_copies_every_slot() -> None:
    """A new slot added to GameState without being copied would break undo."""
    game = new_game()
    game.apply(BuyDeed("A", 1))
    copy = game.state.copy()
    for name in GameState.__slots__:
        assert getattr(copy, name) == getattr(game.state, name), name
    copy.owner[2] = "B"
    copy.ledger.balances["A"] = 0
    assert 2 not in game.state.owner and game.state.balance("A") == 1440


def test_a_failing_rule_leaves_nothing_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """All or nothing even when a rule breaks after emitting events (a defect, not a refusal)."""
    game = new_game()
    game.apply(BuyDeed("A", 1))
    before, n_events, n_cmds = game.state.snapshot(), len(game.events), game.commands_applied
    check, do = RULES[BuyDeed]

    def broken(table: Game, cmd: BuyDeed) -> None:
        do(table, cmd)
        raise RuntimeError("defect")

    monkeypatch.setitem(RULES, BuyDeed, (check, broken))
    with pytest.raises(RuntimeError):
        game.apply(BuyDeed("B", 2))
    assert game.state.snapshot() == before
    assert len(game.events) == n_events and game.commands_applied == n_cmds
    monkeypatch.setitem(RULES, BuyDeed, (check, do))
    game.apply(EndTurn("A"))
    game.apply(Undo())
    game.apply(Undo())
    assert game.state.owner == {}


def test_long_undo_walk_crosses_checkpoints() -> None:
    """Undo back through many commands (past several checkpoints) gives each earlier state exactly."""
    game = new_game("A", "B")
    snapshots = [game.state.snapshot()]
    for i in range(100):
        player = game.state.turn
        assert player is not None
        deed = i % 22 + 1
        owner = game.state.owner.get(deed)
        if owner is None:
            cmd: object = BuyDeed(player, deed) if game.state.balance(player) > 400 else EndTurn(player)
        elif owner == player:
            cmd = LandOnOwn(player, deed)
        else:
            cmd = EndTurn(player)
        if game.check(cmd) is not None:  # type: ignore[arg-type]
            cmd = EndTurn(player)
        game.apply(cmd)  # type: ignore[arg-type]
        snapshots.append(game.state.snapshot())
    for expected in reversed(snapshots[10:-1]):
        game.apply(Undo())
        assert game.state.snapshot() == expected
    for _ in range(5):
        player = game.state.turn
        assert player is not None
        game.apply(EndTurn(player))
    for _ in range(5):
        game.apply(Undo())
    assert game.state.snapshot() == snapshots[10]
    for expected in reversed(snapshots[:10]):
        game.apply(Undo())
        assert game.state.snapshot() == expected
    assert Game.replay(ED, game.events).state == game.state


def test_the_state_object_stays_live_across_undo() -> None:
    """A caller holding ``game.state`` sees the undone state (the object is updated in place)."""
    game = new_game()
    state = game.state
    game.apply(BuyDeed("A", 16))
    game.apply(Undo())
    assert game.state is state and 16 not in state.owner


def test_replay_refuses_damaged_event_lists() -> None:
    from engine.errors import RecordError

    game = new_game()
    game.apply(BuyDeed("A", 16))
    game.apply(BuyDeed("B", 15))
    events = list(game.events)
    with pytest.raises(RecordError, match="expected event 2 of command >= 1, got seq 3"):
        Game.replay(ED, [events[0], *events[2:]])
    with pytest.raises(RecordError, match="got seq 1"):
        Game.replay(ED, [events[0], events[0]])
    with pytest.raises(IllegalCommand, match="there is none"):
        Game.replay(ED, [ev.CommandUndone(1, 1, 1)])
