"""SIGKILL ``boardbank headless`` 100 times during a long scripted game and resume it each time from the
journal and the input ids (tests/e2e/killdrive.py says what is checked); prints kills, resumes,
duplicates, lost events and the time. Run: ``.venv/bin/python bench/bench_kill_headless.py [--kills N]
[--seed S]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from killdrive import run  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tally, seconds, lines = run(Path(tmp), args.kills, args.seed)
    print(f"script lines {lines}, kills {tally.kills}, resumes {tally.resumes}, duplicates {tally.duplicates}, "
          f"lost {tally.lost}, events {len(tally.fresh) + len(set(tally.replayed) - set(tally.fresh))} "
          f"(answered again from the journal {len(tally.replayed)}), time {seconds:.1f} s "
          f"({seconds / max(1, tally.resumes):.2f} s per kill and resume)")
    for problem in tally.problems[:20]:
        print("  PROBLEM:", problem)
    print("all checks held" if not tally.problems else f"{len(tally.problems)} problems")
    return 0 if not tally.problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
