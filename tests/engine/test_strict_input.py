"""Inputs that look like numbers but are not: Unicode digits, signs, words, huge numbers, non-finite waits.

Each is refused with a one-line message and changes nothing (no crash, no command)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.table import BankerState
from engine.banker.tapscript import CardTable, Interpreter, ManualClock, TapScriptError, run_script, steps_of
from engine.numbers import is_digits, parse_count, parse_int, parse_seconds
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

CARDS = ["card 000000A1 player 1", "card 000000A2 player 2", "card 000000A3 player 3", "card 00000116 deed 16",
         "card 00000101 deed 1", "card 00000213 event 13", "card 000000BB banker"]
START = ["tap 000000A1", "tap 000000A2", "tap 000000A3", "press ok"]
WEIRD = ["²", "①", "⁴", "١٢", "1_0", " 20", "20 ", "+20", "-100", "abc", "", "9" * 5000, "0x14", "٢٠"]


def _banker(tmp_path: Path) -> tuple[Banker, ManualClock, CardTable]:
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(Journal.open(tmp_path / "bb.sqlite3")), cards, clock, seed_source=lambda: 5, pin="1234")
    run_script(steps_of([*CARDS, *START]), banker, clock, cards.enroll)
    return banker, clock, cards


def _auction(banker: Banker, clock: ManualClock, cards: CardTable) -> None:
    run_script(steps_of(["tap 00000101", "tap 000000A1", "press decline", "tap 000000A2"]), banker, clock,
               cards.enroll)
    assert banker.state is BankerState.AUCTION


def test_the_strict_parser() -> None:
    for text in WEIRD:
        assert parse_count(text) is None and not is_digits(text), text
    assert parse_count("20") == 20 and parse_count("0") == 0 and parse_count("1" * 10) is None
    assert parse_int("-5") == -5 and parse_int("--5") is None and parse_int("-") is None
    for text in ("nan", "inf", "-1", "1e308", "1e3", "²", "1_0", "86401", "NaN", "infinity", " 1", "1."):
        assert parse_seconds(text) is None, text
    assert parse_seconds("10") == 10.0 and parse_seconds("0.5") == 0.5 and parse_seconds("86400") == 86400.0


@pytest.mark.parametrize("value", WEIRD)
def test_a_bid_that_is_not_a_plain_number_is_refused(tmp_path: Path, value: str) -> None:
    banker, clock, cards = _banker(tmp_path)
    _auction(banker, clock, cards)
    seq = banker.last_seq
    reaction = banker.press("bid", value)
    assert reaction.error == "error.bad_bid", (value, reaction.error)
    assert reaction.events == () and banker.last_seq == seq
    assert banker.game is not None and banker.game.state.auction is not None
    assert banker.game.state.auction.high_bid == 20  # the bidder's tap itself bid the step (one touch)
    assert banker.press("bid", "20").error is None and banker.game.state.auction.high_bid == 40
    assert banker.press("bid", None).error is None and banker.game.state.auction.high_bid == 60


def test_a_zero_bid_raises_nothing(tmp_path: Path) -> None:
    banker, clock, cards = _banker(tmp_path)
    _auction(banker, clock, cards)
    assert banker.press("bid", "0").error == "error.bad_bid"


@pytest.mark.parametrize("value", ["²", "①", "⁴", "١", "9" * 5000])
def test_an_event_answer_in_unicode_digits_is_refused(tmp_path: Path, value: str) -> None:
    banker, clock, cards = _banker(tmp_path)
    run_script(steps_of(["tap 00000213", "tap 000000A1"]), banker, clock, cards.enroll)
    assert banker.state is BankerState.EVENT
    reaction = banker.choose(value)
    assert reaction.error == "error.bad_choice" and reaction.events == ()
    assert banker.state is BankerState.EVENT


@pytest.mark.parametrize("value", ["²", "①", "⁴", "١", "١٢٣٤", "12³4"])
def test_a_pin_in_unicode_digits_is_refused(tmp_path: Path, value: str) -> None:
    banker, _clock, _cards = _banker(tmp_path)
    banker.tap("000000BB")
    assert banker.state is BankerState.PIN
    assert banker.choose(value).error == "error.bad_pin"
    assert banker.state is BankerState.PIN
    assert banker.choose("1234").error is None and banker.state is BankerState.MENU


@pytest.mark.parametrize("value", ["timeout_s=²", "timeout_s=1²", "auction_s=nan", "timeout_s=inf",
                                   "timeout_s=1e308", "pin=١٢٣٤", "pin=12³4", "timeout_s=" + "9" * 5000])
def test_a_setting_in_unicode_digits_is_refused(tmp_path: Path, value: str) -> None:
    banker, _clock, _cards = _banker(tmp_path)
    banker.tap("000000BB")
    banker.choose("1234")
    banker.press("settings")
    assert banker.state is BankerState.SETTINGS
    assert banker.choose(value).error == "error.bad_setting"


@pytest.mark.parametrize("value", ["name=²:Ann", "token=①:red", "name=" + "9" * 5000 + ":Ann"])
def test_a_seat_in_unicode_digits_is_refused(tmp_path: Path, value: str) -> None:
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(Journal.open(tmp_path / "bb.sqlite3")), cards, clock, seed_source=lambda: 5)
    run_script(steps_of([*CARDS, "tap 000000A1"]), banker, clock, cards.enroll)
    assert banker.choose(value).error in ("error.not_seated", "error.bad_setup")


@pytest.mark.parametrize("line", [
    "wait nan", "wait inf", "wait 1e308", "wait -inf", "wait 86401", "wait ²", "wait 1_0", "wait NaN",
    "expect balance 1 " + "9" * 5000, "expect balance " + "9" * 5000 + " 5", "expect level ² 1",
    "expect owner x", "expect", "expect balance", "expect level 16 ١", "card 0A player " + "9" * 5000,
    "expect owner " + "9" * 5000 + " 1", "expect option x", "expect option ² ²", "expect balance p² 1",
])
def test_malformed_lines_are_refused_without_a_traceback(tmp_path: Path, line: str) -> None:
    banker, clock, cards = _banker(tmp_path)
    failures: list[object] = []
    interpreter = Interpreter(banker, on_enroll=cards.enroll, on_wait=clock.advance,
                              on_expect=lambda step, failure: failures.append(failure))
    before = (banker.state, clock.now, banker.last_seq)
    try:
        interpreter.line(line, 1)
    except TapScriptError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
    assert (banker.state, clock.now, banker.last_seq) == before


def test_wait_nan_does_not_stop_the_countdown(tmp_path: Path) -> None:
    banker, clock, cards = _banker(tmp_path)
    _auction(banker, clock, cards)
    banker.press("bid", "20")
    interpreter = Interpreter(banker, on_enroll=cards.enroll, on_wait=clock.advance)
    for line in ("wait nan", "wait inf", "wait 1e308"):
        with pytest.raises(TapScriptError):
            interpreter.line(line, 1)
    interpreter.line("wait 10", 2)
    assert banker.state is BankerState.AUCTION_WON


@pytest.mark.parametrize("value", ["option=start_money:١٥٠٠", "option=start_money:1_500", "option=start_money:²",
                                   "option=start_money:" + "9" * 5000, "option=max_players:٤"])
def test_an_option_in_look_alike_digits_is_refused(tmp_path: Path, value: str) -> None:
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(Journal.open(tmp_path / "bb.sqlite3")), cards, clock, seed_source=lambda: 5)
    run_script(steps_of([*CARDS, "tap 000000A1"]), banker, clock, cards.enroll)
    assert banker.choose(value).error == "error.bad_option"
    assert banker.chosen_options == {}
    assert banker.choose("option=start_money:1600").error is None
