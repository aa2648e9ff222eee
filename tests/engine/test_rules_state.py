"""The game's read side and refusals: views, rent, wealth, standings, check() == apply() reasons."""

from __future__ import annotations

import pytest

from engine.commands import (
    BuyDeed,
    DeclineDeed,
    GoToJail,
    JailRoll,
    PayJailFee,
    PayRent,
    PlaceBid,
    PlayerSpec,
    StartGame,
)
from engine.editions import load_edition
from engine.errors import EngineError, IllegalCommand
from engine.game import Game
from engine.rulesets.ultimate.commands import DrawEvent, LandOnOwn, ResolveEvent, UseLocation
from engine.rulesets.ultimate.standings import compute_standings

ED = load_edition("ultimate-uk")


def started(*players: str) -> Game:
    game = Game(ED)
    game.apply(StartGame(tuple(PlayerSpec(p, p.lower(), "red") for p in players), {}, 1))
    return game


def test_views() -> None:
    game = started("A", "B")
    game.apply(BuyDeed("A", 16))
    game.apply(LandOnOwn("A", 16))
    s = game.state
    a = s.players["A"]
    assert (a.balance, a.deeds, a.in_jail, a.bankrupt, a.name, a.token) == (1240, (16,), False, False, "a", "red")
    assert s.deeds[16].owner == "A" and s.deeds[16].level == 2
    assert s.deeds[15].owner is None and s.deeds[15].level is None and len(s.deeds) == 22
    assert s.rent_due(16) == 280 and s.rent_due(15) == 0
    assert s.wealth("A") == 1500 and s.wealth("B") == 1500
    assert s.active_players() == ("A", "B") and s.turn == "A"
    assert s.snapshot()["owner"] == {16: "A"}


def test_standings_ties() -> None:
    balances = {"A": 600, "B": 880, "C": 1000, "D": 1000}
    owner = {22: "A", 1: "B", 2: "B"}
    rows = compute_standings(ED, ("A", "B", "C", "D"), balances, owner)
    assert [(r.player, r.rank, r.total, r.top_deed) for r in rows] == [
        ("A", 1, 1000, 400), ("B", 2, 1000, 60), ("C", 3, 1000, 0), ("D", 3, 1000, 0)]
    assert rows[0].cash == 600 and rows[0].deeds_value == 400


def test_a_bankrupt_player_ranks_below_every_solvent_player() -> None:
    """docs/rules.md 1.6 and 6.2: the standings rank wealth at the first bankruptcy; the bankrupt player is
    out of the game, so even a solvent player with nothing left ranks above them."""
    balances = {"A": 4500, "B": 0, "C": 0}
    rows = compute_standings(ED, ("A", "B", "C"), balances, {}, frozenset({"B"}))
    assert [(r.rank, r.player, r.total) for r in rows] == [(1, "A", 4500), (2, "C", 0), (3, "B", 0)]
    two = compute_standings(ED, ("A", "B", "C"), balances, {}, frozenset({"B", "C"}))
    assert [(r.rank, r.player) for r in two] == [(1, "A"), (2, "B"), (2, "C")]


def test_the_game_ends_with_the_bankrupt_player_last() -> None:
    """A game that ends by B's bankruptcy while C has nothing left: B is last, not level with C."""
    game = Game(ED)
    game.apply(StartGame(tuple(PlayerSpec(p) for p in "ABC"), {"start_money": 0}, 1))
    game.apply(GoToJail("B"))
    game.apply(PayJailFee("B"))  # no cash, no deeds: bankrupt at once (docs/rules.md 1.15)
    assert game.state.phase == "over"
    assert [(r.rank, r.player) for r in game.state.standings()] == [(1, "A"), (1, "C"), (3, "B")]


def test_illegal_command_is_a_value_error_and_changes_nothing() -> None:
    game = started("A", "B", "C")
    game.apply(BuyDeed("A", 16))
    before = game.state.snapshot()
    n = len(game.events)
    for cmd in [BuyDeed("B", 16), PayRent("A", 16), PayRent("B", 15), PlaceBid("B", 20), JailRoll("A", False),
                ResolveEvent("A", ()), BuyDeed("B", "16"), PlaceBid("B", "x"), JailRoll("A", "yes"),  # type: ignore[arg-type]
                DrawEvent("Q"), LandOnOwn("B", 16), DrawEvent("A", True), DrawEvent("A", 1, True),  # type: ignore[arg-type]
                UseLocation("A", 16, True), StartGame((PlayerSpec("X", None),), {}, 1)]:  # type: ignore[arg-type]
        reason = game.check(cmd)
        assert reason, cmd
        with pytest.raises(IllegalCommand) as info:
            game.apply(cmd)
        assert str(info.value) == reason
        assert isinstance(info.value, ValueError) and isinstance(info.value, EngineError)
        assert game.state.snapshot() == before and len(game.events) == n


def test_bool_is_not_a_number_in_a_choice() -> None:
    game = started("A", "B")
    game.apply(BuyDeed("A", 1))
    game.apply(DrawEvent("A", 7))  # GRAND DESIGNS: one of your deeds
    assert "names and numbers" in str(game.check(ResolveEvent("A", (True,))))
    assert game.check(ResolveEvent("A", (1,))) is None


def test_unknown_command_object() -> None:
    game = started("A", "B")
    assert "expected a command" in str(game.check("buy"))  # type: ignore[arg-type]


def test_events_are_numbered() -> None:
    game = started("A", "B")
    game.apply(DeclineDeed("A", 3))
    game.apply(PlaceBid("B", 20))
    assert [e.seq for e in game.events] == list(range(1, len(game.events) + 1))
    assert [e.command for e in game.events] == [1, 2, 2, 3]
    assert game.commands_applied == 3


RULES_CORE = ["errors", "options", "editions", "commands", "events", "state", "ledger", "game", "invariants", "players",
              "corrections", "records", "numbers", "moves"]


def test_engine_core_is_pure() -> None:
    """No UI/device libraries, no wall clock, no global randomness in the rules core (docs/architecture.md)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "engine"
    files = [root / f"{name}.py" for name in RULES_CORE] + sorted((root / "rulesets" / "ultimate").glob("*.py"))
    forbidden = re.compile(
        r"^\s*(import|from)\s+(kivy|serial|smartcard|time|datetime)\b"
        r"|random\.(random|randint|choice|shuffle|seed|randrange)\("
        r"|\btime\.(time|monotonic)\(|datetime\.now", re.M)
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not forbidden.search(text), f"{path.name}: {forbidden.search(text)}"
    assert "random.Random(" in (root / "rulesets" / "ultimate" / "turns.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(("tamper", "problem"), [
    (lambda s: s.ledger.balances.__setitem__("A", 5000), "money issued"),
    (lambda s: s.level.__setitem__(16, 6), "deed 16 has level 6"),
    (lambda s: s.level.pop(16), "owned deeds [16] != deeds with a level []"),
    (lambda s: s.owner.__setitem__(3, "Z"), "owned by unknown player 'Z'"),
    (lambda s: setattr(s, "bankrupt", frozenset({"A"})), "bankrupt player A owns deed 16"),
    (lambda s: setattr(s, "phase", "debt"), "phase debt but debt details absent"),
    (lambda s: setattr(s, "phase", "dancing"), "unknown phase 'dancing'"),
    (lambda s: setattr(s, "deck", s.deck[1:]), "not a permutation"),
    (lambda s: s.jail.__setitem__("B", 7), "jail entry 'B' with 7 tries"),
    (lambda s: setattr(s, "turn", "Q"), "turn with 'Q'"),
])
def test_invariants_detect_tampering(tamper, problem: str) -> None:  # type: ignore[no-untyped-def]
    """The invariant function is not blind: each kind of corruption is reported."""
    game = started("A", "B")
    game.apply(BuyDeed("A", 16))
    assert game.invariants() == []
    tamper(game.state)
    problems = game.invariants()
    assert any(problem in p for p in problems), problems
