"""The rules once: where the two rulesets' rules are the same, one shared piece both use (docs/architecture.md,
"Where each rule lives").

Moving round the board and passing GO (engine/moves.py), the turn order, the start's checks and End turn
(engine/turns.py), the player and deed checks (engine/rulesets/api.py), the bidding of an auction
(engine/auction.py), the shape of a state's snapshot (engine/state.py), the reading of event cards
(engine/editions.py), a ruleset's record (api.ruleset_in) and a deed's landing gesture
(engine/banker/gestures/deeds.py). Each test runs both rulesets through the same piece and fails if either
ruleset goes its own way again.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import auction, moves, turns
from engine import commands as c
from engine import events as ev
from engine.banker.binding import handler_functions
from engine.banker.gestures import SHARED_HANDLERS, deeds
from engine.banker.plugins import ruleset_part
from engine.editions import EditionReader, load_edition
from engine.errors import EditionError
from engine.game import Game
from engine.rulesets.classic.ruleset import RULESET as CLASSIC
from engine.rulesets.ultimate.ruleset import RULESET as ULTIMATE

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = {"classic": "classic-us", "ultimate": "ultimate-uk"}
LANDING = ("pick_deed", "pick_player", "is_lander", "deed_unowned", "deed_own", "deed_other", "can_consider_buy",
           "can_buy", "do_buy", "can_decline", "do_decline", "can_pay_rent", "do_pay_rent")


def started(ruleset: str, *players: str, **options: object) -> Game:
    game = Game(load_edition(EDITIONS[ruleset]))
    specs = tuple(c.PlayerSpec(p, p.lower(), "red") for p in players or ("A", "B", "C"))
    game.apply(c.StartGame(specs, dict(options), 3))
    return game


def refusal(game: Game, cmd: object) -> tuple[str, str]:
    reason = game.check(cmd)
    assert reason is not None
    return reason.key, str(reason)


# -- the turn order ------------------------------------------------------------------------------------------


@given(st.integers(2, 8).flatmap(lambda n: st.tuples(st.just(n), st.sets(st.integers(0, n - 1), max_size=n - 1),
                                                     st.integers(0, n - 1))))
def test_the_turn_goes_round_the_active_players_in_order(case: tuple[int, set[int], int]) -> None:
    """From any player, following the turn visits every active player once, in registration order."""
    n, out, first = case
    order = tuple(f"p{i}" for i in range(n))
    seats = SimpleNamespace(order=order, bankrupt=frozenset(order[i] for i in out))
    after = [order[(first + k) % n] for k in range(1, n + 1)]
    expected = [p for p in after if p not in seats.bankrupt]
    seen, p = [], order[first]
    for _ in expected:
        p = turns.next_active(seats, p)  # type: ignore[arg-type]
        seen.append(p)
    assert seen == expected


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_end_turn_is_refused_alike_in_both_rulesets(ruleset: str) -> None:
    """Only the player whose turn it is ends it: the same refusal, word for word, in both rulesets."""
    game = started(ruleset)
    assert refusal(game, c.EndTurn("B")) == (
        "not_your_turn", "EndTurn: expected the player whose turn it is (A), got 'B'")
    assert refusal(game, c.EndTurn("Z"))[0] == "unknown_player"
    game.apply(c.EndTurn("A"))
    assert game.state.turn == "B"


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_a_bad_option_at_the_start_is_refused_alike(ruleset: str) -> None:
    game = Game(load_edition(EDITIONS[ruleset]))
    cmd = c.StartGame((c.PlayerSpec("A"), c.PlayerSpec("B")), {"max_players": 1}, 3)
    key, text = refusal(game, cmd)
    assert key == "bad_option" and text.startswith("StartGame: option max_players expects 2..8")
    assert refusal(game, c.StartGame((c.PlayerSpec("A"),), {}, 3))[0] == "bad_player_count"


# -- moving round the board ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_the_roll_is_the_shared_one_with_each_rulesets_salary(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both rulesets' RollDice goes through engine.moves.do_roll; each says only its salary and its jail."""
    calls: list[str] = []
    shared = moves.do_roll

    def spy(t: object, cmd: c.RollDice, how: moves.Moves) -> None:
        calls.append(cmd.player)
        shared(t, cmd, how)  # type: ignore[arg-type]

    monkeypatch.setattr(moves, "do_roll", spy)
    game = started(ruleset, positions=True)
    size = len(game.edition.spaces)
    game.apply(c.RollDice("A", 3, 4))  # 0 -> 7, no double: A is done
    events = game.apply(c.RollDice("B", 6, 5))  # B's roll passes the turn to B first
    assert [type(e) for e in events][:2] == [ev.TurnEnded, ev.DiceRolled]
    assert calls == ["A", "B"] and game.state.position["B"] == 11 % size


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_the_third_double_goes_to_jail_without_moving_in_both(ruleset: str) -> None:
    game = started(ruleset, positions=True)
    game.apply(c.RollDice("A", 1, 1))
    game.apply(c.RollDice("A", 2, 2))
    start = game.state.position["A"]
    events = game.apply(c.RollDice("A", 3, 3))
    rolled = [e for e in events if isinstance(e, ev.DiceRolled)]
    assert (rolled[0].start, rolled[0].end, rolled[0].doubles) == (start, start, 3)
    assert "A" in game.state.jail and game.state.roll == ("A", 0, False)


# -- the bidding of an auction ----------------------------------------------------------------------------------


def auction_open(ruleset: str) -> Game:
    game = started(ruleset, auction=True) if ruleset == "ultimate" else started(ruleset)
    deed = min(game.edition.deeds)
    game.apply(c.DeclineDeed("A", deed))
    assert game.state.phase == "auction"
    return game


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_the_bidding_is_refused_alike_and_sells_to_the_high_bidder(ruleset: str) -> None:
    game = auction_open(ruleset)
    cash = game.state.balance("B")
    assert refusal(game, c.PlaceBid("Z", 100)) == (
        "not_a_bidder", "PlaceBid: 'Z' may not bid; expected one of ['A', 'B', 'C']")
    assert refusal(game, c.PlaceBid("B", cash + 100)) == (
        "bid_over_cash", f"PlaceBid: a bid of {cash + 100} is more than B's cash {cash}")
    game.apply(c.PlaceBid("B", 100))
    events = game.apply(c.CloseAuction())
    assert isinstance(events[0], ev.AuctionWon) and (events[0].player, events[0].amount) == ("B", 100)


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_each_ruleset_says_only_which_amounts_it_takes(ruleset: str) -> None:
    """The amount check is the ruleset's own: Ultimate Banking's step, the classic minimum above the high bid."""
    game = auction_open(ruleset)
    game.apply(c.PlaceBid("B", 100))
    key = refusal(game, c.PlaceBid("C", 100))[0]
    assert key == {"classic": "bid_below_minimum", "ultimate": "bid_too_low"}[ruleset]


def test_an_auction_without_a_bid_leaves_the_deed_with_the_bank() -> None:
    emitted: list[tuple[object, ...]] = []
    table = SimpleNamespace(emit=lambda cls, *fields: emitted.append((cls, *fields)))
    lot = SimpleNamespace(deed=3, bidders=("A",), high_bid=0, high_bidder=None)
    assert auction.sell(table, lot) is False  # type: ignore[arg-type]
    assert emitted == [(ev.AuctionEnded, 3)]


# -- a state's snapshot ------------------------------------------------------------------------------------------


def test_both_states_snapshot_the_shared_shape() -> None:
    shared = {"phase", "edition", "options", "order", "specs", "ledger", "owner", "level", "jail", "bankrupt",
              "turn", "standings", "seed", "position", "roll"}
    classic, ultimate = started("classic").state, started("ultimate").state
    assert shared <= classic.snapshot().keys() and shared <= ultimate.snapshot().keys()
    assert classic.players["A"].balance == classic.balance("A")
    assert ultimate.players["B"].deeds == ()


# -- event cards in an edition file -------------------------------------------------------------------------------


def card_reader() -> EditionReader:
    return EditionReader(Path("test.toml"))


def test_event_cards_are_read_with_ids_in_order_and_unique_keys() -> None:
    r = card_reader()

    def read(t: object, where: str, card_id: int) -> object:
        return r.card(t, where, card_id, "bonus", "none", 0)  # type: ignore[arg-type]

    good = {"events": [{"id": 1, "key": "a", "name": "A", "text": "x"}, {"id": 2, "key": "b", "name": "B",
                                                                          "text": "y"}]}
    assert [c_.key for c_ in r.cards(good, "events", read)] == ["a", "b"]  # type: ignore[arg-type]
    with pytest.raises(EditionError, match=r"events\[1\]\.id: expected ids 1, 2, ... in order"):
        r.cards({"events": [good["events"][0], {**good["events"][1], "id": 3}]}, "events", read)  # type: ignore[arg-type]
    with pytest.raises(EditionError, match="expected unique keys"):
        r.cards({"events": [good["events"][0], {**good["events"][1], "key": "a"}]}, "events", read)  # type: ignore[arg-type]


# -- a ruleset's record and the landing gesture --------------------------------------------------------------------


@pytest.mark.parametrize("record", [CLASSIC, ULTIMATE], ids=["classic", "ultimate"])
def test_a_rulesets_record_is_laid_out_by_its_folder(record: object) -> None:
    assert record.gestures == f"engine.rulesets.{record.name}.gestures"  # type: ignore[attr-defined]
    code = ("import sys; from engine.rulesets.registry import get_ruleset; "
            f"r = get_ruleset({record.name!r}); "  # type: ignore[attr-defined]
            "print(any(m.endswith('.sim') or m.endswith('.bots') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"  # the simulator is loaded only when a game is simulated


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_the_landing_gesture_is_the_shared_one(ruleset: str) -> None:
    """No plug-in defines its own landing handler, and both plug-ins' rows name the shared ones."""
    rows, handlers = ruleset_part(ruleset)
    assert not set(LANDING) & set(handler_functions(handlers))
    shared = handler_functions(SHARED_HANDLERS)
    assert all(shared[name].__module__ == deeds.__name__ for name in LANDING)
    named = {n for r in rows.gestures for key in ("conditions", "after")
             for n in ([r.get(key)] if isinstance(r.get(key), str) else r.get(key) or [])}
    assert {"pick_deed", "pick_player", "can_buy", "do_buy", "can_pay_rent", "is_lander"} <= named


def test_the_ultimate_simulator_moves_its_tokens_as_advance_does() -> None:
    """The simulator's table moves its own tokens inline (its hot path): the same square and the same GO as
    engine.moves.advance, from every square with every roll."""
    from engine.rulesets.ultimate.sim import GameRunner

    runner = GameRunner(load_edition(EDITIONS["ultimate"]), 2, 1)
    size = len(runner.edition.spaces)
    sent: list[object] = []
    runner.send = sent.append  # type: ignore[method-assign]
    runner._land = lambda player, position: None  # type: ignore[method-assign]
    for start in range(size):
        for steps in range(2, 13):
            runner.positions["p1"], sent[:] = start, []
            runner._move("p1", steps)
            assert (runner.positions["p1"], sent == [c.PassGo("p1")]) == moves.advance(start, steps, size)
