"""Every (trigger, state) pair of the classic banker: the destination, or an error with nothing changed.

As tests/engine/test_banker_pairs.py does for Ultimate Banking: a short tap script brings a fresh classic
banker (classic-us, seed 7) to each state its table reaches; then each input trigger (and the game clock's
``clock``) is fired once with a representative input. A pair without a row must be refused, leaving the
engine's snapshot, the journal and the state untouched, with the state's prompt again; a pair with rows
moves to one of their destinations (after a command: the state the engine's phase implies) with at most
ONE command (docs/flows.md, "The classic game": one gesture, one command; one tap of a build, one building).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.patience import REPEAT_S
from engine.banker.plugins import transitions_for
from engine.banker.table import BankerState, input_triggers
from engine.banker.tapscript import CardTable, ManualClock, run_script, steps_of
from engine.banker.view import phase_state
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

TRANSITIONS = transitions_for("classic")
S = BankerState

CARDS = [f"card 000000A{n} player {n}" for n in (1, 2, 3)] + [
    f"card 000001{n:02d} deed {n}" for n in range(1, 29)] + [
    f"card 000002{n:02d} event {n}" for n in range(1, 33)] + ["card 000000BB banker"]
REGISTER = ["tap 000000A1", "tap 000000A2", "press ok"]
POOR = ["tap 000000A1", "tap 000000A2", "choose option=start_money:100", "press ok"]
DEBT = [*POOR, "press income_tax", "tap 000000A1"]
OWNED = [*REGISTER, "tap 00000103", "tap 000000A1", "press ok"]
SHORT = ["tap 000000A1", "tap 000000A2", "choose option=houses_in_bank:1", "press ok",
         *[f"{x}" for d in ("01", "02") for x in (f"tap 000001{d}", "tap 000000A1", "press ok")], "press end_turn",
         *[f"{x}" for d in ("04", "05", "06") for x in (f"tap 000001{d}", "tap 000000A2", "press ok")],
         "press end_turn", "tap 000000A1", "press build", "tap 00000101", "tap 000000A2", "wait 5", "tap 000000A2"]

PREFIX: dict[BankerState, list[str]] = {
    S.SETUP: [],
    S.IDLE: REGISTER,
    S.DEED: [*REGISTER, "tap 00000103"],
    S.BUY: [*REGISTER, "tap 00000103", "tap 000000A1"],
    S.PLAYER: [*REGISTER, "tap 000000A1"],
    S.ACTION: [*REGISTER, "press go"],
    S.EVENT_CARD: [*REGISTER, "tap 00000218"],
    S.AUCTION: [*REGISTER, "tap 00000103", "tap 000000A1", "press decline"],
    S.AUCTION_WON: [*REGISTER, "tap 00000103", "tap 000000A1", "press decline", "tap 000000A2", "wait 5"],
    S.DEBT: DEBT,
    S.OVER: [*DEBT, "press bankrupt"],
    S.PIN: [*REGISTER, "press menu"],
    S.MENU: [*REGISTER, "press menu", "choose 1234"],
    S.SETTINGS: [*REGISTER, "press menu", "choose 1234", "press settings"],
    S.OWN: [*OWNED, "tap 00000103", "tap 000000A1"],
    S.DICE: [*REGISTER, "tap 00000108", "tap 000000A1", "press ok", "press end_turn", "tap 00000108",
             "tap 000000A2"],
    S.BUILD: [*REGISTER, "tap 000000A1", "press build"],
    S.TAX: ["tap 000000A1", "tap 000000A2", "choose option=income_tax_choice:on", "press ok", "tap 000000A1",
            "press income_tax"],
    S.CARD_SPACE: [*REGISTER, "tap 000000A1", "press chance"],  # seed 7: Advance to St. Charles Place
    S.TRADE: [*REGISTER, "press trade"],
    S.TRADE_OPEN: [*OWNED, "press trade", "tap 000000A1", "tap 000000A2", "tap 00000103", "choose cash=2:50",
                   "tap 000000A1"],
    S.PLACE: SHORT,
}
INPUT = {"tap_player": "000000A2", "tap_deed": "00000103", "tap_event": "00000218", "tap_banker": "000000BB"}
VALUE = {"press_bid": "20", "answer": "7"}

EXPECTED: dict[tuple[BankerState, str], BankerState] = {
    (S.IDLE, "tap_deed"): S.DEED, (S.IDLE, "tap_player"): S.PLAYER, (S.IDLE, "tap_event"): S.EVENT_CARD,
    (S.IDLE, "press_go"): S.ACTION, (S.IDLE, "press_trade"): S.TRADE, (S.IDLE, "press_build"): S.ACTION,
    (S.DEED, "tap_player"): S.BUY, (S.BUY, "press_ok"): S.IDLE, (S.BUY, "press_decline"): S.AUCTION,
    (S.PLAYER, "press_build"): S.BUILD, (S.PLAYER, "press_chance"): S.CARD_SPACE, (S.PLAYER, "tap_deed"): S.BUY,
    (S.PLAYER, "press_income_tax"): S.IDLE, (S.PLAYER, "press_trade"): S.TRADE,
    (S.EVENT_CARD, "tap_player"): S.IDLE, (S.AUCTION, "tap_player"): S.AUCTION, (S.AUCTION_WON, "tap_player"): S.IDLE,
    (S.DEBT, "press_bankrupt"): S.OVER, (S.OWN, "press_mortgage"): S.IDLE, (S.DICE, "answer"): S.IDLE,
    (S.BUILD, "press_ok"): S.IDLE, (S.TAX, "press_cancel"): S.IDLE, (S.CARD_SPACE, "timeout"): S.IDLE, (S.CARD_SPACE, "answer"): S.BUY,
    (S.TRADE, "tap_player"): S.TRADE, (S.TRADE_OPEN, "tap_player"): S.IDLE, (S.TRADE_OPEN, "press_cancel"): S.IDLE,
    (S.TRADE_OPEN, "timeout"): S.IDLE, (S.PLACE, "press_menu"): S.PIN,
}
EXPECTED_ERROR: dict[tuple[BankerState, str], str] = {
    (S.OWN, "press_lift"): "error.rule", (S.DICE, "press_ok"): "error.not_now", (S.TAX, "answer"): "error.bad_choice",
    (S.DEBT, "press_ok"): "error.rule",
    (S.DEBT, "tap_player"): "error.not_debtor", (S.PLACE, "tap_deed"): "error.rule",
    (S.BUILD, "tap_deed"): "error.rule", (S.AUCTION, "press_bid"): "error.tap_bidder_first",
}
TRIGGERS = [*input_triggers(), "clock"]


def rows(state: BankerState, trigger: str) -> list[dict[str, object]]:
    return [r for r in TRANSITIONS if r["trigger"] == trigger
            and (r["source"] == state or (isinstance(r["source"], list) and state in r["source"]))]


def make(tmp_path: Path, state: BankerState) -> tuple[Banker, Journal]:
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal, "classic-us"), cards, clock, seed_source=lambda: 7, timeout_s=10,
                    auction_s=5, pin="1234")
    run_script(steps_of([*CARDS, *PREFIX[state]]), banker, clock, cards.enroll)
    clock.advance(REPEAT_S)  # the pair's input is a new touch, not a bounce of the prefix's last tap
    assert banker.state is state, f"prefix for {state} ended in {banker.state}"
    return banker, journal


def fire(banker: Banker, trigger: str):  # type: ignore[no-untyped-def]
    if trigger.startswith("tap_"):
        return banker.tap(INPUT[trigger])
    if trigger.startswith("press_"):
        return banker.press(trigger.removeprefix("press_"), VALUE.get(trigger))
    if trigger == "answer":
        return banker.choose(VALUE["answer"])
    return banker._fire(trigger, None)


def reached() -> set[BankerState]:
    return {S.SETUP} | {r["dest"] for r in TRANSITIONS if r["dest"] is not None}  # type: ignore[misc]


PAIRS = [(s, t) for s in PREFIX for t in TRIGGERS]


def test_every_state_the_table_reaches_has_a_prefix() -> None:
    assert set(PREFIX) == reached()


@pytest.mark.parametrize(("state", "trigger"), PAIRS, ids=[f"{s.value}-{t}" for s, t in PAIRS])
def test_classic_pair(state: BankerState, trigger: str, tmp_path: Path) -> None:
    banker, journal = make(tmp_path, state)
    game = banker.game
    before = game.state.snapshot() if game else None
    seq_before = banker.last_seq
    reaction = fire(banker, trigger)
    after = banker.game.state.snapshot() if banker.game else None
    candidates = rows(state, trigger)
    if (state, trigger) in EXPECTED_ERROR:
        assert reaction.error == EXPECTED_ERROR[(state, trigger)]
    if reaction.error is not None or not candidates:
        assert reaction.error is not None, f"no row for {trigger} in {state}, yet accepted"
        assert banker.state is state
        assert after == before and reaction.events == () and banker.last_seq == seq_before
        assert "err" in [str(c) for c in reaction.cues]
        assert reaction.prompt.key in (f"prompt.{state.value}", f"prompt.classic_{state.value}")  # classic words
        return
    assert len({e.command for e in reaction.events}) <= 1, "one gesture (one tap of a build), at most one command"
    dests = {r["dest"] or state for r in candidates}
    if any("then_settle" in (r.get("after") or []) for r in candidates) and banker.game is not None:
        dests |= {phase_state(banker.game.state.phase), S.SETUP, S.TRADE_OPEN, S.BUY, S.DEED}  # (a card's move)
    assert banker.state in dests
    if (state, trigger) in EXPECTED:
        assert banker.state is EXPECTED[(state, trigger)]
    if reaction.events:
        assert journal.load(banker.durable.game_id)[1][-1] == reaction.events[-1]  # on disk


@pytest.mark.parametrize("state", list(PREFIX), ids=[s.value for s in PREFIX])
def test_classic_may_agrees_with_the_machine(state: BankerState, tmp_path: Path) -> None:
    banker, _journal = make(tmp_path, state)
    for trigger in TRIGGERS:
        if not hasattr(banker, f"may_{trigger}"):
            assert banker.may(trigger) is False
            continue
        banker._probing = True
        try:
            machine_says = bool(getattr(banker, f"may_{trigger}")())
        finally:
            banker._probing = False
        assert banker.may(trigger) is machine_says, (state, trigger)
