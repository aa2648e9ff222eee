"""Reliability benchmark (prints numbers; not a test): the touch app SIGKILLed at 100 random moments of a
scripted game, each time restarted on the same file and checked against its journal.

Each round plays tests/ui/game.tap on one installation file, kills the app at a random moment (spread over
the time one whole game takes on this machine, measured first, start-up included), then restarts
it with a script that expects every balance and the phase the journal holds, and that it says the game was
resumed (tests/ui/killing.py). It prints the kills, the resumed games, the problems (lost, doubled or
different: need 0) and the time.
Usage: ``SDL_VIDEODRIVER=offscreen python bench/bench_kill_touch.py [--kills N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui"))

from killing import kill_and_restart, random_moments, whole_game_s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100, help="kills (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill moments (default %(default)s)")
    parser.add_argument("--longest", type=float, default=0.0,
                        help="latest kill, seconds after the app's start (default: one whole game's time here)")
    parser.add_argument("--progress", action="store_true", help="a line per kill as it happens")
    args = parser.parse_args()
    start = time.perf_counter()
    problems, resumed, during = 0, 0, 0
    with tempfile.TemporaryDirectory(prefix="bench-kill-") as tmp:
        longest = args.longest or whole_game_s(Path(tmp))
        print(f"kill moments: 1.0-{longest:.1f} s after the app's start"
              f"{'' if args.longest else ' (one whole game here)'}", flush=True)
        for i, after_s in enumerate(random_moments(args.kills, args.seed, longest)):
            kill = kill_and_restart(Path(tmp) / f"bank-{i}.db", Path(tmp), after_s)
            during += kill.events > 0
            resumed += kill.resumed
            problems += len(kill.problems)
            for p in kill.problems:
                print(f"kill {i + 1} at {after_s} s: {p}", flush=True)
            if args.progress:
                print(f"kill {i + 1}/{args.kills} at {after_s} s: {kill.events} events, "
                      f"{'resumed' if kill.resumed else 'not resumed'}, {len(kill.problems)} problems, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
    print(f"{args.kills} kills ({during} during a game), {resumed} games resumed, {problems} problems "
          f"(need 0), {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
