"""Durability: SIGKILL a writer at many random moments; every acknowledged command must survive intact.

The child (durability_child.py) plays bot games through a DurableGame and prints each command's number
only after ``apply`` returned. After every kill the test reopens the journal and checks that every
acknowledged command is there, that no command is half written (re-applying the stored commands to a
fresh in-memory game reproduces exactly the stored events), that the rebuilt state passes the invariants
and equals that fresh replay. Then the next child continues the same file.
"""

from __future__ import annotations

import os
import random
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.durable import DurableGame
from engine.editions import load_edition
from engine.events import command_from_record
from engine.game import Game
from engine.journal import Journal

CHILD = Path(__file__).with_name("durability_child.py")
KILLS = 55
READY_TIMEOUT = 20.0  # seconds for a child to open the journal


def _start(db: Path, seed: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(CHILD), str(db), str(seed)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def _wait_ready(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    try:
        if not sel.select(READY_TIMEOUT):
            proc.kill()
            pytest.fail(f"the child did not open the journal within {READY_TIMEOUT} s")
        line = proc.stdout.readline()
        if line.strip() != b"ready":
            proc.kill()
            _, err = proc.communicate(timeout=10)
            pytest.fail(f"the child failed to start: {line!r} {err.decode(errors='replace')}")
    finally:
        sel.close()


def _acknowledged(output: bytes) -> dict[int, int]:
    """The highest acknowledged command number per game (complete lines only)."""
    acked: dict[int, int] = {}
    for line in output.split(b"\n")[:-1]:  # a cut-off last line was never fully acknowledged
        gid, number = map(int, line.split())
        assert number == acked.get(gid, 0) + 1 or gid not in acked, f"acks out of order: {line!r}"
        acked[gid] = number
    return acked


def _verify(db: Path, acked_total: dict[int, int]) -> int:
    """Check every game of the file; return the number of commands in it."""
    edition = load_edition("ultimate-uk")
    commands = 0
    with Journal.open(db) as journal:
        for info in journal.games():
            assert info.commands >= acked_total.get(info.id, 0), f"game {info.id} lost acknowledged commands"
            commands += info.commands
            rebuilt = DurableGame.open(journal, info.id).game
            assert rebuilt.invariants() == []
            fresh = Game(edition)
            stored = journal.load(info.id)[1]
            replayed = []
            for record in journal.command_records(info.id):
                record.pop("number")
                replayed.extend(fresh.apply(command_from_record(record)))
            assert replayed == stored, f"game {info.id}: stored events differ from a re-application"
            assert fresh.state == rebuilt.state
    return commands


def test_sigkill_at_random_moments_loses_no_acknowledged_command(tmp_path: Path) -> None:
    db = tmp_path / "bank.db"
    rng = random.Random(20261129)
    acked_total: dict[int, int] = {}
    kills_mid_write = 0
    started = time.monotonic()
    for i in range(KILLS):
        proc = _start(db, seed=i)
        _wait_ready(proc)
        time.sleep(rng.choice([0.0, 0.001, 0.005]) + rng.uniform(0.0, 0.12))
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL, "the child ended before it was killed"
        for gid, number in _acknowledged(out).items():
            acked_total[gid] = max(acked_total.get(gid, 0), number)
        if out:
            kills_mid_write += 1
        _verify(db, acked_total)
    assert kills_mid_write >= KILLS // 2, f"only {kills_mid_write} kills happened while the child was writing"
    assert sum(acked_total.values()) > 100
    assert time.monotonic() - started < 120
