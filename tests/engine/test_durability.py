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

from engine.editions import load_edition
from engine.game import Game
from engine.records import command_from_record
from engine.store.durable import DurableGame
from engine.store.journal import Journal

CHILD = Path(__file__).with_name("durability_child.py")
KILLS = 55
READY_TIMEOUT = 20.0  # seconds for a child to open the journal


class _Child:
    """A running child; its stdout is read raw (``os.read``) so no line can hide in a Python buffer."""

    def __init__(self, db: Path, seed: int, log: Path) -> None:
        self.log = log
        with log.open("wb") as err:
            self.proc = subprocess.Popen([sys.executable, str(CHILD), str(db), str(seed)],
                                         stdout=subprocess.PIPE, stderr=err)
        assert self.proc.stdout is not None
        self.fd = self.proc.stdout.fileno()
        self.data = b""
        self.consumed = 0

    def read_line(self, what: str) -> bytes:
        """The next complete line, waiting at most READY_TIMEOUT seconds."""
        deadline = time.monotonic() + READY_TIMEOUT
        with selectors.DefaultSelector() as sel:
            sel.register(self.fd, selectors.EVENT_READ)
            while b"\n" not in self.data[self.consumed :]:
                left = deadline - time.monotonic()
                chunk = os.read(self.fd, 65536) if left > 0 and sel.select(left) else b""
                if not chunk:
                    self.proc.kill()
                    self.proc.wait(timeout=10)
                    pytest.fail(f"the child did not {what}: {self.data!r} {self.log.read_text(errors='replace')}")
                self.data += chunk
        end = self.data.index(b"\n", self.consumed) + 1
        line, self.consumed = self.data[self.consumed : end], end
        return line

    def kill(self) -> bytes:
        """SIGKILL the child; everything it wrote to stdout, from the start."""
        os.kill(self.proc.pid, signal.SIGKILL)
        while chunk := os.read(self.fd, 65536):
            self.data += chunk
        self.proc.wait(timeout=30)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        assert self.proc.returncode == -signal.SIGKILL, "the child ended before it was killed"
        return self.data


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
        child = _Child(db, i, tmp_path / "child.log")
        assert child.read_line("open the journal") == b"ready\n"
        if i % 10:  # 9 in 10: wait until it writes; 1 in 10: kill it right after the journal opened
            child.read_line("acknowledge a command")
        time.sleep(rng.choice([0.0, 0.0005, 0.003]) + rng.uniform(0.0, 0.1))
        acked = _acknowledged(child.kill().removeprefix(b"ready\n"))
        for gid, number in acked.items():
            acked_total[gid] = max(acked_total.get(gid, 0), number)
        kills_mid_write += bool(acked)
        _verify(db, acked_total)
    assert kills_mid_write >= KILLS * 8 // 10, f"only {kills_mid_write} kills happened while the child was writing"
    assert sum(acked_total.values()) > 100
    assert time.monotonic() - started < 120
