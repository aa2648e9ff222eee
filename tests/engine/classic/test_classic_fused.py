"""The simulator's fused commands (engine/rulesets/classic/fused.py) against the rules: whatever a fused
command accepts, the rule accepts too and leaves the same state; whatever it declines, it leaves alone.
Checked on every fused call of whole bot games, and on random commands (any player, deed or square) at
random moments of them, with the options the fused commands take and with those that change the rules."""

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
from engine.rulesets.classic.rules import rules_for
from engine.rulesets.classic.sim import ClassicRunner
from engine.rulesets.classic.state import ClassicState
from engine.rulesets.classic.table import SimTable

US = load_edition("classic-us")

# fused function name -> (does it take the edition, the command it stands for)
FUSED: dict[str, tuple[bool, Callable[..., c.Command]]] = {
    "end_turn": (False, c.EndTurn), "pass_go": (False, c.PassGo), "buy": (True, c.BuyDeed),
    "pay_rent": (True, c.PayRent), "pay_tax": (True, lambda p, pos: cc.PayTax(p, pos, False)),
    "build": (True, cc.BuildHouse), "sell": (True, cc.SellBuilding), "mortgage": (True, cc.MortgageDeed),
    "settle": (False, cc.SettleDebt),
}


def _by_the_rules(before: ClassicState, cmd: c.Command) -> ClassicState | None:
    """The state after ``cmd`` through the lean table's rules from ``before``, or None if refused."""
    table = SimTable(US)
    table.state = before.copy()
    table._rules = rules_for(before.options)
    try:
        table.apply(cmd)
    except IllegalCommand:
        return None
    return table.state


def test_the_checks_of_a_sale_and_a_mortgage_are_the_rules() -> None:
    """``may_sell`` and ``may_mortgage`` (the bots' question while raising money) answer as the table's
    ``check`` for every player and deed, at many moments of whole games, in phases play and debt."""
    seen: Counter[tuple[str, bool]] = Counter()
    for options, seed in (({}, 1), ({"even_build": False}, 2), ({"short_game": True}, 3)):
        table = SimTable(US)
        rng = random.Random(seed)

        def apply(cmd: Any, table: SimTable = table, rng: random.Random = rng) -> Any:
            events = table.apply(cmd)
            s = table.state
            if s.phase in ("play", "debt") and rng.random() < 0.2:
                for player in (*s.order, "ghost"):
                    for deed in range(0, 30):
                        for name, make in (("may_sell", cc.SellBuilding), ("may_mortgage", cc.MortgageDeed)):
                            got = getattr(fused, name)(s, US, player, deed)
                            assert got == (table.check(make(player, deed)) is None), (name, player, deed)
                            seen[name, got] += 1
            return events

        ClassicRunner(US, 4, seed, options=options, game=table, apply=apply, check_invariants=False).play()
    assert all(seen[name, ok] > 20 for name in ("may_sell", "may_mortgage") for ok in (True, False)), seen


def _compare(name: str, s: ClassicState, args: tuple[Any, ...], seen: Counter[tuple[str, bool]]) -> bool:
    """Run fused ``name`` on ``s`` and check it against the rule; True if it was done."""
    takes_edition, make = FUSED[name]
    before = s.copy()
    done = getattr(fused, "_real_" + name, getattr(fused, name))(s, US, *args) if takes_edition else \
        getattr(fused, "_real_" + name, getattr(fused, name))(s, *args)
    seen[name, done] += 1
    if done:
        assert _by_the_rules(before, make(*args)) == s, (name, args)
    else:
        assert s == before, (name, args)
    return done


@pytest.mark.parametrize(("options", "players", "seed"), [
    ({}, 4, 1), ({}, 2, 2), ({"free_parking_jackpot": True}, 4, 3), ({"short_game": True}, 3, 4),
    ({"rent_must_be_claimed": True, "even_build": False, "houses_in_bank": 12}, 4, 5),
])
def test_every_fused_command_of_a_game_is_what_the_rule_does(monkeypatch: pytest.MonkeyPatch,
                                                            options: dict[str, object], players: int,
                                                            seed: int) -> None:
    seen: Counter[tuple[str, bool]] = Counter()
    rng = random.Random(seed)
    runner = ClassicRunner(US, players, seed, options=options, check_invariants=False)  # two games
    for name in FUSED:
        real = getattr(fused, name)
        monkeypatch.setattr(fused, "_real_" + name, real, raising=False)

        def wrapped(s: ClassicState, *args: Any, name: str = name) -> bool:
            if rng.random() < 0.05:  # now and then a random command of each kind, on a copy
                probe = s.copy()
                for other, (takes_edition, _) in FUSED.items():
                    player = rng.choice([*probe.order, "ghost"])
                    if other in ("end_turn", "pass_go", "settle"):
                        _compare(other, probe.copy(), (player,), seen)
                    elif other == "pay_tax":
                        _compare(other, probe.copy(), (player, rng.choice([4, 38, 5, 0])), seen)
                    else:
                        _compare(other, probe.copy(), (player, rng.randint(0, 29)), seen)
            return _compare(name, s, args[1:] if FUSED[name][0] else args, seen)

        monkeypatch.setattr(fused, name, wrapped)
    assert not runner.play().violations
    assert not ClassicRunner(US, players, seed + 10, options=options, check_invariants=False).play().violations
    done = {name for (name, ok), n in seen.items() if ok}
    assert done == set(FUSED), seen
    assert sum(n for (_, ok), n in seen.items() if not ok) > 20, seen


@pytest.mark.parametrize("seed", [1, 2])
def test_the_fused_game_is_the_game_of_the_table(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """With the fused commands off, the same game, command for command, to the same state."""
    fast = ClassicRunner(US, 4, seed, check_invariants=True)
    a = fast.play()
    monkeypatch.setattr(fused, "usable", lambda options: False)
    slow = ClassicRunner(US, 4, seed, check_invariants=True)
    b = slow.play()
    assert not a.violations and not b.violations
    assert (a.turns, a.commands, a.rolls, a.landings, a.in_jail, a.winner) == \
        (b.turns, b.commands, b.rolls, b.landings, b.in_jail, b.winner)
    assert fast.state == slow.state


def test_options_that_change_the_rules_leave_the_fused_commands_out() -> None:
    from engine.rulesets.classic.options import Options

    assert fused.usable(Options())
    assert not fused.usable(Options.from_mapping({"positions": True}))
    assert not fused.usable(Options.from_mapping({"second_text": True}))


def test_a_fused_command_with_a_bad_check_is_reported_by_check_every(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fused rent that forgot its cash check (money out of nowhere) is caught by ``--check every``."""
    real = fused.pay_rent

    def broken(s: ClassicState, ed: Any, payer: str, deed: int) -> bool:
        owner = s.owner.get(deed)
        if owner is not None and owner != payer and s.phase == "play":
            s.ledger.balances[owner] += 1  # paid to the owner, taken from no one
        return real(s, ed, payer, deed)

    monkeypatch.setattr(fused, "pay_rent", broken)
    result = ClassicRunner(US, 4, 1, check_invariants=True).play()
    assert any("money issued" in v and "PayRent" in v for v in result.violations), result.violations[:3]
