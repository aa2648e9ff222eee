"""Fuzzed lines into ``boardbank headless``: no traceback, the invariants hold, garbage changes nothing,
every output line is UTF-8 JSON, and the exit status is 0 at the end of input. The full run (100,000
lines) is ``bench/bench_fuzz_headless.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from fuzzdrive import Driver, fuzz_lines, is_garbage

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))


def test_ten_thousand_fuzzed_lines_in_process(tmp_path: Path) -> None:
    # the games' seed fixed: how far random lines get into a game depends on its shuffled decks (some seeds
    # reach only 10-13 events), so a random seed made this test's reach check fail now and then
    driver = Driver(tmp_path / "bb.sqlite3", seed=2)
    start = time.monotonic()
    events = 0
    try:
        for n, line in enumerate(fuzz_lines(seed=2026, count=10_000), start=1):
            events += sum(1 for o in driver.feed(line) if o["type"] == "event")
            if n % 250 == 0:
                assert driver.invariants() == [], f"after line {n}"
        assert driver.invariants() == []
    finally:
        driver.close()
    assert driver.problems == [], driver.problems[:5]
    assert driver.garbage > 500 and events > 20, (driver.garbage, events)  # the fuzz did reach the game
    assert time.monotonic() - start < 120


def test_fuzzed_bytes_through_a_pipe(tmp_path: Path) -> None:
    lines = list(fuzz_lines(seed=7, count=3_000))
    data = b"".join(line + b"\n" for line in lines) + b"\xff\xfe no newline at the end"
    proc = subprocess.run([BOARDBANK, "headless", "--db", str(tmp_path / "bb.sqlite3")], input=data,
                          capture_output=True, timeout=240, check=False,
                          env={**os.environ, "BOARDBANK_DB": "", "LC_ALL": "C"})
    assert b"Traceback" not in proc.stderr, proc.stderr.decode("utf-8", "replace")[-2000:]
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = [json.loads(line.decode("utf-8")) for line in proc.stdout.splitlines()]
    assert out[0]["type"] == "ready" and out[-1]["type"] == "bye"
    refused = sum(1 for o in out if o.get("error") == "error.bad_line")
    assert refused >= sum(1 for line in lines if is_garbage(line))
