"""No slip ends or spoils a game (docs/flows.md, "Slips"): a card read twice, X after money moved, New game
and Undo, across a restart too. The tap scripts taps/location_cancel.tap, taps/new_game_back.tap and
taps/undo_asks.tap play the gestures; these tests cover every state and the restart.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.table import BankerState
from engine.banker.tapscript import CardTable, ManualClock, run_script, steps_of
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal
from tests.engine import test_banker_pairs as ultimate
from tests.engine.banker import test_classic_pairs as classic

SECOND_READ_S = 0.12  # a reader's second read of one presentation, as seen at the table (~120 ms apart)
KINDS = ("tap_player", "tap_deed", "tap_event", "tap_banker")

CASES = [("ultimate", s, k) for s in ultimate.PREFIX for k in KINDS] + \
        [("classic", s, k) for s in classic.PREFIX for k in KINDS]


def _banker(ruleset: str, state: BankerState, tmp_path: Path) -> Banker:
    return ultimate.make(tmp_path, state)[0] if ruleset == "ultimate" else classic.make(tmp_path, state)[0]


@pytest.mark.parametrize(("ruleset", "state", "kind"), CASES,
                         ids=[f"{r}-{s.value}-{k}" for r, s, k in CASES])
def test_a_card_read_twice_at_once_is_ignored_silently_in_every_state(
        ruleset: str, state: BankerState, kind: str, tmp_path: Path) -> None:
    banker = _banker(ruleset, state, tmp_path)
    uid = (ultimate.INPUT if ruleset == "ultimate" else classic.INPUT)[kind]
    banker.tap(uid)  # the first read: whatever it does in this state
    after_first = (banker.state, banker.last_seq, banker.game.state.snapshot() if banker.game else None,
                   banker.view.prompt)
    banker.ctx.clock.advance(SECOND_READ_S)  # type: ignore[attr-defined]
    second = banker.tap(uid)
    assert second.error is None, f"{ruleset} {state.value}: the second read said {second.error}"
    assert second.cues == () and second.events == ()
    assert (banker.state, banker.last_seq, banker.game.state.snapshot() if banker.game else None,
            banker.view.prompt) == after_first


def test_a_deed_read_twice_is_no_busy_error_and_the_same_card_later_counts(tmp_path: Path) -> None:
    """The issue's case: a deed tapped, its second read ~120 ms later said "finish or cancel the current
    action first". Lifted and tapped again after the window, the same card is a new tap."""
    banker, clock, _ = ultimate.make(tmp_path, BankerState.IDLE)
    assert banker.tap("00000103").error is None and banker.state is BankerState.DEED
    clock.advance(SECOND_READ_S)
    assert banker.tap("00000103").error is None and banker.state is BankerState.DEED
    clock.advance(2.0)
    assert banker.tap("00000103").error == "error.busy"  # a new tap of the same card: said as before


def _table(path: Path, *lines: str) -> Banker:
    journal = Journal.open(path)
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 7)
    run_script(steps_of([*ultimate.CARDS, *lines]), banker, clock, cards.enroll)
    return banker


def test_the_game_new_game_left_is_offered_after_a_restart_until_a_new_one_starts(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    banker = _table(db, "tap 000000A1", "tap 000000A2", "choose name=1:Ann", "choose name=2:Ben", "press ok",
                    "tap 00000103", "tap 000000A1", "press ok", "press end_turn", "press menu", "press new_game",
                    "press ok", "tap 000000A1")
    params = dict(banker.view.prompt.params)
    assert banker.state is BankerState.SETUP and params["back_names"] == "Ann\nBen" and params["back_turn"] == 2
    assert "press_back" in banker.view.actions
    banker = _table(db)  # the unit restarts while the new game is being registered
    assert banker.state is BankerState.SETUP and banker.seats == (1,)
    assert dict(banker.view.prompt.params)["back_names"] == "Ann\nBen" and "press_back" in banker.view.actions
    reaction = banker.press("back")
    assert reaction.error is None and banker.state is BankerState.IDLE
    assert banker.game is not None and banker.game.state.owner[3] == "p1" and banker.game.state.turn == "p2"
    run_script(steps_of(["press menu", "press new_game", "press ok", "tap 000000A1", "tap 000000A2", "press ok"]),
               banker, banker.ctx.clock, lambda *a: None)  # type: ignore[arg-type]
    banker = _table(db, "press menu", "press new_game", "press ok")  # New game in the new game
    assert dict(banker.view.prompt.params)["back_names"] == "Player 1\nPlayer 2"  # the second game, not Ann's


def test_a_finished_game_s_new_game_asks_nothing_and_offers_no_way_back(tmp_path: Path) -> None:
    banker = _table(tmp_path / "bb.sqlite3", *ultimate.PREFIX[BankerState.OVER])
    assert banker.state is BankerState.OVER
    banker.press("new_game")
    assert banker.state is BankerState.SETUP and "press_back" not in banker.view.actions
    assert "back_names" not in dict(banker.view.prompt.params)


def test_undo_of_a_bid_keeps_the_auction_consistent(tmp_path: Path) -> None:
    """The menu's Undo of a bid in a running auction: the high bidder is the one shown bidding."""
    banker = _table(tmp_path / "bb.sqlite3", *ultimate.REGISTER, "tap 00000103", "tap 000000A1",
                    "press decline", "tap 000000A2", "press bid 100", "press menu", "press undo")
    assert banker.view.prompt.key == "prompt.undo_bid" and dict(banker.view.prompt.params)["bid"] == 120
    banker.press("ok")
    auction = banker.view.auction
    assert banker.state is BankerState.AUCTION and auction is not None
    assert (auction.high_bid, auction.high_bidder, banker.view.selected_player) == (20, "p2", "p2")


def test_x_after_a_move_card_s_jump_is_refused_and_the_timeout_waits(tmp_path: Path) -> None:
    """A card that moves the token obliges its landing (classic Chance "Advance to St. Charles Place")."""
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal, "classic-us"), cards, clock, seed_source=lambda: 7)
    run_script(steps_of([*classic.CARDS, *classic.REGISTER, "tap 000000A1", "press chance", "choose 36"]),
               banker, clock, cards.enroll)
    assert banker.state is BankerState.BUY
    seq = banker.last_seq
    assert banker.press("cancel").error == "error.finish_landing"
    clock.advance(60.0)
    banker.tick()
    assert banker.state is BankerState.BUY and banker.last_seq == seq


def test_x_after_an_ultimate_move_card_is_refused_and_its_landing_stays(tmp_path: Path) -> None:
    """DEAL OF THE WEEK (event 18): "move for free to any deed space, then buy it, auction it..."."""
    banker = _table(tmp_path / "bb.sqlite3", *ultimate.REGISTER, "tap 00000218", "tap 000000A1", "choose 1")
    assert banker.state is BankerState.BUY and banker.gesture.deed == 1
    assert banker.press("cancel").error == "error.finish_landing"
    assert banker.state is BankerState.BUY
    assert banker.press("decline").error is None and banker.state is BankerState.AUCTION


def test_the_standings_new_game_lights_the_edition_asked_at_the_restart(tmp_path: Path) -> None:
    """The issue: a restart with ``--edition ultimate-uk`` said so, yet the standings' New game lit the
    edition of the game just finished."""
    db = tmp_path / "bb.sqlite3"
    journal = Journal.open(db)
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal, "ultimate-us"), cards, clock, seed_source=lambda: 7)
    run_script(steps_of([*ultimate.CARDS, *ultimate.PREFIX[BankerState.OVER]]), banker, clock, cards.enroll)
    assert banker.state is BankerState.OVER and banker.game is not None and banker.game.edition.id == "ultimate-us"
    journal.close()
    journal = Journal.open(db)
    banker = Banker(JournalStore(journal, "ultimate-uk"), cards, clock, seed_source=lambda: 7, edition_asked=True)
    assert banker.state is BankerState.OVER
    banker.press("new_game")
    assert banker.state is BankerState.SETUP and banker.view.edition == "ultimate-uk"


def test_undo_of_a_finished_building_auction_undoes_it_whole(tmp_path: Path) -> None:
    """The classic game's building auction (a housing shortage): Undo of its close names it and takes back
    the whole auction, never reopening it with its countdown over."""
    banker, _journal = classic.make(tmp_path, BankerState.PLACE)
    run_script(steps_of(["press menu", "choose 1234", "press undo"]), banker, banker.ctx.clock,  # type: ignore[arg-type]
               lambda *a: None)  # type: ignore[arg-type,return-value]
    question = banker.view.prompt
    assert question.key == "prompt.undo_building_auction_won" and dict(question.params)["winner"] == "p2"
    assert banker.press("ok").error is None
    assert banker.view.auction is None and banker.state is not BankerState.AUCTION
    assert banker.game is not None and banker.game.state.phase == "play"


def test_a_payment_taken_back_is_marked_undone_on_the_last_payment_line(tmp_path: Path) -> None:
    """X after a Location's fee undoes the fee and the jump: the last-payment line must not go on showing
    the M100 as paid (it showed "Location: Player 1 pays M100 and moves to ..." after the money came back)."""
    banker = _table(tmp_path / "bb.sqlite3", "tap 000000A1", "tap 000000A2", "press ok", "press location",
                    "tap 000000A1", "tap 00000109")
    paid = banker.view.last_transaction
    assert paid is not None and paid.amount == 100 and not paid.undone
    assert banker.press("cancel").error is None and banker.state is BankerState.IDLE
    taken = banker.view.last_transaction
    assert taken is not None and taken.undone and (taken.seq, taken.amount) == (paid.seq, 100)
    banker.press("location")
    banker.tap("000000A1")
    banker.tap("00000109")
    again = banker.view.last_transaction
    assert again is not None and not again.undone and again.seq > paid.seq  # a new payment: a new line
