"""The table's traps, checked on the banker directly (issue: a classic game a family plays to the end):
the prompt's rent is the rent charged, a touch restarts the gesture timeout, a long silence asks first.

Sources: docs/rules-classic.md 3 (Chance: the nearest railroad at twice the rent) and 5 (rent); docs/flows.md
("Nothing is taken from under the family's hands").
"""

from __future__ import annotations

from pathlib import Path

from engine.banker.machine import Banker
from engine.banker.patience import ENTRY_S
from engine.banker.tapscript import CardTable, ManualClock, parse, run_script
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal


def _banker(tmp_path: Path, script: str) -> tuple[Banker, ManualClock]:
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(Journal.open(tmp_path / "bb.sqlite3"), "classic-us"), cards, clock,
                    seed_source=lambda: 7)
    run_script(parse("# source: docs/rules-classic.md 5\n" + script).steps, banker, clock, cards.enroll)
    return banker, clock


SEATED = "card 000000A1 player 1\ncard 000000A2 player 2\ntap 000000A1\ntap 000000A2\n"


def test_the_rent_shown_after_the_nearest_railroad_card_is_the_rent_charged(tmp_path: Path) -> None:
    banker, _ = _banker(tmp_path, SEATED + (
        "card 00000E05 event 5\nchoose option=positions:on\npress ok\n"
        "choose 5\nchoose 5\nchoose 2\nchoose 3\npress ok\n"  # player 1 buys Pennsylvania Railroad (15)
        "choose 1\nchoose 2\npress cancel\n"                  # player 2: GO -> 3, Baltic Avenue, left
        "choose 1\nchoose 2\npress cancel\n"                  # player 1: 15 -> 18
        "choose 2\nchoose 2\n"                                # player 2: 3 -> 7, Chance
        "tap 00000E05\n"))                                    # on to the nearest railroad: 15, the owner's
    prompt = banker.view.prompt
    assert prompt.key == "prompt.landed_pay"
    assert prompt.as_dict()["rent"] == 50  # one railroad: 25, twice for the card
    before = banker.view.players[1].balance
    banker.tap("000000A2")
    assert before - banker.view.players[1].balance == 50


def test_a_touch_restarts_the_timeout_and_a_long_silence_asks_before_dropping(tmp_path: Path) -> None:
    banker, clock = _banker(tmp_path, SEATED + "press ok\npress trade\ntap 000000A1\ntap 000000A2\n")
    assert banker.state_name == "trade"
    for _ in range(10):  # cash typed on the keypad: each key a touch, 8 s apart
        clock.advance(8)
        banker.touch()
        banker.tick()
        assert banker.state_name == "trade" and banker.view.prompt.key != "prompt.still_there"
    clock.advance(ENTRY_S)
    banker.tick()
    assert banker.state_name == "trade" and banker.view.prompt.key == "prompt.still_there"
    clock.advance(600)
    banker.tick()
    assert banker.state_name == "trade", "asked, never dropped"
    banker.touch()
    assert banker.view.prompt.key != "prompt.still_there"
    banker.press("cancel")
    assert banker.state_name == "idle"


def test_a_gesture_with_nothing_entered_still_times_out(tmp_path: Path) -> None:
    banker, clock = _banker(tmp_path, SEATED + "press ok\ntap 000000A1\n")
    assert banker.state_name == "player"
    clock.advance(banker.timeout_s)
    banker.tick()
    assert banker.state_name == "idle"


def test_the_last_payment_banner_follows_building_and_mortgages(tmp_path: Path) -> None:
    """docs/rules-classic.md 6, 7: a house is paid to the Bank, a mortgage lent by it, a lift paid back."""
    banker, clock = _banker(tmp_path, SEATED + (
        "card 00000101 deed 1\ncard 00000102 deed 2\ncard 00000106 deed 6\npress ok\n"
        "tap 00000101\ntap 000000A1\npress ok\ntap 00000102\ntap 000000A1\npress ok\n"
        "tap 00000106\ntap 000000A1\npress ok\n"
        "wait 2\ntap 000000A1\npress build\ntap 00000101\n"))
    tx = banker.view.last_transaction
    assert tx is not None and (tx.kind, tx.amount, tx.payer, tx.payee) == ("BuildingBought", 50, "p1", None)
    banker.press("ok")
    clock.advance(2)
    banker.tap("00000106")
    banker.tap("000000A1")
    banker.press("mortgage")
    tx = banker.view.last_transaction
    assert tx is not None and (tx.kind, tx.amount, tx.payer, tx.payee) == ("DeedMortgaged", 60, None, "p1")


def test_the_last_payment_banner_shows_a_deals_cash(tmp_path: Path) -> None:
    """docs/rules-classic.md 7 (deals between players: deeds, cash and cards, both sides confirm)."""
    banker, _clock = _banker(tmp_path, SEATED + (
        "card 00000101 deed 1\npress ok\ntap 00000101\ntap 000000A1\npress ok\nwait 2\n"
        "press trade\ntap 000000A1\ntap 000000A2\ntap 00000101\nchoose cash=2:100\n"
        "wait 2\ntap 000000A1\nwait 2\ntap 000000A2\n"))
    assert banker.game is not None and banker.game.state.owner[1] == "p2"
    tx = banker.view.last_transaction
    assert tx is not None and (tx.kind, tx.amount, tx.payer, tx.payee) == ("TradeCompleted", 100, "p2", "p1")
