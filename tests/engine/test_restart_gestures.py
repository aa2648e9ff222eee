"""A restart in the middle of a gesture that spans several inputs: what only the banker knows must come back
(engine/banker/resume.py, the banker's record), whether the record is current (a plain restart) or one
command behind (a power cut between a command's commit and the record, made as in
tests/engine/test_restart_windows.py).

Source: docs/flows.md "Across a power cut"; issue 20 ("the restart windows"), issue 19 ("a payment due is
never skipped silently"; "build and sell are staged: ✓ commits them as one step").
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, Step, parse_file, run_script
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal
from tests.engine.test_restart_windows import BUILD, Table

PAYMENT = ["card 000000A1 player 1", "card 000000A2 player 2", "tap 000000A1", "tap 000000A2",
           "choose option=positions:on", "press ok", "choose 5", "choose 5", "choose 2", "choose 3", "press ok",
           "choose 1"]
"""tests/engine/taps/positions/classic_payment_due.tap up to player 2's first die (the second, 3, lands on
Income Tax, 200 due)."""


def restart(t: Table) -> tuple[object, ...]:
    """Close the unit and open it again on the same file (the record as it was saved)."""
    want = t.seen()
    assert t.journal is not None
    t.journal.close()
    t.banker, t.clock = t._open()
    return want


@pytest.mark.parametrize("cut", [False, True], ids=["restart", "cut"])
def test_a_payment_due_is_still_owed_after_a_restart(tmp_path: Path, cut: bool) -> None:
    """Positions mode: X on Income Tax says what is owed (``error.payment_due``) and the prompt stays, after a
    restart too. Source: docs/rules-classic.md 3 (taxes); tests/engine/taps/positions/classic_payment_due.tap."""
    t = Table(tmp_path / "bb.sqlite3", "classic-us")
    t.play(*PAYMENT)
    want = t.cut_after("choose 3") if cut else (t.play("choose 3"), restart(t))[1]
    assert t.seen() == want
    t.play("expect state action", "press cancel", "expect error error.payment_due", "expect state action",
           "wait 70", "expect state action", "tap 000000A2", "expect balance 2 1300")


@pytest.mark.parametrize("mode", ["build", "sell"])
def test_undo_after_a_restart_takes_back_the_whole_staged_group(tmp_path: Path, mode: str) -> None:
    """✓ keeps the buildings as one step: the menu's Undo right after takes them all back, after a restart too.
    Source: docs/rules-classic.md 6 (one building a tap, evenly); issue 19 (build and sell are staged)."""
    t = Table(tmp_path / "bb.sqlite3", "classic-uk")
    t.play(*BUILD, "tap 00000102")
    if mode == "sell":
        t.play("press ok", "tap 000000A1", "press sell", "expect state build", "tap 00000101", "tap 00000102")
    t.play("press ok", "expect state idle")
    before = t.banker.last_seq
    restart(t)
    t.play("card 000000BB banker", "tap 000000BB", "choose 1", "choose 2", "choose 34", "press undo", "press ok")
    st = t.banker.ctx.st()
    assert t.banker.last_seq > before
    if mode == "build":
        assert st.level.get(1, 0) == 0 and st.level.get(2, 0) == 0, st.level
    else:
        assert st.level.get(1, 0) == 1 and st.level.get(2, 0) == 1, st.level


@pytest.mark.parametrize("cut", [False, True], ids=["restart", "cut"])
def test_x_on_the_build_screen_after_a_restart_undoes_every_building(tmp_path: Path, cut: bool) -> None:
    """X on the build screen undoes every building the gesture bought, after a restart mid-build too."""
    t = Table(tmp_path / "bb.sqlite3", "classic-uk")
    t.play(*BUILD)
    want = t.cut_after("tap 00000102") if cut else (t.play("tap 00000102"), restart(t))[1]
    assert t.seen() == want
    t.play("press cancel", "expect state idle", "expect balance 1 1380")
    st = t.banker.ctx.st()
    assert st.level.get(1, 0) == 0 and st.level.get(2, 0) == 0, st.level


TAPS = Path(__file__).parent / "taps"
SCRIPTS = [(p, "ultimate-uk") for p in sorted(TAPS.glob("*.tap"))] \
    + [(p, "classic-us") for p in sorted((TAPS / "classic").glob("*.tap"))] \
    + [(p, "classic-us" if p.stem.startswith("classic_") else "ultimate-uk")
       for p in sorted((TAPS / "positions").glob("*.tap"))]
def _seen(banker: Banker) -> tuple[object, ...]:
    g, prompt = banker.ctx.gesture, banker.view.prompt
    return (banker.state_name, prompt, banker.ctx.drawn, g.player, g.partner, g.deed, g.action, g.due, g.steps,
            g.total, g.deal_deeds, g.deal_cards, g.deal_cash)


def _record(db: Path) -> str | None:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT value FROM banker_record WHERE key = 'banker'").fetchone()
    conn.close()
    return None if row is None else str(row[0])


@pytest.mark.parametrize(("path", "edition"), SCRIPTS, ids=[f"{p.parent.name}-{p.stem}" for p, _ in SCRIPTS])
def test_a_cut_after_any_command_of_a_gesture_resumes_it(tmp_path: Path, path: Path, edition: str) -> None:
    """After every input of every tap script that committed a command (a bid, a building, a deal's offer or
    acceptance, a deed mortgaged or sold for a debt, a deed given by PayWithDeeds, a tax paid, a roll), the
    file is copied as a power cut right after that commit leaves it (the banker's record as it was before
    the input) and a second Banker resumes on the copy: its state, prompt and gesture (the selected player,
    the deal, the buildings counted, the payment due, the classic card just drawn) are the live one's."""
    db = tmp_path / "live.sqlite3"
    journal = Journal.open(db)
    cards, clock = CardTable(), ManualClock()
    banker = Banker(JournalStore(journal, edition), cards, clock, seed_source=lambda: 7)
    before: list[str | None] = [None]
    wrong: list[str] = []

    def after(step: Step, reaction: object) -> None:
        record, before[0] = before[0], _record(db)
        if not getattr(reaction, "events", ()):
            return
        copy = tmp_path / f"cut-{step.line}.sqlite3"
        with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
            src.backup(dst)
            if record is None:
                dst.execute("DELETE FROM banker_record")
            else:
                dst.execute("UPDATE banker_record SET value = ? WHERE key = 'banker'", (record,))
        src.close()
        dst.close()
        with Journal.open(copy) as reopened:
            resumed = Banker(JournalStore(reopened, edition), cards, ManualClock(), seed_source=lambda: 7)
            if _seen(resumed) != _seen(banker):
                wrong.append(f"line {step.line}: live {_seen(banker)}, resumed {_seen(resumed)}")

    run_script(parse_file(path).steps, banker, clock, cards.enroll, on_step=after)
    journal.close()
    assert not wrong, f"{path.name}:\n" + "\n".join(wrong)


def test_the_card_just_drawn_is_shown_again_after_a_restart(tmp_path: Path) -> None:
    """The classic idle prompt shows where the card just drawn moved the token ("Advance to GO"), after a
    restart too. Source: tests/engine/taps/classic/card_moves.tap; docs/rules-classic.md 3."""
    t = Table(tmp_path / "bb.sqlite3", "classic-us")
    t.play("card 000000A1 player 1", "card 000000A2 player 2", "card 00000202 event 2", "tap 000000A1",
           "tap 000000A2", "press ok", "tap 00000202", "tap 000000A1", "expect state idle")
    want = restart(t)
    assert ("to", "GO") in t.banker.view.prompt.params
    assert t.seen() == want
