"""Refusals carry a translation key and params (engine/errors.py, docs/engine-api.md "Refusals").

Every key of ``REFUSAL_KEYS`` is driven here through real commands: ``check()`` returns a ``Refusal`` with
that key and exactly the expected params, and ``apply()`` raises ``IllegalCommand`` with the same text, key
and params. The keys the engine's sources pass to ``refuse()`` must equal ``REFUSAL_KEYS`` (plus the
``"illegal"`` fallback), so a new refusal cannot go without a key or a test.
"""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import events as ev
from engine.commands import (
    BuyDeed,
    CorrectMoney,
    DeclineDeed,
    EndTurn,
    GoToJail,
    JailRoll,
    PassGo,
    PayJailFee,
    PayRent,
    PlaceBid,
    PlayerSpec,
    RollDice,
    StartGame,
    Undo,
)
from engine.editions import load_edition
from engine.errors import ILLEGAL, REFUSAL_KEYS, IllegalCommand, Refusal, refuse
from engine.game import Game
from engine.rulesets.ultimate.base import check_player
from engine.rulesets.ultimate.commands import DrawEvent, LandOnOwn, ResolveEvent, ReturnDeed, UseLocation

ED = load_edition("ultimate-uk")
ENGINE = Path(__file__).resolve().parents[2] / "engine"
ANY_DEED_CARD = next(card for card in ED.events if card.choice == "any_deed")


def start(*players: str, **options: object) -> StartGame:
    return StartGame(tuple(PlayerSpec(p, p.lower(), "red") for p in players), options, 1)


def fresh() -> Game:
    return Game(ED)


def started(**options: object) -> Game:
    game = Game(ED)
    game.apply(start("A", "B", "C", **options))
    return game


def after(*cmds: Any, **options: object) -> Callable[[], Game]:
    """A game of A, B, C (with ``options``) after ``cmds``."""
    def make() -> Game:
        game = started(**options)
        for cmd in cmds:
            game.apply(cmd)
        return game
    return make


def drew_any_deed() -> Game:
    return after(DrawEvent("A", card=ANY_DEED_CARD.id))()


# B owes A 70 (rent of deed 1) with 0 cash and deed 19 to return
IN_DEBT = after(BuyDeed("A", 1), BuyDeed("B", 19), PayRent("B", 1), start_money=300)

E, L = "2, 4, 11, 20, 29, 32", "7, 16, 25, 34"  # the Event and Location spaces of the board

CASES: list[tuple[str, Callable[[], Game], Any, dict[str, str | int]]] = [
    # engine/game.py
    ("unknown_command", fresh, PlayerSpec("A"),
     {"command": "PlayerSpec", "got": "PlayerSpec(id='A', name='', token='')"}),
    ("nothing_to_undo", fresh, Undo(), {"command": "Undo"}),
    ("game_not_started", fresh, PassGo("A"), {"command": "PassGo", "phase": "setup"}),
    ("game_over", after(BuyDeed("A", 1), PayRent("B", 1), start_money=60), PassGo("A"), {"command": "PassGo"}),
    ("malformed_command", fresh, StartGame(None, None, 1),  # type: ignore[arg-type]
     {"command": "StartGame", "got": "StartGame(players=None, options=None, seed=1)",
      "error": "'NoneType' object is not a mapping"}),
    # engine/rulesets/ultimate/base.py
    ("wrong_phase", started, start("A", "B"), {"command": "StartGame", "expected": "setup", "phase": "play"}),
    ("wrong_phase", started, PlaceBid("A", 20), {"command": "PlaceBid", "expected": "auction", "phase": "play"}),
    ("unknown_player", started, PassGo("Z"), {"command": "PassGo", "player": "Z", "players": "A, B, C"}),
    ("unknown_player", started, PassGo(7),  # type: ignore[arg-type]
     {"command": "PassGo", "player": 7, "players": "A, B, C"}),
    ("player_in_jail", after(GoToJail("A")), BuyDeed("A", 1), {"command": "BuyDeed", "player": "A"}),
    ("unknown_deed", started, BuyDeed("A", 99), {"command": "BuyDeed", "deed": 99, "deeds": 22}),
    # engine/rulesets/ultimate/turns.py
    ("bad_option", fresh, start("A", "B", nope=1),
     {"command": "StartGame", "error": Game(ED).check(start("A", "B", nope=1)).removeprefix("StartGame: ")}),  # type: ignore[union-attr]
    ("bad_player_count", fresh, start("A"),
     {"command": "StartGame", "min": 2, "max": 4, "count": 1, "players": "A"}),
    ("duplicate_players", fresh, start("A", "B", "A"), {"command": "StartGame", "player": "A", "players": "A, B, A"}),
    ("bad_player_id", fresh, start("A", "bank"), {"command": "StartGame", "player": "bank", "bank": "bank"}),
    ("bad_player_text", fresh, StartGame((PlayerSpec("A", "a", "red"), PlayerSpec("B", 5, "red")), {}, 1),  # type: ignore[arg-type]
     {"command": "StartGame", "player": "B", "name": 5, "token": "red"}),
    ("bad_seed", fresh, StartGame(start("A", "B").players, {}, "x"),  # type: ignore[arg-type]
     {"command": "StartGame", "seed": "x"}),
    ("bad_seed", fresh, StartGame(start("A", "B").players, {}, 1.5),  # type: ignore[arg-type]
     {"command": "StartGame", "seed": "1.5"}),
    ("not_your_turn", started, EndTurn("B"), {"command": "EndTurn", "turn": "A", "player": "B"}),
    # engine/rulesets/ultimate/levels.py
    ("deed_owned", after(BuyDeed("A", 16)), BuyDeed("B", 16), {"command": "BuyDeed", "deed": 16, "owner": "A"}),
    ("deed_owned", after(BuyDeed("A", 16)), DeclineDeed("B", 16),
     {"command": "DeclineDeed", "deed": 16, "owner": "A"}),
    ("not_enough_cash", after(start_money=100), BuyDeed("A", 16),
     {"command": "BuyDeed", "player": "A", "cash": 100, "deed": 16, "price": 260}),
    ("deed_not_yours", after(BuyDeed("A", 16)), LandOnOwn("B", 16),
     {"command": "LandOnOwn", "deed": 16, "player": "B", "owner": "A"}),
    ("deed_not_yours", started, LandOnOwn("B", 16), {"command": "LandOnOwn", "deed": 16, "player": "B", "owner": "bank"}),
    ("deed_unowned", started, PayRent("A", 15), {"command": "PayRent", "deed": 15}),
    ("deed_is_own", after(BuyDeed("A", 16)), PayRent("A", 16), {"command": "PayRent", "deed": 16, "player": "A"}),
    ("not_a_location_space", started, UseLocation("A", 16, origin=3),
     {"command": "UseLocation", "origin": 3, "spaces": L}),
    ("not_enough_cash_location_fee", after(start_money=50), UseLocation("A", 16),
     {"command": "UseLocation", "player": "A", "cash": 50, "fee": 100}),
    # engine/rulesets/ultimate/auction.py
    ("not_a_bidder", after(DeclineDeed("A", 16)), PlaceBid("Z", 20),
     {"command": "PlaceBid", "player": "Z", "bidders": "A, B, C"}),
    ("bid_too_low", after(DeclineDeed("A", 16), PlaceBid("B", 40)), PlaceBid("A", 40),
     {"command": "PlaceBid", "amount": 40, "step": 20, "high_bid": 40}),
    ("bid_too_low", after(DeclineDeed("A", 16)), PlaceBid("A", 30),
     {"command": "PlaceBid", "amount": 30, "step": 20, "high_bid": 0}),
    ("bid_over_cash", after(DeclineDeed("A", 16)), PlaceBid("A", 2000),
     {"command": "PlaceBid", "player": "A", "amount": 2000, "cash": 1500}),
    # engine/rulesets/ultimate/jail.py
    ("not_in_jail", started, PayJailFee("A"), {"command": "PayJailFee", "player": "A"}),
    ("jail_roll_done", after(GoToJail("A"), JailRoll("A", False)), JailRoll("A", False),
     {"command": "JailRoll", "player": "A"}),
    ("bad_doubles", after(GoToJail("A")), JailRoll("A", "yes"),  # type: ignore[arg-type]
     {"command": "JailRoll", "doubles": "yes"}),
    # engine/rulesets/ultimate/cards.py
    ("unknown_card", started, DrawEvent("A", card=99), {"command": "DrawEvent", "card": 99, "cards": 23}),
    ("not_an_event_space", started, DrawEvent("A", origin=1), {"command": "DrawEvent", "origin": 1, "spaces": E}),
    ("not_the_drawer", drew_any_deed, ResolveEvent("B", (1,)),
     {"command": "ResolveEvent", "drawer": "A", "player": "B"}),
    ("malformed_choice", drew_any_deed, ResolveEvent("A", (1.5,)),  # type: ignore[arg-type]
     {"command": "ResolveEvent", "choice": "(1.5,)"}),
    ("bad_choice", drew_any_deed, ResolveEvent("A", (99,)),
     {"command": "ResolveEvent", "card": ANY_DEED_CARD.id, "card_key": ANY_DEED_CARD.key, "expects": "any_deed",
      "examples": "[(1,), (2,), (3,), (4,), (5,), (6,)]", "choice": "(99,)"}),
    # engine/rulesets/ultimate/moves.py (the unit keeps the tokens)
    ("positions_off", started, RollDice("A", 3, 4), {"command": "RollDice"}),
    ("bad_dice", after(positions=True), RollDice("A", 3, 7),
     {"command": "RollDice", "die1": "3", "die2": "7"}),
    ("go_paid_by_move", after(positions=True), PassGo("A"), {"command": "PassGo", "player": "A"}),
    ("jail_roll_by_dice", after(GoToJail("A"), positions=True), JailRoll("A", True),
     {"command": "JailRoll", "player": "A"}),
    # engine/rulesets/ultimate/debt.py
    ("not_the_debtor", IN_DEBT, ReturnDeed("A", 1), {"command": "ReturnDeed", "debtor": "B", "player": "A"}),
    # engine/corrections.py
    ("bad_correction", started, CorrectMoney("A", "A", 10, "x"), {"command": "CorrectMoney", "problem": "same party"}),
    ("deed_not_yours", IN_DEBT, ReturnDeed("B", 1),
     {"command": "ReturnDeed", "deed": 1, "player": "B", "owner": "A", "deeds": "19"}),
]


@pytest.mark.parametrize(("key", "make", "cmd", "params"), CASES, ids=[c[0] for c in CASES])
def test_refusal_key_and_params(key: str, make: Callable[[], Game], cmd: Any, params: dict[str, str | int]) -> None:
    game = make()
    reason = game.check(cmd)
    assert isinstance(reason, Refusal) and type(reason.key) is str
    assert (reason.key, dict(reason.params)) == (key, params), str(reason)
    assert reason.startswith(f"{params['command']}: ") or key == "unknown_command"
    json.dumps(reason.params)  # JSON-safe
    assert all(type(v) in (str, int) for v in reason.params.values())
    before = game.state.snapshot(), len(game.events)
    with pytest.raises(IllegalCommand) as info:
        game.apply(cmd)
    assert str(info.value) == str(reason)
    assert (info.value.key, dict(info.value.params)) == (key, params)
    assert (game.state.snapshot(), len(game.events)) == before


def test_player_bankrupt() -> None:
    """The game ends at the first bankruptcy, so no command reaches a bankrupt player: the check is defensive.
    It is driven on the state just before ``GameEnded`` of a real game."""
    game = after(BuyDeed("A", 1), PayRent("B", 1), start_money=60)()
    state = Game.replay(ED, [e for e in game.events if type(e) is not ev.GameEnded]).state
    assert state.players["B"].bankrupt
    reason = check_player(state, "B", "PassGo")
    assert isinstance(reason, Refusal) and reason == "PassGo: player B is bankrupt"
    assert (reason.key, dict(reason.params)) == ("player_bankrupt", {"command": "PassGo", "player": "B"})


def test_replay_refusals() -> None:
    game = started()
    game.apply(PassGo("A"))
    first = game.events[0]
    with pytest.raises(IllegalCommand) as info:
        Game.replay(ED, [ev.CommandUndone(1, 1, 1)])
    assert info.value.key == "replay_nothing_to_undo"
    assert info.value.params == {"command": "CommandUndone", "event": "CommandUndone(seq=1, command=1, undone=1)"}
    with pytest.raises(IllegalCommand) as info:
        Game.replay(ED, [first, ev.CommandUndone(2, 2, 5)])
    assert str(info.value) == "CommandUndone: expected to undo command 1, got 5"
    assert (info.value.key, info.value.params) == ("replay_undo_mismatch",
                                                   {"command": "CommandUndone", "expected": 1, "got": 5})


def test_plain_illegal_command() -> None:
    exc = IllegalCommand("a deed gesture needs both a player card and a deed card")
    assert (exc.key, exc.params, str(exc)) == (ILLEGAL, {}, "a deed gesture needs both a player card and a deed card")
    assert IllegalCommand().key == ILLEGAL


def test_refusal_is_the_plain_sentence() -> None:
    reason = refuse("deed_owned", "BuyDeed: deed 16 is already owned by A; expected an unowned deed",
                    command="BuyDeed", deed=16, owner="A")
    assert reason == "BuyDeed: deed 16 is already owned by A; expected an unowned deed"
    assert repr(reason) == repr(str(reason)) and hash(reason) == hash(str(reason))
    assert json.dumps({"reason": reason}) == json.dumps({"reason": str(reason)})
    for copy in (pickle.loads(pickle.dumps(reason)), pickle.loads(pickle.dumps(IllegalCommand(reason))).args[0]):
        assert isinstance(copy, Refusal) and copy == reason
        assert (copy.key, copy.params) == (reason.key, reason.params)
    exc = pickle.loads(pickle.dumps(IllegalCommand(reason)))
    assert (exc.key, exc.params) == ("deed_owned", {"command": "BuyDeed", "deed": 16, "owner": "A"})


def test_accepted_commands_build_nothing() -> None:
    game = started()
    assert game.check(BuyDeed("A", 16)) is None and game.check(PassGo("B")) is None


def _keys_in_sources() -> set[str]:
    keys: set[str] = set()
    for path in [*sorted((ENGINE / "rulesets" / "ultimate").glob("*.py")), ENGINE / "game.py",
                 ENGINE / "corrections.py", ENGINE / "players.py", ENGINE / "moves.py",
                 ENGINE / "turns.py", ENGINE / "auction.py", ENGINE / "rulesets" / "api.py"]:
        keys |= set(re.findall(r'\brefuse\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return keys


def test_refusal_keys_are_complete() -> None:
    """``REFUSAL_KEYS`` is exactly the keys the rules and the game produce, each tested above."""
    assert _keys_in_sources() | {ILLEGAL} == REFUSAL_KEYS
    tested = {c[0] for c in CASES} | {"player_bankrupt", "replay_nothing_to_undo", "replay_undo_mismatch", ILLEGAL}
    assert tested == REFUSAL_KEYS
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", k) for k in REFUSAL_KEYS)


def test_no_plain_refusal_left() -> None:
    """Every refusal goes through ``refuse()``: no rule returns a bare f-string any more."""
    for path in [*sorted((ENGINE / "rulesets" / "ultimate").glob("*.py")), ENGINE / "game.py", ENGINE / "moves.py",
                 ENGINE / "turns.py", ENGINE / "auction.py"]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'return f?"', text), path
        assert "-> str | None" not in text, path
