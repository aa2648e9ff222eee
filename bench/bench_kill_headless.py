"""SIGKILL ``boardbank headless`` 100 times during a long scripted game and resume it each time from the
journal, the banker's record and the input ids; prints kills (by moment), resumes, duplicates, lost events,
mismatches and the time, for each game: the Ultimate game and the classic one, each with and without the
unit keeping the tokens (option positions).

By default the kills fall at any line and any moment, with lines written ahead into the pipe
(tests/e2e/killanywhere.py: at start-up, right after lines were written, inside a commit, after a reply);
``--after-input`` kills only after a line was written and waits a few ms, as the first version of this
bench did (tests/e2e/killdrive.py). Run: ``.venv/bin/python bench/bench_kill_headless.py [--kills N]
[--seed S] [--game ultimate|classic-positions|ultimate-positions|classic|classic-four|both|all]
[--after-input]`` (``both``: the issue's pair, the classic game of four players with ``--option
positions=on``, staged builds, auctions, a mortgage and physical cards, and the Ultimate game; ``all``: the
five, tests/e2e/killdrive.py ``GAMES``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from killanywhere import run_anywhere  # noqa: E402
from killdrive import GAMES, Tally, lines_of, run  # noqa: E402


def report(game: str, tally: Tally, seconds: float, lines: int, moments: dict[str, int] | None) -> int:
    by_moment = "" if moments is None else " (" + ", ".join(f"{k} {v}" for k, v in sorted(moments.items())) + ")"
    print(f"{game}: script lines {lines}, kills {tally.kills}{by_moment}, resumes {tally.resumes}, duplicates "
          f"{tally.duplicates}, lost {tally.lost}, events "
          f"{len(tally.fresh) + len(set(tally.replayed) - set(tally.fresh))} (answered again from the "
          f"journal {len(tally.replayed)}), mismatches {len(tally.problems)}, time {seconds:.1f} s "
          f"({seconds / max(1, tally.kills):.2f} s per kill and resume)")
    for problem in tally.problems[:20]:
        print("  PROBLEM:", problem)
    print("  all checks held (0 lost, 0 applied twice, every restart and answer in the uninterrupted run's "
          "prompt, the final journal and state equal)" if not tally.problems else f"  {len(tally.problems)} problems")
    return len(tally.problems)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--game", choices=[*GAMES, "both", "all"], default="both")
    parser.add_argument("--after-input", action="store_true", help="kill only after a line is written")
    args = parser.parse_args()
    games = {"both": ["classic-four", "ultimate"], "all": list(GAMES)}.get(args.game, [args.game])
    problems = 0
    for game in games:
        with tempfile.TemporaryDirectory() as tmp:
            if args.after_input:
                tally, seconds, lines = run(Path(tmp), args.kills, args.seed, game)
                problems += report(game, tally, seconds, lines, None)
            else:
                killed, seconds = run_anywhere(Path(tmp), args.kills, args.seed, game)
                problems += report(game, killed.tally, seconds, len(lines_of(game)), dict(killed.moments))
    return 0 if not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
