"""Speech to files against silence: the same whole games through ``boardbank headless``, silent and with
``--lang L --speak-to DIR``, and the time until the ``bye`` line (the last input handled) and until exit.

Speech runs on a worker thread, so the time to ``bye`` should stay near the silent run's; the exit waits for
the queued utterances. Prints seconds (median of ``--repeat`` runs). Needs
espeak-ng. Run: ``.venv/bin/python bench/bench_speech.py [--lang ru] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
GAMES = {"ultimate-uk": ROOT / "tests/engine/taps/whole_game.tap",
         "classic-us": ROOT / "tests/engine/taps/classic/whole_game.tap"}


def run(edition: str, tap: Path, extra: list[str]) -> tuple[float, float]:
    """(seconds to the bye line, seconds to exit) of one headless game."""
    with tempfile.TemporaryDirectory() as tmp:
        args = [BOARDBANK, "headless", "--db", f"{tmp}/bb.sqlite3", "--edition", edition,
                *[a.replace("{tmp}", tmp) for a in extra]]
        started = time.perf_counter()
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "BOARDBANK_DB": ""})
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(tap.read_text())
        proc.stdin.close()
        bye = 0.0
        for line in proc.stdout:
            if '"type": "bye"' in line:
                bye = time.perf_counter() - started
        proc.wait()
        return bye, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="ru")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for edition, tap in GAMES.items():
        for label, extra in (("silent", []), ("speech", ["--lang", args.lang, "--speak-to", "{tmp}/said"])):
            runs = [run(edition, tap, extra) for _ in range(args.repeat)]
            bye = statistics.median(r[0] for r in runs)
            total = statistics.median(r[1] for r in runs)
            print(f"{edition:<12} {label:<7} bye {bye:5.2f} s  exit {total:5.2f} s")


if __name__ == "__main__":
    main()
