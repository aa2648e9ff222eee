"""One writer per installation file (docs/architecture.md, "One writer"; issue: a second process deleted the
running unit's WAL).

The running unit keeps SQLite's lock on its file across its idle checkpoint (SQLite's "How To Corrupt An
SQLite Database File", 2.2: a ``close()`` of another descriptor of the file in the same process drops the
process's POSIX locks, which the checkpoint's file check once did). A second process that would write
(``headless``, ``cards enroll --uid``, ``run --script --db``) is refused at start in one line naming the
unit's pid; the read-only ones (``replay``, ``export``, ``backup``) leave the WAL alone. A SIGKILL afterwards
loses no acknowledged event.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.killdrive import BOARDBANK, Child, play, script

IDLE_WAIT_S = 8.0  # the unit's idle checkpoint runs after 5 s without a write (ui/checkpoint.py), polled each second


def _locks_of(pid: int, path: Path) -> list[str]:
    """The POSIX locks ``pid`` holds on ``path`` (from /proc/locks)."""
    st = os.stat(path)
    dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    return [line for line in Path("/proc/locks").read_text().splitlines()
            if f" {pid} " in line and dev in line and "POSIX" in line]


def _tool(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BOARDBANK_DB": "", "BOARDBANK_CLOCK": "manual", "KIVY_NO_ARGS": "1"}
    return subprocess.run([BOARDBANK, *args], input=stdin, capture_output=True, text=True, timeout=120,
                          check=False, env=env)


def _journaled_seqs(db: Path) -> set[int]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return {int(s) for (s,) in conn.execute("SELECT seq FROM events")}


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="needs Linux's /proc/locks")
def test_a_second_writer_is_refused_and_a_kill_after_the_idle_checkpoint_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "unit.sqlite3"
    lines = script()
    unit = Child(db)
    ready = unit.next()
    assert ready is not None and ready["type"] == "ready"
    printed: set[int] = set()

    def send(n: int) -> None:
        for obj in play(unit, f"L{n}", lines[n]):
            if obj["type"] == "event" and not obj.get("replayed"):
                printed.add(int(obj["seq"]))

    for n in range(40):
        send(n)
    assert printed
    wal = Path(f"{db}-wal")
    time.sleep(IDLE_WAIT_S)  # the idle checkpoint runs meanwhile
    assert _locks_of(unit.proc.pid, db), "the unit lost its SQLite lock on the file after its idle checkpoint"

    second = _tool("headless", "--db", str(db), stdin="tap 000000BB\n")
    assert second.returncode == 2
    assert f"in use by pid {unit.proc.pid}" in second.stderr and len(second.stderr.strip().splitlines()) == 1
    enroll = _tool("cards", "enroll", "player", "7", "--uid", "04FFFF00000007", "--db", str(db))
    assert enroll.returncode == 2 and f"in use by pid {unit.proc.pid}" in enroll.stderr, enroll.stderr
    tap = tmp_path / "s.tap"
    tap.write_text("card 0A0B0C01 player 1\n", encoding="utf-8")
    run = _tool("run", "--script", str(tap), "--db", str(db), "--size", "800x480")
    assert run.returncode == 2 and f"in use by pid {unit.proc.pid}" in run.stderr, run.stderr[-2000:]
    for reader in (("replay", "--json", str(db)), ("export", str(db)),
                   ("backup", "--db", str(db), str(tmp_path / "copy.sqlite3"))):
        done = _tool(*reader)
        assert done.returncode == 0, done.stderr
    assert wal.exists(), "a read-only command deleted the live WAL"
    assert _locks_of(unit.proc.pid, db)

    for n in range(40, len(lines)):
        send(n)
    unit.kill()
    assert printed <= _journaled_seqs(db), f"lost acknowledged events: {sorted(printed - _journaled_seqs(db))[:10]}"
    exported = _tool("export", str(db))
    assert exported.returncode == 0, exported.stderr
    seqs = {json.loads(line)["seq"] for line in exported.stdout.splitlines() if '"kind":"event"' in line}
    assert printed <= seqs
