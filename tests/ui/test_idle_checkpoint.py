"""The journal is checkpointed when the table is idle, on a connection of its own, never inside a tap
(docs/architecture.md, section 4)."""

from __future__ import annotations

import time
from pathlib import Path

from engine.commands import PassGo, PlayerSpec, StartGame
from engine.editions import load_edition
from engine.store.durable import DurableGame
from engine.store.journal import Journal
from ui.checkpoint import IdleCheckpointer


def test_an_idle_journal_is_checkpointed_and_a_busy_one_is_not(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    journal = Journal.open(db)
    durable = DurableGame.start(journal, load_edition("ultimate-uk"), StartGame((PlayerSpec("p1"), PlayerSpec("p2")), {}, 1))
    durable.apply(PassGo("p1"))
    checkpointer = IdleCheckpointer(db, idle_s=0.5, poll_s=0.05)
    assert not checkpointer.due(time.time())  # written just now: the table is busy
    checkpointer.start()
    try:
        deadline = time.monotonic() + 10
        while checkpointer.checkpoints == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert checkpointer.checkpoints == 1
        assert not checkpointer.due(time.time() + 100)  # nothing new since
        durable.apply(PassGo("p1"))  # the journal goes on after a checkpoint
        assert checkpointer.due(time.time() + 1)
    finally:
        checkpointer.stop()
    with Journal.open(db) as again:
        assert [type(e).__name__ for e in again.load(durable.game_id)[1]][-2:] == ["SalaryPaid", "SalaryPaid"]
    journal.close()
