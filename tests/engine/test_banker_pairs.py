"""Every (trigger, state) pair of the banker: the destination, or an error with nothing changed.

For each state a short tap script brings a fresh banker there; then each input trigger is fired once with
a representative input. A pair with no row in the table must be refused with an error key and leave the
engine's snapshot, the journal and the banker's state untouched. A pair with rows must either move to one
of the rows' destinations (or, after a command, to the state the engine's phase implies) issuing at most
ONE command, or be refused with nothing changed. A curated list pins the exact destination of the pairs
the prefixes make meaningful.
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

TRANSITIONS = transitions_for("ultimate")

S = BankerState

CARDS = [f"card 000000A{n} player {n}" for n in (1, 2, 3)] + [
    f"card 000001{n:02d} deed {n}" for n in range(1, 23)] + [
    f"card 000002{n:02d} event {n}" for n in range(1, 24)] + ["card 000000BB banker"]
REGISTER = ["tap 000000A1", "tap 000000A2", "press ok"]
DEBT = [*REGISTER, "tap 00000122", "tap 000000A1", "press ok", "tap 00000101", "tap 000000A2", "press ok",
        "tap 00000102", "tap 000000A2", "press ok", *(["tap 00000122", "tap 000000A1"] * 4),
        "tap 00000122", "tap 000000A2"]

PREFIX: dict[BankerState, list[str]] = {
    S.SETUP: [],
    S.IDLE: REGISTER,
    S.DEED: [*REGISTER, "tap 00000103"],
    S.BUY: [*REGISTER, "tap 00000103", "tap 000000A1"],
    S.PLAYER: [*REGISTER, "tap 000000A1"],
    S.ACTION: [*REGISTER, "press go"],
    S.LOCATION: [*REGISTER, "press location", "tap 000000A1"],
    S.EVENT_CARD: [*REGISTER, "tap 00000213"],
    S.EVENT: [*REGISTER, "tap 00000213", "tap 000000A1"],
    S.AUCTION: [*REGISTER, "tap 00000103", "tap 000000A1", "press decline"],
    S.AUCTION_WON: [*REGISTER, "tap 00000103", "tap 000000A1", "press decline", "tap 000000A2",
                    "press bid 20", "wait 5"],
    S.DEBT: DEBT,
    S.OVER: [*DEBT, "tap 00000101", "tap 00000102"],
    S.PIN: [*REGISTER, "press menu"],
    S.MENU: [*REGISTER, "press menu", "choose 1234"],
    S.SETTINGS: [*REGISTER, "press menu", "choose 1234", "press settings"],
}

# the representative input of each trigger
INPUT = {"tap_player": "000000A2", "tap_deed": "00000103", "tap_event": "00000213", "tap_banker": "000000BB"}
VALUE = {"press_bid": "20", "answer": "p2"}

# pairs whose exact outcome the prefixes make meaningful: (state, trigger) -> the state after
EXPECTED: dict[tuple[BankerState, str], BankerState] = {
    (S.SETUP, "tap_player"): S.SETUP, (S.SETUP, "press_cancel"): S.SETUP, (S.SETUP, "tap_banker"): S.PIN,
    (S.IDLE, "tap_deed"): S.DEED, (S.IDLE, "tap_player"): S.PLAYER, (S.IDLE, "tap_event"): S.EVENT_CARD,
    (S.IDLE, "press_go"): S.ACTION, (S.IDLE, "press_location"): S.ACTION, (S.IDLE, "press_menu"): S.PIN,
    (S.IDLE, "press_end_turn"): S.IDLE, (S.IDLE, "press_draw"): S.ACTION,
    (S.DEED, "tap_player"): S.BUY, (S.DEED, "press_cancel"): S.IDLE, (S.DEED, "timeout"): S.IDLE,
    (S.BUY, "press_ok"): S.IDLE, (S.BUY, "press_decline"): S.AUCTION, (S.BUY, "press_cancel"): S.IDLE,
    (S.BUY, "timeout"): S.IDLE,
    (S.PLAYER, "press_go"): S.IDLE, (S.PLAYER, "press_location"): S.LOCATION, (S.PLAYER, "tap_deed"): S.BUY,
    (S.PLAYER, "press_jail"): S.IDLE, (S.PLAYER, "tap_event"): S.EVENT,
    (S.ACTION, "tap_player"): S.IDLE, (S.ACTION, "timeout"): S.IDLE,
    (S.LOCATION, "tap_deed"): S.BUY, (S.LOCATION, "press_cancel"): S.IDLE,
    (S.EVENT_CARD, "tap_player"): S.EVENT, (S.EVENT, "answer"): S.IDLE, (S.EVENT, "tap_player"): S.IDLE,
    (S.AUCTION, "tap_player"): S.AUCTION, (S.AUCTION, "countdown"): S.IDLE, (S.AUCTION, "press_menu"): S.PIN,
    (S.AUCTION_WON, "tap_player"): S.IDLE,
    (S.DEBT, "tap_deed"): S.DEBT, (S.OVER, "press_menu"): S.PIN,
    (S.PIN, "press_cancel"): S.IDLE, (S.PIN, "timeout"): S.IDLE, (S.MENU, "press_undo"): S.MENU,  # asks first
    (S.MENU, "press_settings"): S.SETTINGS, (S.MENU, "press_new_game"): S.MENU,  # a game open: asks first
    (S.SETTINGS, "press_ok"): S.MENU, (S.SETTINGS, "press_cancel"): S.IDLE,
}
# refused although rows exist (the engine or the gesture says no), with the error key
EXPECTED_ERROR: dict[tuple[BankerState, str], str] = {
    (S.SETUP, "press_ok"): "error.need_players", (S.SETUP, "answer"): "error.bad_setup",
    (S.EVENT, "tap_deed"): "error.bad_choice",
    (S.AUCTION, "press_bid"): "error.tap_bidder_first", (S.PIN, "answer"): "error.bad_pin",
    (S.SETTINGS, "answer"): "error.bad_setting", (S.DEBT, "tap_deed"): "error.rule",
    (S.MENU, "tap_banker"): "error.wrong_card",
}
EXPECTED[(S.DEBT, "tap_deed")] = S.DEBT


def rows(state: BankerState, trigger: str) -> list[dict[str, object]]:
    return [r for r in TRANSITIONS if r["trigger"] == trigger
            and (r["source"] == state or (isinstance(r["source"], list) and state in r["source"]))]


def make(tmp_path: Path, state: BankerState) -> tuple[Banker, ManualClock, Journal]:
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock = ManualClock()
    cards = CardTable()
    banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 7, timeout_s=10, auction_s=5, pin="1234")
    run_script(steps_of([*CARDS, *PREFIX[state]]), banker, clock, cards.enroll)
    clock.advance(REPEAT_S)  # the pair's input is a new touch, not a bounce of the prefix's last tap
    assert banker.state is state, f"prefix for {state} ended in {banker.state}"
    return banker, clock, journal


def fire(banker: Banker, trigger: str):  # type: ignore[no-untyped-def]
    if trigger.startswith("tap_"):
        return banker.tap(INPUT[trigger])
    if trigger.startswith("press_"):
        return banker.press(trigger.removeprefix("press_"), VALUE.get(trigger))
    if trigger == "answer":
        return banker.choose(VALUE["answer"])
    return banker._fire(trigger, None)


def table_states() -> set[BankerState]:
    """The states the Ultimate Banking table reaches (the classic game's own are in tests/engine/banker/)."""
    return {BankerState.SETUP} | {r["dest"] for r in TRANSITIONS if r["dest"] is not None}  # type: ignore[misc]


PAIRS = [(s, t) for s in BankerState if s in PREFIX for t in input_triggers()]


def test_every_state_has_a_prefix() -> None:
    assert set(PREFIX) == table_states()


@pytest.mark.parametrize(("state", "trigger"), PAIRS, ids=[f"{s.value}-{t}" for s, t in PAIRS])
def test_pair(state: BankerState, trigger: str, tmp_path: Path) -> None:
    banker, _clock, journal = make(tmp_path, state)
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
        assert reaction.prompt.key == f"prompt.{state.value}"  # says again what is expected
        return
    assert len({e.command for e in reaction.events}) <= 1, "one gesture, at most one command"
    dests = {r["dest"] or state for r in candidates}
    settles = any("then_settle" in (r.get("after") or []) for r in candidates)
    if settles and banker.game is not None:
        dests |= {phase_state(banker.game.state.phase), S.BUY, S.DEED, S.SETUP}
    assert banker.state in dests
    if (state, trigger) in EXPECTED:
        assert banker.state is EXPECTED[(state, trigger)]
    if reaction.events:
        assert journal.load(banker.durable.game_id)[1][-1] == reaction.events[-1]  # on disk


@pytest.mark.parametrize("state", list(PREFIX), ids=[s.value for s in PREFIX])
def test_may_agrees_with_the_machine(state: BankerState, tmp_path: Path) -> None:
    banker, _clock, _journal = make(tmp_path, state)
    for trigger in input_triggers():
        if not hasattr(banker, f"may_{trigger}"):  # another ruleset's button: no event in this machine
            assert banker.may(trigger) is False
            continue
        banker._probing = True  # what Banker.may sets while conditions are probed
        try:
            machine_says = bool(getattr(banker, f"may_{trigger}")())
        finally:
            banker._probing = False
        assert banker.may(trigger) is machine_says, (state, trigger)
    assert set(banker.view.actions) == {t for t in banker.view.actions if banker.may(t)}
