"""Memory benchmark (a script that prints numbers; not a test): the touch app's resident memory (RSS)
through a whole scripted game at 800x480, the kiosk's screen (need: under 150 MiB all the way).

The app runs as ``boardbank run --script tests/ui/game.tap`` (offscreen Kivy, a temporary journal); this
script samples the child's ``VmRSS`` every 20 ms and prints the RSS after start-up, the peak, and the RSS at
the end, with the child's own ``VmHWM``. ``--env NAME=VALUE`` repeats a run with a variable set (e.g.
``LP_NUM_THREADS=1``), to compare what holds the memory.
Usage: ``SDL_VIDEODRIVER=offscreen python bench/bench_memory.py [--env NAME=VALUE]...``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEED_MIB = 150.0
SCRIPT = ROOT / "tests" / "ui" / "game.tap"


def status(pid: int, key: str) -> float:
    """``key`` (e.g. ``VmRSS``) of process ``pid`` in MiB, or 0 when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run(extra_env: dict[str, str]) -> dict[str, float]:
    """One scripted game; the RSS samples of the child (MiB)."""
    with tempfile.TemporaryDirectory(prefix="bench-mem-") as tmp:
        env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "offscreen"), KIVY_NO_ARGS="1",
                   KIVY_WINDOW="sdl2", KIVY_HOME=str(Path(tmp) / "kivy"), KIVY_LOG_MODE="PYTHON",
                   KIVY_NO_FILELOG="1", BOARDBANK_DB=str(Path(tmp) / "bb.sqlite3"), **extra_env)
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "run", "--script", str(SCRIPT), "--size", "800x480"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        samples: list[tuple[float, float]] = []
        hwm = 0.0
        while proc.poll() is None:
            rss = status(proc.pid, "VmRSS")
            hwm = max(hwm, status(proc.pid, "VmHWM"))
            if rss:
                samples.append((time.perf_counter() - start, rss))
            time.sleep(0.02)
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        if proc.returncode != 0:
            raise SystemExit(f"the scripted game failed ({proc.returncode}): {err[-500:]}")
    after_start = next((rss for t, rss in samples if t > 2.0), samples[0][1] if samples else 0.0)
    return {"after_start": after_start, "peak": max((rss for _, rss in samples), default=0.0),
            "end": samples[-1][1] if samples else 0.0, "hwm": hwm, "seconds": time.perf_counter() - start}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="also run with this variable set (repeatable; each is its own run)")
    args = parser.parse_args()
    runs: list[tuple[str, dict[str, str]]] = [("as shipped", {})]
    for item in args.env:
        name, _, value = item.partition("=")
        runs.append((item, {name: value}))
    worst = 0.0
    for label, extra in runs:
        r = run(extra)
        worst = max(worst, r["peak"]) if label == "as shipped" else worst
        print(f"{label}: RSS after start-up {r['after_start']:.0f} MiB, peak {r['peak']:.0f} MiB "
              f"(VmHWM {r['hwm']:.0f}), at the end {r['end']:.0f} MiB; the game took {r['seconds']:.1f} s")
    verdict = "OK" if worst < NEED_MIB else "TOO MUCH"
    print(f"peak RSS through a whole game: {worst:.0f} MiB (need < {NEED_MIB:.0f}): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
