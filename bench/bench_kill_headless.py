"""SIGKILL ``boardbank headless`` 100 times during a long scripted game and resume it each time from the
journal and the input ids (tests/e2e/killdrive.py says what is checked); prints kills, resumes,
duplicates, lost events and the time, for each game: the Ultimate game and a whole classic game where the
unit keeps the tokens (positions mode). Run: ``.venv/bin/python bench/bench_kill_headless.py [--kills N]
[--seed S] [--game ultimate|classic-positions|both]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from killdrive import GAMES, run  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--game", choices=[*GAMES, "both"], default="both")
    args = parser.parse_args()
    problems = 0
    for game in (list(GAMES) if args.game == "both" else [args.game]):
        with tempfile.TemporaryDirectory() as tmp:
            tally, seconds, lines = run(Path(tmp), args.kills, args.seed, game)
        print(f"{game}: script lines {lines}, kills {tally.kills}, resumes {tally.resumes}, duplicates "
              f"{tally.duplicates}, lost {tally.lost}, events "
              f"{len(tally.fresh) + len(set(tally.replayed) - set(tally.fresh))} (answered again from the "
              f"journal {len(tally.replayed)}), time {seconds:.1f} s ({seconds / max(1, tally.resumes):.2f} s "
              f"per kill and resume)")
        for problem in tally.problems[:20]:
            print("  PROBLEM:", problem)
        print("  all checks held (0 lost, 0 applied twice, each restart's prompt the one before the kill)"
              if not tally.problems else f"  {len(tally.problems)} problems")
        problems += len(tally.problems)
    return 0 if not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
