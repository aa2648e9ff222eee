"""Fuzz ``boardbank headless`` with 100,000 lines (tests/e2e/fuzzdrive.py: mutated script lines, ids and
JSON forms, invalid UTF-8, NUL bytes, look-alike numbers, lines of a megabyte), in this process, then a
few thousand through a pipe; prints lines per second, what was refused, and whether every check held
(no traceback, the invariants, garbage changed nothing, UTF-8 JSON out, exit status 0).
Run: ``.venv/bin/python bench/bench_fuzz_headless.py [--lines N] [--pipe-lines N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from fuzzdrive import Driver, fuzz_lines, is_garbage  # noqa: E402

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--pipe-lines", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        driver = Driver(Path(tmp) / "bb.sqlite3")
        events = errors = broken = 0
        start = time.perf_counter()
        try:
            for n, line in enumerate(fuzz_lines(args.seed, args.lines), start=1):
                for obj in driver.feed(line):
                    events += obj["type"] == "event"
                    errors += obj["type"] == "error"
                if n % 1000 == 0 and driver.invariants():
                    broken += 1
        finally:
            driver.close()
        seconds = time.perf_counter() - start
        print(f"in process: {args.lines} lines in {seconds:.1f} s = {args.lines / seconds:,.0f} lines/s; "
              f"{driver.garbage} garbage lines, {errors} refusals, {events} durable events")
        print(f"  invariants broken at {broken} checkpoints; garbage that changed something: {len(driver.problems)}")
        failures += broken + len(driver.problems)
        lines = list(fuzz_lines(args.seed + 1, args.pipe_lines))
        data = b"".join(line + b"\n" for line in lines)
        start = time.perf_counter()
        proc = subprocess.run([BOARDBANK, "headless", "--db", str(Path(tmp) / "pipe.sqlite3")], input=data,
                              capture_output=True, check=False, env={**os.environ, "BOARDBANK_DB": ""})
        seconds = time.perf_counter() - start
        bad_json = 0
        for raw in proc.stdout.splitlines():
            try:
                json.loads(raw.decode("utf-8"))
            except ValueError:
                bad_json += 1
        traceback = b"Traceback" in proc.stderr
        print(f"through a pipe: {len(lines)} lines ({sum(map(is_garbage, lines))} garbage) in {seconds:.1f} s = "
              f"{len(lines) / seconds:,.0f} lines/s; exit {proc.returncode}; invalid JSON lines {bad_json}; "
              f"traceback {'yes' if traceback else 'no'}")
        failures += bad_json + int(traceback) + int(proc.returncode != 0)
    print("all checks held" if failures == 0 else f"{failures} checks FAILED")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
