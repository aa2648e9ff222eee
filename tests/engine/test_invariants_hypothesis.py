"""Hypothesis: random legal command sequences keep the invariants, and the fold replays exactly.

Each step lists candidate commands for the current phase (with deeds, cards, bids and choices drawn by
Hypothesis), keeps those ``Game.check`` accepts, and applies one. After every command ``invariants()`` is
empty; after every undo and at the end ``Game.replay(edition, events)`` equals the live state, and every
event survives ``event_to_record`` -> JSON -> ``event_from_record``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands import (
    BuyDeed,
    CloseAuction,
    Command,
    DeclineDeed,
    EndTurn,
    GoToJail,
    JailRoll,
    PassGo,
    PayJailFee,
    PayRent,
    PlaceBid,
    PlayerSpec,
    StartGame,
    Undo,
)
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.game import Game
from engine.records import command_from_record, command_to_record, event_from_record, event_to_record
from engine.rulesets.ultimate.cards import targets
from engine.rulesets.ultimate.commands import DrawEvent, LandOnOwn, ResolveEvent, ReturnDeed, UseLocation

EDITION = load_edition("ultimate-uk")
PLAYERS = ("A", "B", "C", "D")

options_strategy = st.fixed_dictionaries({
    "auction": st.booleans(),
    "colour_set_bonus": st.booleans(),
    "jailed_owner_collects_rent": st.booleans(),
    "jump_collects_go": st.booleans(),
    "start_money": st.sampled_from([200, 600, 1500]),
    "jail_max_tries": st.integers(1, 3),
})


def candidates(game: Game, data: st.DataObject) -> list[Command]:
    """Commands worth trying now (many will be refused; the caller keeps the accepted ones)."""
    s = game.state
    out: list[Command] = []
    if data.draw(st.integers(0, 24), label="undo?") == 0:
        out.append(Undo())
    if s.phase == "auction":
        a = s.auction
        assert a is not None
        step = s.options.auction_step
        for p in a.bidders:
            cash = s.balance(p)
            out += [PlaceBid(p, a.high_bid + step), PlaceBid(p, a.high_bid + 5 * step), PlaceBid(p, cash - cash % step)]
        out.append(CloseAuction())
    elif s.phase == "debt":
        d = s.debt
        assert d is not None
        out += [ReturnDeed(d.debtor, deed) for deed in s.deeds_of(d.debtor)]
    elif s.phase == "event":
        pe = s.pending
        assert pe is not None
        options = targets(s, EDITION, pe.player, EDITION.card(pe.card))
        out.append(ResolveEvent(pe.player, data.draw(st.sampled_from(options), label="choice")))
    elif s.phase == "play":
        turn = s.turn
        assert turn is not None
        other = data.draw(st.sampled_from(s.order), label="other")
        deed = data.draw(st.integers(1, 22), label="deed")
        card = data.draw(st.integers(1, 23), label="card")
        for p in {turn, other}:
            out += [
                PassGo(p), BuyDeed(p, deed), DeclineDeed(p, deed), PayRent(p, deed), LandOnOwn(p, deed),
                UseLocation(p, deed, data.draw(st.sampled_from([None, 7, 34]), label="origin")),
                GoToJail(p), PayJailFee(p), JailRoll(p, True), JailRoll(p, False), DrawEvent(p),
                DrawEvent(p, card, 29),
            ]
        out += [EndTurn(turn)] * 3
    return out


def assert_replays(game: Game) -> None:
    """The fold of the events (also through JSON records) gives the same state."""
    records = [json.loads(json.dumps(event_to_record(e))) for e in game.events]
    events = [event_from_record(r) for r in records]
    assert events == list(game.events)
    assert Game.replay(EDITION, events).state == game.state


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    options=options_strategy,
    data=st.data(),
)
def test_random_legal_sequences_keep_invariants(seed: int, players: int, options: dict[str, object],
                                                data: st.DataObject) -> None:
    """Invariants hold after every accepted command; replay equals the live state, also after undos."""
    game = Game(EDITION)
    start = StartGame(tuple(PlayerSpec(p, p, "") for p in PLAYERS[:players]), options, seed)
    game.apply(start)
    steps = data.draw(st.integers(10, 150), label="steps")
    for _ in range(steps):
        if game.state.phase in ("over", "setup"):
            if game.state.phase == "over" and data.draw(st.booleans(), label="undo after end"):
                game.apply(Undo())
                assert_replays(game)
                continue
            break
        pool = candidates(game, data)
        accepted = [c for c in pool if game.check(c) is None]
        refused = [c for c in pool if c not in accepted]
        if refused:
            bad = data.draw(st.sampled_from(refused), label="refused")
            before = game.state.snapshot()
            try:
                game.apply(bad)
            except IllegalCommand:
                pass
            else:
                raise AssertionError(f"check refused {bad!r} but apply accepted it")
            assert game.state.snapshot() == before
        assert accepted, f"no legal command in phase {game.state.phase}: {pool}"
        cmd = data.draw(st.sampled_from(accepted), label="command")
        assert command_from_record(json.loads(json.dumps(command_to_record(cmd)))) == cmd
        events = game.apply(cmd)
        assert events and all(e.command == game.commands_applied for e in events)
        problems = game.invariants()
        assert not problems, f"after {cmd!r}: {problems}"
        if isinstance(cmd, Undo):
            assert_replays(game)
    assert_replays(game)


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.sampled_from(["A", "B", "Z", "", "bank", "pink"]),
                 st.tuples(st.sampled_from(["A", 1, 16, "C", True])), st.floats(allow_nan=False, width=16))


def _junk_command(cls: type) -> st.SearchStrategy[Command]:
    import dataclasses

    return st.builds(cls, *[JUNK for _ in dataclasses.fields(cls)])


@settings(max_examples=60, deadline=None)
@given(cmds=st.lists(st.sampled_from([c for c in (
    PassGo, BuyDeed, DeclineDeed, PlaceBid, PayRent, LandOnOwn, UseLocation, GoToJail, PayJailFee,
    JailRoll, DrawEvent, ResolveEvent, ReturnDeed, EndTurn)]).flatmap(_junk_command), max_size=40),
       start=st.builds(StartGame, st.tuples(st.builds(PlayerSpec, JUNK, JUNK, JUNK), st.builds(PlayerSpec, JUNK)),
                       st.dictionaries(st.sampled_from(["auction", "go_salary", "x"]), JUNK, max_size=2), JUNK))
def test_malformed_commands_are_refused_cleanly(cmds: list[Command], start: StartGame) -> None:
    """Commands with fields of any type never crash check() or apply(): accepted, or IllegalCommand."""
    game = Game(EDITION)
    if game.check(start) is None:
        game.apply(start)
    else:
        with pytest.raises(IllegalCommand):
            game.apply(start)
        game.apply(StartGame((PlayerSpec("A"), PlayerSpec("B")), {}, 3))
    for cmd in cmds:
        reason = game.check(cmd)
        assert reason is None or isinstance(reason, str)
        before = game.state.snapshot()
        try:
            game.apply(cmd)
        except IllegalCommand as exc:
            assert str(exc) == reason
            assert game.state.snapshot() == before
        else:
            assert reason is None
        assert game.invariants() == []
    assert_replays(game)
