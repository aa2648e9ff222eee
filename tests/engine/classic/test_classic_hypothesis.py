"""Hypothesis over random legal classic command sequences (the pattern of test_invariants_hypothesis.py).

Each step lists candidate commands for the current phase (deeds, dice, bids, deals and options drawn by
Hypothesis), keeps those ``Game.check`` accepts and applies one; a refused one must change nothing. After
every command the classic invariants hold; after every undo and at the end ``Game.replay`` of the events
equals the live state, every event and command survives its JSON record (engine/records.py), and the
simulator's lean table (engine/rulesets/classic/table.py) replaying the same commands reaches the same state.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import commands as c
from engine.commands import Command
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.game import Game
from engine.records import command_from_record, command_to_record, event_from_record, event_to_record
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.table import SimTable

EDITION = load_edition("classic-us")
PLAYERS = ("A", "B", "C", "D")
CARD_SPACES = (2, 7, 17, 22, 33, 36)

options_strategy = st.fixed_dictionaries({
    "decliner_may_bid": st.booleans(),
    "free_parking_jackpot": st.booleans(),
    "income_tax_choice": st.booleans(),
    "house_sell_price": st.sampled_from([50, 100]),
    "mortgage_transfer_fee": st.sampled_from([0, 10]),
    "rent_must_be_claimed": st.booleans(),
    "even_build": st.booleans(),
    "houses_in_bank": st.sampled_from([3, 32]),
    "hotels_in_bank": st.sampled_from([1, 12]),
    "short_game": st.booleans(),
    "time_limit": st.sampled_from([0, 60]),
    "late_game_rent_tax": st.booleans(),
    "start_money": st.sampled_from([300, 1500]),
    "jail_max_turns": st.integers(1, 3),
})

seed_rules_strategy = st.fixed_dictionaries({
    # the seeds' remaining rules (docs/rules-classic.md 2, 13) and their presets
    "mortgaged_set_double_rent": st.booleans(),
    "sell_mortgaged": st.booleans(),
    "deals_before_roll": st.booleans(),
    "build_before_roll": st.booleans(),
    "one_house_per_set": st.booleans(),
    "pay_debt_with_deeds": st.booleans(),
    "bank_pays_creditor": st.booleans(),
    "action_timers": st.booleans(),
    "lift_at_full_value": st.booleans(),
    "rent_tax_on_cards": st.booleans(),
    "deal_all_lots": st.booleans(),
})
PRESET_NAMES = ("", "second_text", "standard_text", "online_edition")


def candidates(game: Game, data: st.DataObject) -> list[Command]:
    """Commands worth trying now (many are refused; the caller keeps the accepted ones)."""
    s = game.state
    out: list[Command] = []
    if data.draw(st.integers(0, 24), label="undo?") == 0:
        out.append(c.Undo())
    if s.phase == "auction":
        a = s.auction
        assert a is not None
        for p in a.bidders:
            out += [c.PlaceBid(p, a.high_bid + 1), c.PlaceBid(p, a.high_bid + 60), c.PlaceBid(p, s.balance(p))]
        out.append(c.CloseAuction())
    elif s.phase == "debt":
        d = s.debts[0].debtor
        out += [cc.SettleDebt(d), cc.DeclareBankruptcy(d), cc.TimeOut(d, "pay")]
        for deed in s.deeds_of(d):
            out += [cc.SellBuilding(d, deed), cc.MortgageDeed(d, deed)]
            out += [cc.PayWithDeeds(d, (deed,), data.draw(st.sampled_from([1, 50, s.debts[0].amount]),
                                                          label="deed value"))] * 2
    elif s.phase == "place":
        assert s.credit is not None
        out += [cc.BuildHouse(s.credit[0], deed) for deed in s.deeds_of(s.credit[0])]
    elif s.phase == "play":
        turn = s.turn
        assert turn is not None
        other = data.draw(st.sampled_from(s.order), label="other")
        colours = {EDITION.deeds[d].colour for d in s.deeds_of(turn)}
        near = [d for d, x in EDITION.deeds.items() if x.colour in colours and d not in s.owner]
        deed = data.draw(st.sampled_from(near) if near and data.draw(st.booleans(), label="near?")
                         else st.integers(1, 28), label="deed")
        for p in {turn, other}:
            mine = s.deeds_of(p)
            out += [
                c.PassGo(p), c.BuyDeed(p, deed), c.DeclineDeed(p, deed), c.PayRent(p, deed),
                cc.PayUtilityRent(p, deed, data.draw(st.integers(2, 12), label="dice")), c.GoToJail(p),
                c.PayJailFee(p), c.JailRoll(p, True), c.JailRoll(p, False), cc.UseJailCard(p),
                cc.DrawCard(p, data.draw(st.sampled_from(CARD_SPACES), label="card space")),
                cc.PayTax(p, 4, data.draw(st.booleans(), label="percent")), cc.PayTax(p, 38), cc.CollectJackpot(p),
                cc.LiftMortgage(p, deed), cc.MortgageDeed(p, deed), cc.SellBuilding(p, deed),
                cc.AcceptTrade(p), cc.CancelTrade(p),
            ]
            out += [cc.BuildHouse(p, d) for d in mine] * 4 + [cc.SellBuilding(p, d) for d in mine]
            out += [cc.AcceptTrade(p)] * 3  # weights: building and deals are rare otherwise
            if p != other:
                give = tuple(sorted(set(data.draw(st.lists(st.sampled_from(mine), max_size=2), label="give")))) \
                    if mine else ()
                out.append(cc.ProposeTrade(p, other, give, data.draw(st.sampled_from([0, 50]), label="cash"),
                                           s.cards_of(p), (deed,), 0, ()))
        out += [cc.OpenBuildingAuction("house"), cc.OpenBuildingAuction("hotel"),
                cc.AdvanceClock(s.minute + data.draw(st.sampled_from([1, 20]), label="minutes")), cc.CallTime()]
        out += [c.EndTurn(turn)] * 3
        out += [cc.TimeOut(turn, "roll")]
        if s.trade is not None:
            out += [cc.TimeOut(s.trade.partner, "deal")]
    return out


def assert_replays(game: Game) -> None:
    """The fold of the events (also through JSON records) gives the same state."""
    records = [json.loads(json.dumps(event_to_record(e))) for e in game.events]
    events = [event_from_record(r, "classic") for r in records]
    assert events == list(game.events)
    assert Game.replay(EDITION, events).state == game.state


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), options=options_strategy, data=st.data())
def test_random_legal_classic_sequences(seed: int, players: int, options: dict[str, object],
                                        data: st.DataObject) -> None:
    """Invariants after every accepted command; replay, records and the lean table agree with the game."""
    run_sequence(seed, players, options, data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), options=options_strategy,
       seed_rules=seed_rules_strategy, preset=st.sampled_from(PRESET_NAMES), data=st.data())
def test_random_legal_sequences_over_the_seed_rules(seed: int, players: int, options: dict[str, object],
                                                   seed_rules: dict[str, object], preset: str,
                                                   data: st.DataObject) -> None:
    """The same, over the options of the seeds' remaining rules and the presets (docs/rules-classic.md 2)."""
    merged = {**options, **seed_rules}
    if merged["deal_all_lots"] and (merged["short_game"] or merged["time_limit"]):
        merged["deal_all_lots"] = False  # one deal at a time (refused at the start)
    if preset:
        for name in [k for k in seed_rules if k != "deal_all_lots"]:
            if data.draw(st.booleans(), label=f"preset decides {name}?"):
                del merged[name]
        merged[preset] = True
    run_sequence(seed, players, merged, data)


DEBT_TO_A = (c.BuyDeed("A", 27), c.BuyDeed("A", 28), c.EndTurn("A"), c.BuyDeed("B", 23), c.BuyDeed("B", 24),
             c.BuyDeed("B", 25), c.BuyDeed("B", 19), c.BuyDeed("B", 20), c.PayRent("B", 28))
"""A prelude that leaves B owing A the double rent of Boardwalk (100) with 60 in cash and five bare deeds."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), seed_rules=seed_rules_strategy, data=st.data())
def test_random_legal_sequences_from_a_debt_paid_with_deeds(seed: int, players: int, seed_rules: dict[str, object],
                                                            data: st.DataObject) -> None:
    """From a debt to a player with ``pay_debt_with_deeds`` (seed 000 l. 73): deeds handed at agreed values,
    timeouts and the rest, with the same checks."""
    options = {**seed_rules, "pay_debt_with_deeds": True, "deal_all_lots": False, "start_money": 1500,
               "short_game": False, "time_limit": 0}
    run_sequence(seed, players, options, data, DEBT_TO_A)


def run_sequence(seed: int, players: int, options: dict[str, object], data: st.DataObject,
                 prelude: tuple[Command, ...] = ()) -> None:
    """Random legal commands from the start with ``options`` (after ``prelude``); the checks of the tests above."""
    game = Game(EDITION)
    applied: list[Command] = []
    if options.get("short_game") or options.get("time_limit"):
        options = {**options, "start_money": 1500}  # two deeds are dealt and paid for at once
    game.apply(c.StartGame(tuple(c.PlayerSpec(p, p, "") for p in PLAYERS[:players]), options, seed))
    for cmd in prelude:
        game.apply(cmd)
        applied.append(cmd)
    steps = data.draw(st.integers(10, 150), label="steps")
    for _ in range(steps):
        if game.state.phase in ("over", "setup"):  # the end, or StartGame undone
            break
        pool = candidates(game, data)
        accepted = [cmd for cmd in pool if game.check(cmd) is None]
        refused = [cmd for cmd in pool if cmd not in accepted]
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
        assert command_from_record(json.loads(json.dumps(command_to_record(cmd))), "classic") == cmd
        events = game.apply(cmd)
        applied.append(cmd)
        assert events and all(e.command == game.commands_applied for e in events)
        problems = game.invariants()
        assert not problems, f"after {cmd!r}: {problems}"
        if isinstance(cmd, c.Undo):
            assert_replays(game)
    assert_replays(game)
    if not any(isinstance(cmd, c.Undo) for cmd in applied):
        lean = SimTable(EDITION)
        lean.apply(c.StartGame(tuple(c.PlayerSpec(p, p, "") for p in PLAYERS[:players]), options, seed))
        for cmd in applied:
            lean.apply(cmd)
        assert lean.state == game.state
