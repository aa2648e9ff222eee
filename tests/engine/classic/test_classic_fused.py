"""The simulator's fused commands (engine/rulesets/classic/fused.py) against the rules: whatever a fused
command accepts, the rule accepts too and leaves the same state; whatever it declines, it leaves alone; its
check of a sale answers as the table's ``check``. Compared from many states of whole bot
games (every player, every deed), with the options the fused commands take and with options that change
the rules; then the games played with and without them, and a broken fused command caught by the watch."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from engine import commands as c
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic import fused
from engine.rulesets.classic.options import Options
from engine.rulesets.classic.rules import rules_for
from engine.rulesets.classic.sim import ClassicRunner
from engine.rulesets.classic.state import ClassicState
from engine.rulesets.classic.table import SimTable

US = load_edition("classic-us")

# fused method -> the command it stands for
BY_PLAYER: dict[str, Callable[..., c.Command]] = {"end_turn": c.EndTurn, "pass_go": c.PassGo,
                                                  "settle": cc.SettleDebt, "go_to_jail": c.GoToJail,
                                                  "pay_fine": c.PayJailFee}
BY_DEED: dict[str, Callable[..., c.Command]] = {"buy": c.BuyDeed, "pay_rent": c.PayRent, "build": cc.BuildHouse,
                                                "sell": cc.SellBuilding}
CARD_SPACES = (2, 7, 17, 22, 33, 36, 0, 4)  # Chance and Community Chest, and two other squares
CHECKS: dict[str, Callable[..., c.Command]] = {"may_sell": cc.SellBuilding}


def _by_the_rules(before: ClassicState, cmd: c.Command, moves: list[int] | None = None) -> ClassicState | None:
    """The state after ``cmd`` through the lean table's rules from ``before``, or None if refused; the
    squares of its ``TokenMoved`` events appended to ``moves``."""
    table = SimTable(US)
    table.state = before.copy()
    table._rules = rules_for(before.options)
    try:
        events = table.apply(cmd)
    except IllegalCommand:
        return None
    if moves is not None:
        moves.extend(e.position for e in events if type(e).__name__ == "TokenMoved")
    return table.state


def _compare(s: ClassicState, name: str, cmd: c.Command, args: tuple[Any, ...],
             seen: Counter[tuple[str, bool]]) -> None:
    after = s.copy()
    got = getattr(fused.Fused(after, US), name)(*args)
    done = got is True or (name == "draw" and got >= 0)  # a draw answers the token's square, or -1
    seen[name, done] += 1
    if done:
        moves: list[int] = []
        assert _by_the_rules(s, cmd, moves) == after, (name, args)
        if name == "draw":  # the token's square: the card's move, else where it stood
            assert got == (moves[-1] if moves else args[1]), (args, moves, got)
            seen["draw moved", bool(moves)] += 1
    else:
        assert after == s, (name, args)


def _offers(s: ClassicState, player: str) -> list[cc.ProposeTrade]:
    """Deals ``player`` might offer from ``s``: cash for a deed of each partner's (the bots' sale), and the
    odd ones the fused proposal leaves to the rule (deeds each way, a card, a bool or a repeated deed)."""
    out = []
    for partner in s.order:
        theirs = [d for d, o in sorted(s.owner.items()) if o == partner][:3]
        for deed in (*theirs, 5):
            for cash in (0, 150, 10**6):
                out.append(cc.ProposeTrade(player, partner, give_cash=cash, take_deeds=(deed,)))
        if theirs:
            d = theirs[0]
            out += [cc.ProposeTrade(player, partner, give_cash=True, take_deeds=(d,)),
                    cc.ProposeTrade(player, partner, give_cash=10, take_deeds=(d, d)),
                    cc.ProposeTrade(player, partner, take_deeds=(d,), take_cash=1),
                    cc.ProposeTrade(player, partner, give_deeds=(d,), take_deeds=tuple(theirs[1:2])),
                    cc.ProposeTrade(player, partner, give_cash=10, take_deeds=tuple(theirs), take_cards=(1,))]
    return out


def _compare_all(s: ClassicState, seen: Counter[tuple[str, bool]]) -> None:
    """Every fused command and check, for every player (and a stranger) and every deed, from ``s``."""
    table = SimTable(US)
    table.state = s
    table._rules = rules_for(s.options)
    _compare(s, "close", c.CloseAuction(), (), seen)
    for player in (*s.order, "ghost"):
        high = s.auction.high_bid if s.auction is not None else 0
        for amount in (0, 1, high, high + 1, high + 50, 10**6, True):
            _compare(s, "bid", c.PlaceBid(player, amount), (player, amount), seen)
        for name, make in BY_PLAYER.items():
            _compare(s, name, make(player), (player,), seen)
        for position in (0, 4, 38, 5):
            _compare(s, "pay_tax", cc.PayTax(player, position, False), (player, position), seen)
        for position in CARD_SPACES:
            _compare(s, "draw", cc.DrawCard(player, position), (player, position), seen)
        for deed in (8, 21, 3):  # the utilities and a street
            for dice in (1, 2, 7, 12, 13):
                _compare(s, "utility_rent", cc.PayUtilityRent(player, deed, dice), (player, deed, dice), seen)
        for offer in _offers(s, player):
            _compare(s, "propose", offer, (offer,), seen)
            proposed = _by_the_rules(s, offer)
            if proposed is not None:  # the open offer: accepted by each player (the partner's alone is taken)
                for other in (*s.order, "ghost"):
                    _compare(proposed, "accept", cc.AcceptTrade(other), (other,), seen)
        for deed in range(0, 30):
            for name, make in BY_DEED.items():
                _compare(s, name, make(player, deed), (player, deed), seen)
            for name, make in CHECKS.items():
                got = getattr(fused.Fused(s, US), name)(player, deed)
                assert got == (table.check(make(player, deed)) is None), (name, player, deed)
                seen[name, got] += 1


@pytest.mark.parametrize(("options", "players", "seed"), [
    ({}, 4, 1), ({}, 2, 2), ({"free_parking_jackpot": True}, 4, 3), ({"short_game": True}, 3, 4),
    ({"rent_must_be_claimed": True, "even_build": False, "houses_in_bank": 12}, 4, 5),
    ({"late_game_rent_tax": True, "one_house_per_set": True}, 4, 6), ({"hotels_in_bank": 1}, 3, 7),
])
def test_every_fused_command_from_states_of_games_is_what_the_rule_does(options: dict[str, object], players: int,
                                                                       seed: int) -> None:
    seen: Counter[tuple[str, bool]] = Counter()
    rng = random.Random(seed)
    for game_seed in (seed, seed + 10):
        table = SimTable(US)

        def apply(cmd: Any, table: SimTable = table) -> Any:
            events = table.apply(cmd)
            if table.state.phase in ("play", "debt", "auction") and rng.random() < 0.015:
                _compare_all(table.state, seen)
            return events

        result = ClassicRunner(US, players, game_seed, options=options, game=table, apply=apply,
                               check_invariants=False, turn_cap=400).play()
        assert not result.violations
    names = {*BY_PLAYER, *BY_DEED, *CHECKS, "pay_tax", "draw", "utility_rent", "propose", "accept", "bid", "close"}
    done = {name for (name, ok), n in seen.items() if ok}
    rent = set() if options.get("late_game_rent_tax") else {"pay_rent"}  # the rent tax: always the rule's
    assert done >= {"end_turn", "pass_go", "pay_tax", "buy", "draw", "go_to_jail", "propose",
                    "accept", *rent}, \
        sorted(done)
    assert {name for (name, ok), n in seen.items() if not ok} - {"draw moved"} == names, seen


def test_the_fused_commands_run_buildings_sales_and_every_kind_from_some_state() -> None:
    seen: Counter[tuple[str, bool]] = Counter()
    counted = Counter[str]()
    table = SimTable(US)

    def apply(cmd: Any) -> Any:
        events = table.apply(cmd)
        counted[type(cmd).__name__] += 1
        if type(cmd).__name__ in ("BuildHouse", "SellBuilding", "MortgageDeed", "PayTax", "JailRoll",
                                  "GoToJail", "DeclineDeed", "PlaceBid") and counted[type(cmd).__name__] % 5 == 1:
            _compare_all(table.state, seen)
        return events

    # game 3: since pay_debt_with_deeds is on by default, games 1, 2, 4 and 5 sample no state where a
    # mortgage is lifted; game 3's samples reach every kind
    ClassicRunner(US, 4, 3, game=table, apply=apply, check_invariants=False).play()
    assert all(seen[name, True] > 0 for name in (*BY_PLAYER, *BY_DEED, *CHECKS, "pay_tax", "draw",
                                                 "utility_rent", "draw moved", "propose", "accept", "bid",
                                                 "close")), seen


@pytest.mark.parametrize(("seed", "options"), [(1, {}), (2, {"free_parking_jackpot": True}), (3, {"short_game": True})])
def test_the_fused_game_is_the_game_of_the_table(seed: int, options: dict[str, object]) -> None:
    """With the fused commands off, the same game, command for command, to the same state."""
    fast = ClassicRunner(US, 4, seed, options=options, check_invariants=True)
    slow = ClassicRunner(US, 4, seed, options=options, check_invariants=True, fusing=False)
    a, b = fast.play(), slow.play()
    assert fast._fz is not None and slow._fz is None
    assert not a.violations and not b.violations
    assert (a.turns, a.commands, a.rolls, a.landings, a.in_jail, a.winner) == \
        (b.turns, b.commands, b.rolls, b.landings, b.in_jail, b.winner)
    assert fast.state == slow.state


@pytest.mark.parametrize("options", [{}, {"free_parking_jackpot": True}, {"short_game": True},
                                     {"late_game_rent_tax": True}])
def test_the_rules_only_path_plays_the_games_of_the_fused_path(options: dict[str, object]) -> None:
    """The simulator's quiet play (no watch) with the fused commands off, every command through the rule's
    check and do, plays the same games to the same states as with them, seed for seed."""
    for seed in range(12):
        fused_on = ClassicRunner(US, 4, seed, options=options, check_invariants=False)
        rules = ClassicRunner(US, 4, seed, options=options, check_invariants=False, fusing=False)
        a, b = fused_on.play(), rules.play()
        assert rules._fz is None and rules._quiet
        assert (a.turns, a.commands, a.rolls, a.landings, a.in_jail, a.winner, a.completed) == \
            (b.turns, b.commands, b.rolls, b.landings, b.in_jail, b.winner, b.completed), seed
        assert fused_on.state == rules.state, seed
        assert not rules.game.invariants()


def test_options_that_change_the_rules_leave_the_fused_commands_out() -> None:
    assert fused.usable(Options())
    assert not fused.usable(Options.from_mapping({"positions": True}))
    assert not fused.usable(Options.from_mapping({"second_text": True}))
    runner = ClassicRunner(US, 4, 1, options={"second_text": True}, check_invariants=False, turn_cap=5)
    runner.play()
    assert runner._fz is None


@pytest.mark.skipif(not fused.__file__.endswith(".py"), reason="a compiled class takes no interpreted subclass")
def test_a_fused_command_with_a_bad_check_is_reported_by_check_every(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fused rent that forgot its cash check (money out of nowhere) is caught by ``--check every``."""

    class Broken(fused.Fused):
        def pay_rent(self, payer: str, deed: int) -> bool:
            owner = self.s.owner.get(deed)
            if owner is not None and owner != payer and self.s.phase == "play":
                self.s.ledger.balances[owner] += 1  # paid to the owner, taken from no one
            return super().pay_rent(payer, deed)

    monkeypatch.setattr(fused, "Fused", Broken)
    result = ClassicRunner(US, 4, 1, check_invariants=True).play()
    assert any("money issued" in v and "PayRent" in v for v in result.violations), result.violations[:3]
