"""Corrections behind the PIN (engine/corrections.py): money between a player and the Bank or two players,
a deed given to another player or back to the Bank; journaled, replayed, exported, undone."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine import events as ev
from engine.commands import BuyDeed, CorrectDeed, CorrectMoney, PlayerSpec, StartGame, Undo
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.game import Game
from engine.store.durable import DurableGame
from engine.store.export import export_csv, export_jsonl
from engine.store.journal import Journal

ED = load_edition("ultimate-uk")


def started() -> Game:
    game = Game(ED)
    game.apply(StartGame((PlayerSpec("A"), PlayerSpec("B"), PlayerSpec("C")), {}, 1))
    return game


def test_money_between_players_and_the_bank() -> None:
    game = started()
    (e,) = game.apply(CorrectMoney("A", "B", 200, "rent paid to the wrong player"))
    assert isinstance(e, ev.MoneyCorrected) and (e.payer, e.payee, e.amount) == ("A", "B", 200)
    assert (game.state.balance("A"), game.state.balance("B")) == (1300, 1700)
    game.apply(CorrectMoney("bank", "C", 50, "GO salary forgotten"))
    game.apply(CorrectMoney("B", "bank", 10, "  a fine  "))
    assert (game.state.balance("B"), game.state.balance("C")) == (1690, 1550)
    assert game.events[-1].reason == "a fine"  # type: ignore[attr-defined]
    assert game.invariants() == []


def test_a_deed_to_another_player_and_back_to_the_bank() -> None:
    game = started()
    game.apply(BuyDeed("A", 16))
    (e,) = game.apply(CorrectDeed(16, "B", "bought by the wrong card"))
    assert isinstance(e, ev.DeedCorrected) and (e.previous, e.to) == ("A", "B")
    assert game.state.owner == {16: "B"} and game.state.level == {16: 1}
    game.apply(CorrectDeed(16, "bank", "nobody bought it"))
    assert game.state.owner == {} and game.state.level == {}
    game.apply(CorrectDeed(3, "C", "bought before the unit was on"))
    assert game.state.owner == {3: "C"} and game.state.level == {3: 1}
    assert game.invariants() == []


@pytest.mark.parametrize(("cmd", "problem"), [
    (CorrectMoney("A", "A", 10, "x"), "payer and payee are both A"),
    (CorrectMoney("A", "B", 0, "x"), "expected a whole amount > 0"),
    (CorrectMoney("A", "B", True, "x"), "expected a whole amount > 0"),  # type: ignore[arg-type]
    (CorrectMoney("A", "B", 5000, "x"), "A has 1500, less than 5000"),
    (CorrectMoney("Z", "B", 10, "x"), "payer must be the Bank or an active player"),
    (CorrectMoney("A", "B", 10, ""), "expected a reason"),
    (CorrectMoney("A", "B", 10, "x" * 81), "expected a reason"),
    (CorrectDeed(99, "A", "x"), "unknown deed 99"),
    (CorrectDeed(16, "bank", "x"), "deed 16 is already bank's"),
    (CorrectDeed(16, "Q", "x"), "receiver must be the Bank or an active player"),
])
def test_a_bad_correction_is_refused_and_changes_nothing(cmd: object, problem: str) -> None:
    game = started()
    before = game.state.snapshot()
    with pytest.raises(IllegalCommand, match=problem) as refused:
        game.apply(cmd)
    assert refused.value.key == "bad_correction"
    assert game.state.snapshot() == before


def test_a_correction_is_undone_like_any_command() -> None:
    game = started()
    game.apply(CorrectMoney("A", "B", 300, "typo"))
    game.apply(Undo())
    assert (game.state.balance("A"), game.state.balance("B")) == (1500, 1500)
    assert isinstance(game.events[-1], ev.CommandUndone)
    assert Game.replay(ED, game.events).state == game.state


def test_corrections_are_journaled_replayed_and_exported(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "bank.db") as journal:
        durable = DurableGame.start(journal, ED, StartGame((PlayerSpec("A"), PlayerSpec("B")), {}, 3))
        durable.apply(CorrectMoney("A", "B", 120, "rent for Coventry Street"))
        durable.apply(BuyDeed("A", 16))
        durable.apply(CorrectDeed(16, "B", "B bought it"))
        durable.apply(Undo())
        again = DurableGame.open(journal, durable.game_id)
        assert again.game.state == durable.game.state
        out = io.StringIO()
        export_jsonl(journal, durable.game_id, out)
        types = [json.loads(line).get("type") for line in out.getvalue().splitlines()]
        assert "MoneyCorrected" in types and "DeedCorrected" in types and "CorrectMoney" in types
        csv_out = io.StringIO()
        export_csv(journal, durable.game_id, csv_out)
        assert "rent for Coventry Street" in csv_out.getvalue()
