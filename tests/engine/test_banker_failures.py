"""The banker when the disk fails, on restore, and with bad arguments: it reports, it never half-applies."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.machine import Banker, BankerError
from engine.banker.table import BankerState
from engine.banker.tapscript import CardTable, ManualClock, run_script, steps_of
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal, JournalError

CARDS = ["card 000000A1 player 1", "card 000000A2 player 2", "card 00000116 deed 16"]
START = ["tap 000000A1", "tap 000000A2", "press ok", "tap 00000116", "tap 000000A1", "press ok"]


def _banker(tmp_path: Path, **kwargs: object) -> tuple[Banker, Journal, ManualClock, CardTable]:
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 5, **kwargs)  # type: ignore[arg-type]
    run_script(steps_of([*CARDS, *START]), banker, clock, cards.enroll)
    return banker, journal, clock, cards


def test_a_failed_write_is_reported_and_nothing_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    banker, journal, _clock, _cards = _banker(tmp_path)
    before = banker.game.state.snapshot() if banker.game else None
    seq = banker.last_seq

    def broken(*args: object, **kwargs: object) -> None:
        raise JournalError("disk full")

    monkeypatch.setattr(journal, "append", broken)
    banker.tap("00000116")
    reaction = banker.tap("000000A2")  # rent: the write fails
    assert reaction.error == "error.storage" and "disk full" in str(reaction.params["reason"])
    assert reaction.events == ()
    assert banker.state is BankerState.IDLE
    assert banker.game is not None and banker.game.state.snapshot() == before
    assert banker.last_seq == seq
    monkeypatch.undo()
    banker.tap("00000116")
    assert banker.tap("000000A2").error is None  # works again once the disk does


def test_restart_resumes_the_state_of_the_phase(tmp_path: Path) -> None:
    banker, journal, clock, cards = _banker(tmp_path)
    run_script(steps_of(["tap 00000116", "tap 000000A2", "card 00000101 deed 1", "tap 00000101",
                         "tap 000000A2", "press decline", "tap 000000A1", "press bid 100"]),
               banker, clock, cards.enroll)
    assert banker.state is BankerState.AUCTION
    journal.close()
    clock2 = ManualClock()
    again = Banker(JournalStore(Journal.open(tmp_path / "bb.sqlite3")), cards, clock2, seed_source=lambda: 5)
    assert again.state is BankerState.AUCTION  # restored from the engine's phase
    assert again.view.auction is not None and again.view.auction.high_bid == 120  # the tap's 20, then +100
    clock2.advance(10)
    assert again.tick().view.state == "auction_won"  # the countdown restarted on resume
    assert again.view.seq == banker.last_seq
    assert [p.balance for p in again.view.players] == [p.balance for p in banker.view.players]
    assert again.view.wealth_history == banker.view.wealth_history


def test_restore_refuses_unknown_states(tmp_path: Path) -> None:
    banker, *_ = _banker(tmp_path)
    with pytest.raises(BankerError, match="unknown banker state 'LIMBO'"):
        banker.restore("LIMBO")
    assert "LIMBO" not in banker.machine.states
    banker.restore("DEBT")
    assert banker.state is BankerState.DEBT


@pytest.mark.parametrize(("kwargs", "match"), [({"timeout_s": 0}, "positive"), ({"pin": "12a4"}, "digits")])
def test_bad_arguments(tmp_path: Path, kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(BankerError, match=match):
        _banker(tmp_path, **kwargs)


def test_a_rule_refusal_carries_the_engines_key_and_parameters(tmp_path: Path) -> None:
    """The screen says the engine's reason in its own language: the key and the values travel with it."""
    banker, _journal, _clock, _cards = _banker(tmp_path)
    banker.tap("000000A2")
    reaction = banker.press("pay_fee")  # player 2 is not in jail
    assert reaction.error == "error.rule"
    assert reaction.params["reason_key"] == "reason.not_in_jail"
    assert reaction.params["player"] == "p2"
    assert "not in jail" in str(reaction.params["reason"])  # the English sentence stays for logs and CLIs
