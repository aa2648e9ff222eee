"""What the players are in the middle of survives a restart: the banker's state, its prompt and what the
gesture holds (setup seats and names, the landing after a jump, an auction won, a debt half paid, a
half-done gesture, the timers), from the journal and the banker's record in the installation file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from engine.banker.machine import Banker
from engine.banker.table import BankerState
from engine.banker.tapscript import CardTable, ManualClock, run_script, steps_of
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

CARDS = ["card 000000A1 player 1", "card 000000A2 player 2", "card 00000116 deed 16", "card 00000101 deed 1",
         "card 00000102 deed 2", "card 00000122 deed 22", "card 00000218 event 18", "card 000000BB banker"]
START = ["tap 000000A1", "tap 000000A2", "press ok"]


class Table:
    """A banker over one installation file, restartable (a new Banker, journal and clock: a power cut)."""

    def __init__(self, tmp_path: Path) -> None:
        self.db = tmp_path / "bb.sqlite3"
        self.cards = CardTable()
        self.journals: list[Journal] = []
        self.banker, self.clock = self._open()

    def _open(self) -> tuple[Banker, ManualClock]:
        journal = Journal.open(self.db)
        self.journals.append(journal)
        clock = ManualClock()
        return Banker(JournalStore(journal), self.cards, clock, seed_source=lambda: 5), clock

    def play(self, *lines: str) -> None:
        run_script(steps_of(list(lines)), self.banker, self.clock, self.cards.enroll)

    def restart(self) -> tuple[BankerState, object, object]:
        before = (self.banker.state, self.banker.view.prompt, self.banker.view.players)
        self.journals[-1].close()
        self.banker, self.clock = self._open()
        after = (self.banker.state, self.banker.view.prompt, self.banker.view.players)
        assert after == before, f"before the restart {before}, after it {after}"
        return after


def test_setup_seats_names_tokens_options_survive(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.play(*CARDS, "tap 000000A1", "tap 000000A2", "choose name=1:Ann", "choose token=2:black",
           "choose option=start_money:2000")
    t.restart()
    assert t.banker.state is BankerState.SETUP and t.banker.seats == (1, 2)
    assert t.banker.chosen_options == {"start_money": 2000}
    t.play("press ok", "expect name 1 Ann", "expect token 2 black", "expect balance 1 2000")


def test_the_landing_after_a_location_survives(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.play(*CARDS, *START, "press location", "tap 000000A1", "tap 00000116", "expect state buy",
           "expect balance 1 1400")
    t.restart()
    assert t.banker.state is BankerState.BUY
    t.play("press ok", "expect owner 16 1", "expect balance 1 1140")


def test_the_landing_after_a_location_survives_without_the_banker_record(tmp_path: Path) -> None:
    """A power cut between the journal's commit of UseLocation and the banker's record: the landing is
    the engine's (the ruleset's state, from LocationUsed), so the unit still waits for buy or decline."""
    t = Table(tmp_path)
    t.play(*CARDS, *START, "press location", "tap 000000A1", "tap 00000116", "expect state buy")
    t.journals[-1].close()
    with sqlite3.connect(t.db) as conn:
        conn.execute("DELETE FROM banker_record")
    t.banker, t.clock = t._open()
    assert t.banker.state is BankerState.BUY
    t.play("press decline", "expect state auction")


def test_the_landing_after_a_move_card_survives(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.play(*CARDS, *START, "tap 00000116", "tap 000000A2", "press ok", "press end_turn",
           "tap 00000218", "tap 000000A1", "expect state event", "choose 16", "expect state deed")
    t.restart()
    assert t.banker.state is BankerState.DEED
    t.play("tap 000000A1", "expect balance 1 1300", "expect level 16 2")


def test_an_auction_won_survives(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.play(*CARDS, *START, "tap 00000116", "tap 000000A1", "press decline", "tap 000000A2", "press bid 100",
           "wait 10", "expect state auction_won")
    t.restart()
    assert t.banker.state is BankerState.AUCTION_WON
    t.play("tap 000000A1", "expect error error.not_winner", "tap 000000A2", "expect owner 16 2")


def test_an_auction_countdown_resumes_where_it_stood(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.play(*CARDS, *START, "tap 00000116", "tap 000000A1", "press decline", "tap 000000A2", "press bid 100",
           "wait 6")
    t.restart()
    t.play("wait 4", "expect state auction_won")


def test_a_debt_half_paid_survives(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.play(*CARDS, *START, "tap 00000122", "tap 000000A1", "press ok", "tap 00000101", "tap 000000A2", "press ok",
           "tap 00000102", "tap 000000A2", "press ok", *["tap 00000122", "tap 000000A1"] * 4,
           "tap 00000122", "tap 000000A2", "expect state debt", "tap 00000101", "expect state debt")
    t.restart()
    assert t.banker.state is BankerState.DEBT
    t.play("tap 00000102", "expect state over")


def test_a_half_done_gesture_and_its_timeout_survive(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.play(*CARDS, *START, "tap 00000116", "wait 6", "expect state deed")
    t.restart()
    assert t.banker.state is BankerState.DEED
    t.play("wait 3", "expect state deed", "wait 1", "expect state idle")


def test_a_restart_locks_the_menu_and_a_new_game_being_set_up_survives(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.play(*CARDS, *START, "tap 00000116", "tap 000000A1")
    before = t.banker.view.prompt
    t.play("press decline", "tap 000000BB", "choose 12")
    t.journals[-1].close()
    t.banker, t.clock = t._open()
    assert t.banker.state is BankerState.AUCTION  # the state under the PIN prompt; nothing typed
    assert t.banker.view.prompt != before and t.banker.gesture.pin == ""
    t.play("tap 000000BB", "choose 1234", "expect state menu", "press settings", "choose timeout_s=30")
    t.journals[-1].close()
    t.banker, t.clock = t._open()
    assert t.banker.state is BankerState.AUCTION and t.banker.timeout_s == 10.0  # staged, never confirmed
    t.play("tap 000000BB", "choose 1234", "press new_game", "press ok", "tap 000000A2", "expect state setup")
    t.restart()
    assert t.banker.state is BankerState.SETUP and t.banker.seats == (2,) and t.banker.durable is None
    t.play("tap 000000BB", "choose 1234", "expect state menu")
    t.journals[-1].close()
    t.banker, t.clock = t._open()
    assert t.banker.state is BankerState.SETUP and t.banker.seats == (2,)


def test_a_damaged_banker_record_is_ignored(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.play(*CARDS, *START, "tap 00000116")
    t.journals[-1].close()
    for bad in ("{not json", '"a string"', '{"v": 1, "state": "deed"}'):
        with sqlite3.connect(t.db) as conn:
            conn.execute("UPDATE banker_record SET value = ?", (bad,))
        t.banker, t.clock = t._open()
        assert t.banker.state is BankerState.IDLE  # the journal alone: the state of the engine's phase
        t.journals[-1].close()


def test_a_committing_input_commits_its_record_with_its_command_once(tmp_path: Path) -> None:
    """One transaction per committing input: the command and the record after it (so the record on disk
    is always current after a command, and a restart never falls back to guessing); an input without a
    command commits nothing (its record goes to the file without a sync)."""
    t = Table(tmp_path)
    t.play(*CARDS, *START, "tap 00000116", "tap 000000A1", "press ok")
    journal = t.journals[-1]
    commits: list[bool] = []
    original = journal.finish_input
    journal.finish_input = lambda also=None: commits.append(original(also)) or commits[-1]  # type: ignore[method-assign]
    t.play("tap 00000116")  # a gesture state: no command
    assert commits == [False]
    t.play("tap 000000A1")  # LandOnOwn, back to idle: one commit, the record in it
    assert commits == [False, True]
    record = t.banker.store.load_record()
    assert record is not None and record["seq"] == t.banker.last_seq and record["state"] == "idle"
    t.restart()
    t.play("expect level 16 2")


def test_settings_saved_by_the_caller_during_a_committing_input_do_not_wait_for_its_transaction(
        tmp_path: Path) -> None:
    """The names remembered when a game starts (``on_settings`` inside StartGame's input) reach the caller after
    the input's commit, so its own write to the installation file is not locked out by the input's
    transaction (the touch app's settings waited 5 s and were then lost: "database is locked")."""
    db = tmp_path / "bb.sqlite3"
    journal = Journal.open(db)
    saved: list[object] = []

    def save(values: object) -> None:
        with sqlite3.connect(db, timeout=0.2) as other:  # another connection, as ui/settings.py has
            other.execute("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            other.execute("INSERT OR REPLACE INTO settings VALUES ('names', ?)", (repr(values),))
        other.close()
        saved.append(values)

    cards, clock = CardTable(), ManualClock()
    banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 5, on_settings=save)
    run_script(steps_of([*CARDS, "tap 000000A1", "tap 000000A2", "choose name=1:Ann", "press ok",
                         "expect state idle"]), banker, clock, cards.enroll)
    assert saved and "Ann" in str(saved[-1])
    journal.close()
