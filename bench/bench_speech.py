"""Speech to files against silence: the same whole games through ``boardbank headless``, silent and with
``--lang L --speak-to DIR``: wall seconds until the ``bye`` line (the last input handled) and until the
process exits, CPU seconds of the whole process tree (boardbank and any voice process it started), and the
exit's ratio to the silent run's next to its goal (1.5x).

Silent and speech runs alternate (so a change of the machine's load hits both); medians of ``--repeat``
pairs, after one pair not counted. Python's bytecode is cached in a temporary folder
(``PYTHONPYCACHEPREFIX``), as a unit has its modules compiled; ``--no-bytecode`` compiles every module at
every start (as with ``PYTHONDONTWRITEBYTECODE=1`` and no cache), which makes speech's extra modules cost more.
Needs espeak-ng. Run: ``.venv/bin/python bench/bench_speech.py [--lang ru] [--repeat 5]``;
``--process`` forces one espeak-ng process per utterance (``BOARDBANK_ESPEAK=process``, the old voice), to
compare.
"""

from __future__ import annotations

import argparse
import os
import resource
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
GOAL = 1.5  # the speech run's wall time at most this many times the silent one's


def run(edition: str, tap: Path, extra: list[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """(seconds to the bye line, seconds to exit, CPU seconds of the process tree, WAVs written) of one
    headless game."""
    with tempfile.TemporaryDirectory() as tmp:
        args = [BOARDBANK, "headless", "--db", f"{tmp}/bb.sqlite3", "--edition", edition,
                *[a.replace("{tmp}", tmp) for a in extra]]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "BOARDBANK_DB": "", **env})
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(tap.read_text())
        proc.stdin.close()
        bye = 0.0
        for line in proc.stdout:
            if '"type": "bye"' in line:
                bye = time.perf_counter() - started
        proc.wait()
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # reaped descendants count into their parent
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return bye, wall, cpu, len(list(Path(tmp).glob("said/*.wav")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="ru")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--process", action="store_true", help="one espeak-ng process per utterance")
    parser.add_argument("--no-bytecode", action="store_true", help="no cached bytecode: compile at each start")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-speech-pyc-") as pyc:
        env = {"BOARDBANK_ESPEAK": "process"} if args.process else {}
        env.update({"PYTHONDONTWRITEBYTECODE": "1"} if args.no_bytecode else
                   {"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": pyc})
        bench(args, env)


def bench(args: argparse.Namespace, env: dict[str, str]) -> None:
    """Print the table (see the module's docstring)."""
    print(f"lang {args.lang}, {args.repeat} pairs, voice: "
          f"{'espeak-ng process per utterance' if args.process else 'as boardbank chooses'}, "
          f"{'no bytecode cache' if args.no_bytecode else 'bytecode cached'}; median seconds")
    for edition, tap in GAMES.items():
        run(edition, tap, [], env)  # not counted: the bytecode cache and the disk cache filled
        run(edition, tap, ["--lang", args.lang, "--speak-to", "{tmp}/said"], env)
        silent, speech = [], []
        for _ in range(args.repeat):
            silent.append(run(edition, tap, [], env))
            speech.append(run(edition, tap, ["--lang", args.lang, "--speak-to", "{tmp}/said"], env))
        rows = {}
        for label, runs in (("silent", silent), ("speech", speech)):
            bye, wall, cpu = (statistics.median(r[i] for r in runs) for i in range(3))
            rows[label] = (bye, wall, cpu)
            print(f"{edition:<12} {label:<7} bye {bye:5.2f}  exit {wall:5.2f}  cpu {cpu:5.2f}  "
                  f"wavs {runs[0][3]}")
        ratios = sorted(s[1] / q[1] for s, q in zip(speech, silent, strict=True))
        ratio = rows["speech"][1] / rows["silent"][1]
        print(f"{edition:<12} exit ratio {ratio:4.2f}x (goal <= {GOAL}x: {'met' if ratio <= GOAL else 'MISSED'}; "
              f"pairs {ratios[0]:.2f}-{ratios[-1]:.2f})  cpu ratio {rows['speech'][2] / rows['silent'][2]:4.2f}x")


if __name__ == "__main__":
    main()
