"""Input ids: the id of the input that completed a command is journaled with it; an input whose id is
known is answered (from the journal for a command) and never applied twice, also across a restart."""

from __future__ import annotations

from pathlib import Path

from engine.banker.machine import Banker, Reaction
from engine.banker.table import BankerState
from engine.banker.tapscript import CardTable, Interpreter, ManualClock, run_script, steps_of
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

CARDS = ["card 000000A1 player 1", "card 000000A2 player 2", "card 00000116 deed 16"]
START = ["tap 000000A1", "tap 000000A2", "press ok"]
BUY = [("b1", "tap 00000116"), ("b2", "tap 000000A1"), ("b3", "press ok")]


def _open(db: Path, cards: CardTable) -> tuple[Banker, Journal, Interpreter]:
    journal = Journal.open(db)
    clock = ManualClock()
    banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 5, pin="1234")
    return banker, journal, Interpreter(banker, on_enroll=cards.enroll, on_wait=clock.advance)


def _send(interpreter: Interpreter, lines: list[tuple[str, str]]) -> list[Reaction]:
    out = []
    for n, (input_id, text) in enumerate(lines, start=1):
        outcome = interpreter.line(text, n, input_id=input_id)
        assert outcome is not None and isinstance(outcome.reaction, Reaction)
        out.append(outcome.reaction)
    return out


def test_resending_a_buy_gesture_buys_once(tmp_path: Path) -> None:
    cards = CardTable()
    banker, journal, interpreter = _open(tmp_path / "bb.sqlite3", cards)
    run_script(steps_of([*CARDS, *START]), banker, ManualClock(), cards.enroll)
    first = _send(interpreter, BUY)
    assert banker.game is not None and banker.game.state.owner[16] == "p1"
    balance, seq = banker.game.state.balance("p1"), banker.last_seq
    again = _send(interpreter, BUY)  # a driver resends after a crash
    assert banker.game.state.level[16] == 1, "a resent buy must not become a landing on one's own deed"
    assert banker.game.state.balance("p1") == balance and banker.last_seq == seq
    assert all(r.duplicate for r in again) and not any(r.duplicate for r in first)
    assert again[2].events == first[2].events and again[0].events == ()  # answered from the journal
    assert all(r.input_id == i for r, (i, _) in zip(again, BUY, strict=True))
    game_id = banker.durable.game_id if banker.durable else 0
    assert journal.input_ids(game_id) == {"b3": first[2].events[0].command}


def test_known_ids_survive_a_restart(tmp_path: Path) -> None:
    cards = CardTable()
    db = tmp_path / "bb.sqlite3"
    banker, journal, interpreter = _open(db, cards)
    run_script(steps_of([*CARDS]), banker, ManualClock(), cards.enroll)
    _send(interpreter, [("s1", START[0]), ("s2", START[1]), ("s3", START[2]), *BUY[:2]])
    assert banker.state is BankerState.BUY
    journal.close()
    banker, journal, interpreter = _open(db, cards)
    assert banker.state is BankerState.BUY
    again = _send(interpreter, [("s3", START[2]), *BUY[:2]])
    assert all(r.duplicate for r in again) and again[0].events  # StartGame's events, from the journal
    assert banker.state is BankerState.BUY and banker.game is not None and 16 not in banker.game.state.owner
    _send(interpreter, [BUY[2]])
    assert banker.game.state.owner[16] == "p1"
    journal.close()
    banker, journal, interpreter = _open(db, cards)
    (reaction,) = _send(interpreter, [BUY[2]])
    assert reaction.duplicate and reaction.events and banker.game is not None
    assert banker.game.state.level[16] == 1


def test_a_repeated_wait_moves_the_clock_once(tmp_path: Path) -> None:
    cards = CardTable()
    banker, _journal, interpreter = _open(tmp_path / "bb.sqlite3", cards)
    run_script(steps_of([*CARDS, *START]), banker, ManualClock(), cards.enroll)
    _send(interpreter, [("t1", "tap 00000116"), ("w1", "wait 6")])
    _send(interpreter, [("w1", "wait 6")])
    assert banker.state is BankerState.DEED  # 6 s passed, not 12


def test_ids_without_a_command_are_remembered_within_a_bound(tmp_path: Path) -> None:
    from engine.banker.inputs import RECENT_IDS

    cards = CardTable()
    banker, _journal, interpreter = _open(tmp_path / "bb.sqlite3", cards)
    run_script(steps_of([*CARDS, *START]), banker, ManualClock(), cards.enroll)
    _send(interpreter, [("x0", "tap 00000116"), ("x0c", "press cancel")])
    _send(interpreter, [(f"e{n}", "press cancel") for n in range(RECENT_IDS)])
    (reaction,) = _send(interpreter, [("x0", "tap 00000116")])  # forgotten: applied as a new input
    assert not reaction.duplicate and banker.state is BankerState.DEED


def test_the_ids_of_a_menu_a_restart_locked_are_forgotten(tmp_path: Path) -> None:
    cards = CardTable()
    db = tmp_path / "bb.sqlite3"
    banker, journal, interpreter = _open(db, cards)
    run_script(steps_of([*CARDS, "card 000000BB banker", *START]), banker, ManualClock(), cards.enroll)
    _send(interpreter, [("k1", "tap 00000116"), ("k2", "press cancel"), ("m1", "tap 000000BB"), ("m2", "choose 12")])
    journal.close()
    banker, journal, interpreter = _open(db, cards)
    assert banker.state is BankerState.IDLE  # the menu locked again
    again = _send(interpreter, [("k2", "press cancel"), ("m1", "tap 000000BB"), ("m2", "choose 12")])
    assert [r.duplicate for r in again] == [True, False, False]  # the menu's inputs are applied again
    assert banker.state is BankerState.PIN  # the PIN is checked as a whole: "12" was one wrong entry


def test_a_resent_input_of_several_commands_is_answered_with_all_their_events(tmp_path: Path) -> None:
    """X on the classic build screen takes back each building tapped (one CommandUndone each, one input): the
    resent X, after a restart too, is answered with the events of every one of them, not only the last's.
    Found by tests/e2e/killanywhere.py (events journaled and never printed after a kill right after X's
    commit). Source: docs/flows.md (input ids); tests/engine/taps/classic/build_cancel.tap."""
    cards = CardTable()
    db = tmp_path / "bb.sqlite3"
    journal = Journal.open(db)
    clock = ManualClock()
    banker = Banker(JournalStore(journal, "classic-us"), cards, clock, seed_source=lambda: 5)
    interpreter = Interpreter(banker, on_enroll=cards.enroll, on_wait=clock.advance)
    run_script(steps_of(["card 000000A1 player 1", "card 000000A2 player 2", "card 00000101 deed 1",
                         "card 00000102 deed 2", "tap 000000A1", "tap 000000A2", "press ok", "tap 00000101",
                         "tap 000000A1", "press ok", "press end_turn", "press end_turn", "tap 00000102",
                         "tap 000000A1", "press ok", "tap 000000A1", "press build", "tap 00000101",
                         "tap 00000102"]), banker, clock, cards.enroll)
    [cancel] = _send(interpreter, [("x1", "press cancel")])
    assert len({e.command for e in cancel.events}) == 2, cancel.events
    [again] = _send(interpreter, [("x1", "press cancel")])
    assert again.duplicate and again.events == cancel.events
    journal.close()
    journal = Journal.open(db)
    banker = Banker(JournalStore(journal, "classic-us"), cards, ManualClock(), seed_source=lambda: 5)
    [after] = _send(Interpreter(banker, on_enroll=cards.enroll), [("x1", "press cancel")])
    assert after.duplicate and after.events == cancel.events
    journal.close()
