"""The invariant watch (engine/rulesets/classic/watch.py) re-checks only what a command's events touched:
its lists of events are checked here against the fold itself, on whole bot games through ``Game`` (after
every command whose events are all quiet, no holding and no deck changed), and its answer against
``check_invariants`` after every command, on healthy games and on states broken between commands."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from engine.editions import load_edition
from engine.errors import LedgerError
from engine.game import Game
from engine.rulesets.classic.invariants import check_invariants
from engine.rulesets.classic.sim import ClassicRunner
from engine.rulesets.classic.state import ClassicState
from engine.rulesets.classic.watch import (
    DECKS_ONLY,
    LEVEL_ONLY,
    OWNER_ONLY,
    OWNERS_ONLY,
    QUIET,
    InvariantWatch,
)


def _holdings(s: ClassicState) -> Any:
    return (dict(s.owner), dict(s.level), s.mortgaged, s.lots, dict(s.specs), s.bankrupt, s.options)


def _decks(s: ClassicState) -> Any:
    return (s.chance, s.chest, dict(s.held), dict(s.specs), s.bankrupt)


@pytest.mark.parametrize(("edition", "options", "jail"), [
    ("classic-us", {}, "short"), ("classic-uk", {}, "long"), ("classic-us", {"free_parking_jackpot": True}, "short"),
])
def test_quiet_events_leave_holdings_and_decks_alone(edition: str, options: dict[str, object], jail: str) -> None:
    ed = load_edition(edition)
    seen: set[str] = set()
    for seed in range(6):
        game = Game(ed)
        watch = InvariantWatch(ed)

        def apply(cmd: Any, game: Game = game, watch: InvariantWatch = watch) -> Any:
            before_h, before_d = _holdings(game.state), _decks(game.state)
            events = game.apply(cmd)
            kinds = {type(e) for e in events}
            if kinds <= QUIET | DECKS_ONLY:
                assert _holdings(game.state) == before_h, (cmd, events)
                seen.update(k.__name__ for k in kinds)
            if kinds <= QUIET:
                assert _decks(game.state) == before_d, (cmd, events)
            if kinds <= QUIET | DECKS_ONLY | LEVEL_ONLY and kinds & LEVEL_ONLY:
                after = _holdings(game.state)
                assert after[0] == before_h[0] and after[2:] == before_h[2:], (cmd, events)
                touched = {e.deed for e in events if type(e) in LEVEL_ONLY}
                changed = {d for d in {*after[1], *before_h[1]} if after[1].get(d) != before_h[1].get(d)}
                assert changed <= touched, (cmd, events)
                seen.update(k.__name__ for k in kinds)
            if kinds <= QUIET | DECKS_ONLY | OWNER_ONLY | OWNERS_ONLY and kinds & (OWNER_ONLY | OWNERS_ONLY):
                after = _holdings(game.state)
                assert after[1:] == before_h[1:], (cmd, events)  # buildings, mortgages, lots, players alike
                touched = {e.deed for e in events if type(e) in OWNER_ONLY} | {
                    d for e in events if type(e) in OWNERS_ONLY for d in e.deeds}
                changed = {d for d in {*after[0], *before_h[0]} if after[0].get(d) != before_h[0].get(d)}
                assert changed <= touched, (cmd, events)
                seen.update(k.__name__ for k in kinds)
            assert watch.check(game.state, events) == check_invariants(game.state, ed) == []
            return events

        ClassicRunner(ed, 4, seed, game=game, apply=apply, jail_strategy=jail, options=options,
                      check_invariants=False).play()
    assert {"SalaryPaid", "RentPaid", "TurnEnded", "CardDrawn", "MoneyTransferred", "BuildingBought",
            "BuildingSold", "DeedBought", "AuctionWon", "DebtPaidInDeeds"} <= seen


def _broken_once(kinds: frozenset[Any], brake: Callable[[ClassicState, list[Any]], None],
                 turn_cap: int) -> tuple[list[list[str]], int | None]:
    """A bot game (classic-us, seed 3) through ``Game``, in which ``brake(state, deeds)`` breaks the state
    once, right after the first command with an event of ``kinds`` (``deeds``: those events' deeds); after
    every command the watch's answer must be ``check_invariants``'. Each command's report, and the index of
    the broken one (None if no such command came)."""
    ed = load_edition("classic-us")
    game = Game(ed)
    watch = InvariantWatch(ed)
    reports: list[list[str]] = []
    done: list[int] = []

    def apply(cmd: Any) -> Any:
        events = game.apply(cmd)
        s = game.state
        deeds = [e.deed for e in events if type(e) in kinds]
        if deeds and not done:
            done.append(len(reports))
            brake(s, deeds)
        got, want = watch.check(s, events), check_invariants(s, ed)
        assert got == want
        reports.append(got)
        return events

    with contextlib.suppress(LedgerError):  # a payment to a ghost owner: the game cannot go on (reported)
        ClassicRunner(ed, 4, 3, game=game, apply=apply, check_invariants=False, turn_cap=turn_cap).play()
    return reports, done[0] if done else None


def _uneven(s: ClassicState, deeds: list[Any]) -> None:
    s.level[deeds[0]] = 4


def _no_supply(s: ClassicState, deeds: list[Any]) -> None:
    s.options = replace(s.options, houses_in_bank=0)


@pytest.mark.parametrize("brake", [_uneven, _no_supply], ids=["uneven", "supply"])
def test_a_build_that_breaks_the_buildings_is_reported_as_check_invariants_reports_it(
        brake: Callable[[ClassicState, list[Any]], None]) -> None:
    """After a command of only building events the watch looks at the Bank's supply and the touched sets
    alone: a break there (the built deed's level made uneven, or the Bank's supply overdrawn, as the build's
    fold might) is reported word for word as by ``check_invariants``, and stays reported."""
    reports, broken = _broken_once(LEVEL_ONLY, brake, 300)
    assert broken is not None and reports[broken]


def _bankrupt_owner(s: ClassicState, deeds: list[Any]) -> None:
    s.bankrupt = s.bankrupt | {s.owner[deeds[0]]}


def _lot(s: ClassicState, deeds: list[Any]) -> None:
    s.lots = (*s.lots, deeds[0])


def _split_set(s: ClassicState, deeds: list[Any]) -> None:
    s.level[deeds[0]] = 1  # buildings on a set its owner does not hold whole


def _unknown_owner(s: ClassicState, deeds: list[Any]) -> None:
    s.owner[deeds[0]] = "ghost"


@pytest.mark.parametrize("brake", [_bankrupt_owner, _lot, _split_set, _unknown_owner],
                         ids=["bankrupt owner", "lot", "split set", "unknown owner"])
def test_a_purchase_that_breaks_the_holdings_is_reported_as_check_invariants_reports_it(
        brake: Callable[[ClassicState, list[Any]], None]) -> None:
    """After a command whose events change only owners the watch looks at those deeds and their colour sets
    alone: a break there (the deed handed to a bankrupt or unknown player, left waiting as a lot, or a set
    with buildings split by the purchase, as a wrong fold might do) is reported word for word as by
    ``check_invariants``, and stays reported."""
    reports, broken = _broken_once(OWNER_ONLY, brake, 40)
    assert broken is not None and reports[broken]


def test_the_watch_reports_what_check_invariants_reports_on_broken_states() -> None:
    """Broken states are reported alike: money (checked after every command) broken between two commands,
    and the holdings broken by a command that is not quiet (here an event of no known kind): that break
    stays reported, with the quiet commands that follow. (The watch trusts the fold of a quiet event to
    leave the holdings alone, as the test above checks.)"""
    ed = load_edition("classic-us")
    game = Game(ed)
    watch = InvariantWatch(ed)
    reports: list[list[str]] = []

    def apply(cmd: Any) -> Any:
        events = game.apply(cmd)
        if game.commands_applied == 40:
            game.state.level[1] = 3  # houses on a street of a set nobody holds whole
            events = (*events, object())
        if game.commands_applied == 41:
            game.state.ledger.balances["p1"] -= 7  # money lost
        got, want = watch.check(game.state, events), check_invariants(game.state, ed)
        assert got == want
        reports.append(got)
        return events

    ClassicRunner(ed, 4, 3, game=game, apply=apply, check_invariants=False, turn_cap=30).play()
    assert reports[39] and all(any("deed 1" in p for p in r) for r in reports[39:])
    assert any("money issued" in p for p in reports[40])


def test_healthy_says_what_check_invariants_says() -> None:
    """``healthy`` (the watch's quick answer) is True exactly when ``check_invariants`` finds nothing, on
    states of whole games and on the same states broken at random in each part it reads."""
    import random

    from engine.rulesets.classic.invariants import deck_problems, holdings_problems
    from engine.rulesets.classic.watch import healthy
    from engine.state import DebtState

    ed = load_edition("classic-us")
    rng = random.Random(5)
    states: list[ClassicState] = []
    game = Game(ed)

    def keep(cmd: Any) -> Any:
        events = game.apply(cmd)
        if rng.random() < 0.1:
            states.append(game.state.copy())
        return events

    ClassicRunner(ed, 4, 2, game=game, apply=keep, check_invariants=False).play()

    def negative(s: ClassicState) -> None:  # the books still balance
        s.ledger.balances["p1"] += s.ledger.balances["p2"] + 5
        s.ledger.balances["p2"] = -5

    breaks = [negative,
        lambda s: s.ledger.balances.__setitem__("p1", s.ledger.balances["p1"] - 1),
        lambda s: s.ledger.balances.__setitem__("p2", -5),
        lambda s: s.ledger.balances.__setitem__("ghost", 0),
        lambda s: setattr(s, "pot", -1), lambda s: setattr(s, "pot", s.ledger.bank_position + 1),
        lambda s: setattr(s, "turn", "ghost"), lambda s: setattr(s, "phase", "auction"),
        lambda s: setattr(s, "phase", "debt"), lambda s: setattr(s, "phase", "place"),
        lambda s: setattr(s, "phase", "nonsense"), lambda s: setattr(s, "phase", "over"),
        lambda s: s.jail.__setitem__("p3", 7), lambda s: s.jail.__setitem__("ghost", 0),
        lambda s: setattr(s, "debts", (DebtState("p1", "bank", 0, "rent"),)),
        lambda s: s.owner.__setitem__(1, "ghost"), lambda s: s.level.__setitem__(1, 3),
        lambda s: setattr(s, "chance", s.chance[1:]), lambda s: None,
    ]
    found = clean = 0
    for s in states:
        for broken in breaks:
            b = s.copy()
            broken(b)
            want = check_invariants(b, ed)
            got = healthy(b, holdings_problems(b, ed), deck_problems(b, ed), set(b.order))
            assert got == (want == []), (broken, want)
            found += bool(want)
            clean += not want
    assert found > 100 and clean > 5
