"""A power cut between a command's commit and the banker's record (engine/banker/resume.py, "after_command";
issue: after a bid the previous bidder came back selected, so ``press bid 100`` made the wrong player bid,
in both rulesets).

The window is made exactly: the banker's record as it was before the last line is put back after that
line's command was committed, as a power cut at that moment leaves the file. The restarted unit must be
where the uninterrupted one is: the same state, prompt and selected player, and the next line does the same.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, run_script, steps_of
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal


class Table:
    def __init__(self, db: Path, edition: str) -> None:
        self.db, self.edition, self.cards = db, edition, CardTable()
        self.journal: Journal | None = None
        self.banker, self.clock = self._open()

    def _open(self) -> tuple[Banker, ManualClock]:
        self.journal = Journal.open(self.db)
        clock = ManualClock()
        return Banker(JournalStore(self.journal, self.edition), self.cards, clock, seed_source=lambda: 5), clock

    def play(self, *lines: str) -> None:
        run_script(steps_of(list(lines)), self.banker, self.clock, self.cards.enroll)

    def seen(self) -> tuple[object, ...]:
        b = self.banker
        return b.state, b.view.prompt, b.ctx.gesture.player

    def cut_after(self, line: str) -> tuple[object, ...]:
        """Play ``line``, then leave the file as a power cut right after its commit leaves it."""
        with sqlite3.connect(self.db) as conn:
            (record,) = conn.execute("SELECT value FROM banker_record WHERE key = 'banker'").fetchone()
        conn.close()
        seq = self.banker.last_seq
        self.play(line)
        assert self.banker.last_seq > seq, "the line committed no command"
        want = self.seen()
        assert self.journal is not None
        self.journal.close()
        with sqlite3.connect(self.db) as conn:
            conn.execute("UPDATE banker_record SET value = ? WHERE key = 'banker'", (record,))
        conn.close()
        self.banker, self.clock = self._open()
        return want


ULTIMATE = ["card 000000A1 player 1", "card 000000A2 player 2", "card 000000A3 player 3", "card 00000116 deed 16",
            "tap 000000A1", "tap 000000A2", "tap 000000A3", "press ok",
            "tap 00000116", "tap 000000A1", "press decline", "expect state auction", "tap 000000A2"]
CLASSIC = ["card 000000A1 player 1", "card 000000A2 player 2", "card 000000A3 player 3", "card 00000103 deed 3",
           "tap 000000A1", "tap 000000A2", "tap 000000A3", "press ok",
           "tap 00000103", "tap 000000A1", "press decline", "expect state auction", "tap 000000A2"]


@pytest.mark.parametrize(("edition", "lines"), [("ultimate-uk", ULTIMATE), ("classic-uk", CLASSIC)])
def test_a_cut_after_a_bid_keeps_the_bidder_who_just_bid(tmp_path: Path, edition: str, lines: list[str]) -> None:
    t = Table(tmp_path / "bb.sqlite3", edition)
    t.play(*lines)
    want = t.cut_after("tap 000000A3")  # player 3 bids by a tap: the bidder selected is now player 3
    assert t.seen() == want
    t.play("press bid 100", "expect state auction")
    auction = t.banker.ctx.st().auction
    assert auction is not None and auction.high_bidder == "p3"


BUILD = ["card 000000A1 player 1", "card 000000A2 player 2", "card 00000101 deed 1", "card 00000102 deed 2",
         "tap 000000A1", "tap 000000A2", "press ok", "tap 00000101", "tap 000000A1", "press ok",
         "tap 00000102", "tap 000000A1", "press ok", "tap 000000A1", "press build", "expect state build",
         "tap 00000101"]


@pytest.mark.parametrize("mode", ["build", "sell"])
def test_a_cut_after_a_building_keeps_the_unit_building(tmp_path: Path, mode: str) -> None:
    """Issue: a kill between a BuildHouse commit and the record brought the unit back in idle (the next
    street tap became a deed check). Source: docs/rules-classic.md 6 (one building a tap, evenly)."""
    t = Table(tmp_path / "bb.sqlite3", "classic-uk")
    t.play(*BUILD)
    if mode == "sell":
        t.play("tap 00000102", "press ok", "tap 000000A1", "press sell", "expect state build", "tap 00000101")
    want = t.cut_after("tap 00000102")
    assert t.seen() == want
    t.play("tap 00000101" if mode == "build" else "press ok", "expect state build" if mode == "build" else
           "expect state idle")
