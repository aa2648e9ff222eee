"""A full disk, survived; a read-only mount, named (engine/store/faults.py; issue: a ``card`` line on a full disk
gave a traceback and exit 1, an input refused for storage and resent with its id was answered ``duplicate``
and never applied, the WAL was never restarted after space came back, and a full disk or a read-only mount
was reported as a corrupt file with advice to restore a backup).

Needs root to mount a small tmpfs; skipped with the reason otherwise.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.killdrive import BOARDBANK, Child, final_state, play, script

ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mnt)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _fill(folder: Path) -> Path:
    """Fill the file system; the filler file (remove it to free the space)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * 512)
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


def _errors(objs: list[dict[str, Any]]) -> list[object]:
    return [o.get("error") for o in objs if o["type"] == "error"]


def _events(objs: list[dict[str, object]]) -> int:
    return sum(o["type"] == "event" and not o.get("replayed") for o in objs)


@ROOT_ONLY
def test_full_then_freed_then_a_whole_game(small_disk: Path, tmp_path: Path) -> None:
    db = small_disk / "unit.sqlite3"
    lines = script()
    start = lines.index("press ok")  # the line that starts the game (StartGame)
    unit = Child(db)
    assert unit.next() is not None
    for n in range(start):
        play(unit, f"L{n}", lines[n])
    filler = _fill(small_disk)
    refused = play(unit, f"L{start}", lines[start])
    assert _errors(refused) == ["error.storage"] and _events(refused) == 0
    unit.send("id=C1 card 04FFFF00000009 player 6")  # a card line answers with one line: enrolled or an error
    card = [unit.next()]
    assert _errors(card) == ["error.storage"], card  # no traceback: the unit goes on
    reason = next(o for o in card if o["type"] == "error")["params"]
    assert "disk is full" in str(reason)
    filler.unlink()
    again = play(unit, f"L{start}", lines[start])  # the same id once there is room: applied, not a duplicate
    assert not any(o["type"] == "duplicate" for o in again) and _events(again) > 0, again
    # a one-line command (a gesture refused for storage goes back to the table: its lines are played again)
    middle = next(i for i in range((start + len(lines)) // 2, len(lines)) if lines[i] == "press end_turn")
    for n in range(start + 1, middle):
        play(unit, f"L{n}", lines[n])
    filler = _fill(small_disk)
    refused = play(unit, f"L{middle}", lines[middle])
    applied_while_full = _events(refused)
    filler.unlink()
    if _errors(refused) == ["error.storage"]:
        assert applied_while_full == 0
        again = play(unit, f"L{middle}", lines[middle])
        assert not any(o["type"] == "duplicate" for o in again) and _events(again) > 0
    wal = Path(f"{db}-wal")
    time.sleep(7)  # the idle checkpoint; the next write starts the WAL again from its beginning
    before = wal.stat().st_size
    for n in range(middle + 1, len(lines)):
        play(unit, f"L{n}", lines[n])
    assert wal.stat().st_size <= before + 16 * 1024, f"the WAL was not restarted: {before} -> {wal.stat().st_size}"
    rc, _, err = unit.finish()
    assert rc == 0, err.decode(errors="replace")
    reference = tmp_path / "reference.sqlite3"
    ref = Child(reference)
    assert ref.next() is not None
    for n, text in enumerate(lines):
        play(ref, f"L{n}", text)
    assert ref.finish()[0] == 0
    assert final_state(db) == final_state(reference)


@ROOT_ONLY
def test_a_restart_on_a_full_disk_names_the_fault(small_disk: Path) -> None:
    db = small_disk / "unit.sqlite3"
    unit = Child(db)
    assert unit.next() is not None
    lines = script()
    for n, text in enumerate(lines[: lines.index("press ok") + 1]):  # a game started
        play(unit, f"L{n}", text)
    assert unit.finish()[0] == 0
    _fill(small_disk)
    unit = Child(db)  # comes up read-only, with the reason, and shows the game
    ready = unit.next()
    assert ready is not None and ready["type"] == "ready" and ready["resumed"], ready
    assert "disk is full" in str(ready["read_only"]), ready
    play(unit, "R1", "press go")
    refused = play(unit, "R2", "tap 04A10000000001")  # GO's salary: refused for storage, nothing recorded
    assert _errors(refused) == ["error.storage"] and _events(refused) == 0, refused
    assert unit.finish()[0] == 0
    for args in (["doctor", "--db", str(db), "--no-gl"], ["cards", "list", "--db", str(db)]):
        done = subprocess.run([BOARDBANK, *args], input="", capture_output=True, text=True, timeout=120, check=False)
        assert "Traceback" not in done.stderr and "corrupt" not in done.stdout + done.stderr, (args, done.stderr)
        assert "disk is full" in done.stdout + done.stderr, (args, done.stdout, done.stderr)


@ROOT_ONLY
def test_a_read_only_mount_is_named_not_called_corrupt(small_disk: Path) -> None:
    db = small_disk / "unit.sqlite3"
    unit = Child(db)
    assert unit.next() is not None
    for n, text in enumerate(script()[:12]):
        play(unit, f"L{n}", text)
    assert unit.finish()[0] == 0
    assert subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=False).returncode == 0
    try:
        for args in (["headless", "--db", str(db)], ["doctor", "--db", str(db), "--no-gl"]):
            done = subprocess.run([BOARDBANK, *args], input="press go\n", capture_output=True, text=True,
                                  timeout=120, check=False)
            out = done.stdout + done.stderr
            assert "Traceback" not in out and "corrupt" not in out and "restore a backup" not in out, (args, out)
            assert "read-only" in out, (args, out)
        replay = subprocess.run([BOARDBANK, "replay", "--json", str(db)], capture_output=True, text=True, timeout=120,
                                check=False)
        assert "corrupt" not in replay.stderr, replay.stderr
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=False)


def test_a_classic_correction_is_refused_in_words(tmp_path: Path) -> None:
    """Issue: classic corrections were refused with a developer message ("expected a command of
    engine/commands.py, got CorrectMoney(...)"). The classic rules offer none: it is said in words."""
    lines = "".join(f"{line}\n" for line in (
        "card 000000A1 player 1", "card 000000A2 player 2", "card 000000BB banker", "tap 000000A1", "tap 000000A2",
        "press ok", "tap 000000BB", "choose correct=money:1:2:50:typo"))
    done = subprocess.run([BOARDBANK, "headless", "--db", str(tmp_path / "c.sqlite3"), "--edition", "classic-uk"],
                          input=lines, capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "BOARDBANK_CLOCK": "manual"})
    assert done.returncode == 0, done.stderr
    assert "engine/commands.py" not in done.stdout and "CorrectMoney(" not in done.stdout.split('"reason"')[-1]
    assert "the classic rules do not offer it" in done.stdout
