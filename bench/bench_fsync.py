"""fsync and fdatasync calls of ``boardbank headless`` per input, counted by ``strace``: one per input that
commits a command (its commands and the banker's record in one transaction), none for an input that
commits nothing (engine/store/writes.py).

The game is registered first (without strace), then a second ``headless`` on the same file runs the
measured lines under ``strace -f -e trace=fsync,fdatasync,write``; the calls are put to the input whose
answer (its ``prompt`` line on stdout) follows them. Calls before the ``ready`` line (start-up) and after
the ``bye`` line (the last checkpoint) are printed apart. Run: ``.venv/bin/python bench/bench_fsync.py
[--game ultimate|classic|both]``; exit status 1 when a count is off (or strace is missing: Debian
``strace``, scripts/install-system-deps.sh test).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))

SETUP = {
    "ultimate": (["card 000000A1 player 1", "card 000000A2 player 2", "card 00000101 deed 1",
                  "card 00000122 deed 22", "tap 000000A1", "tap 000000A2", "press ok"], ()),
    "classic": (["card 000000A1 player 1", "card 000000A2 player 2", "card 00000101 deed 1",
                 "card 00000103 deed 3", "tap 000000A1", "tap 000000A2", "choose option=positions:on",
                 "press ok"], ("--edition", "classic-us")),
}
"""Each game's registration (played before the count) and its ``headless`` arguments."""

MEASURED = {
    # buying two deeds: six inputs, two of them commit (the count: 11 calls before)
    "ultimate": ["tap 00000101", "tap 000000A1", "press ok", "tap 000000A2", "tap 00000122", "press ok"],
    # positions on: dice typed (die 1: nothing committed; die 2: the roll), a buy, a die then X
    "classic": ["choose 1", "choose 2", "press ok", "choose 2", "press cancel", "choose 3", "choose 4",
                "press decline"],
}

_SYNC = re.compile(r"^\d+\s+(fsync|fdatasync)\(")
_OUT = re.compile(r'^\d+\s+write\(1, "(.*)", \d+\)\s+=')


@dataclass
class Counts:
    """fsync calls per input and around them."""

    startup: int = 0
    shutdown: int = 0
    inputs: list[tuple[str, bool, int]] = field(default_factory=list)  # (line, committed, calls)


def count(game: str, tmp: Path) -> Counts:
    """Run the game's measured lines under strace (see the module docstring)."""
    db = tmp / f"{game}.sqlite3"
    setup, args = SETUP[game]
    env = {**os.environ, "BOARDBANK_DB": "", "BOARDBANK_CLOCK": "manual"}
    subprocess.run([BOARDBANK, "headless", "--db", str(db), *args], input="\n".join(setup) + "\n", text=True,
                   capture_output=True, check=True, env=env, timeout=120)
    trace = tmp / f"{game}.strace"
    lines = MEASURED[game]
    subprocess.run(["strace", "-f", "-qq", "-s", "4096", "-e", "trace=fsync,fdatasync,write", "-o", str(trace),
                    BOARDBANK, "headless", "--db", str(db), *args],
                   input="\n".join(f"id=F{n} {text}" for n, text in enumerate(lines)) + "\n", text=True,
                   capture_output=True, check=True, env=env, timeout=120)
    counts, calls, committed, phase = Counts(), 0, False, "startup"
    for row in trace.read_text(encoding="utf-8", errors="replace").splitlines():
        if _SYNC.match(row):
            calls += 1
            continue
        out = _OUT.match(row)
        if out is None:
            continue
        obj = json.loads(out.group(1).encode("utf-8").decode("unicode_escape").strip())
        kind = obj.get("type")
        if kind == "ready":
            counts.startup, calls, phase = calls, 0, "inputs"
        elif kind == "event":
            committed = True
        elif kind == "prompt" and phase == "inputs":
            n = len(counts.inputs)
            counts.inputs.append((lines[n], committed, calls))
            calls, committed = 0, False
        elif kind == "bye":
            phase = "shutdown"
            calls = 0
    counts.shutdown = calls
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*MEASURED, "both"], default="both")
    args = parser.parse_args()
    if shutil.which("strace") is None:
        print("strace is missing (Debian strace: bash scripts/install-system-deps.sh test)")
        return 1
    bad = 0
    for game in (list(MEASURED) if args.game == "both" else [args.game]):
        with tempfile.TemporaryDirectory() as tmp:
            counts = count(game, Path(tmp))
        committing = [c for _, done, c in counts.inputs if done]
        other = [c for _, done, c in counts.inputs if not done]
        # the first commit of a process also syncs the folder once: the WAL file was just created
        steady = committing[1:] if committing else []
        print(f"{game}: {len(counts.inputs)} inputs, {len(committing)} committing: fsync calls per committing "
              f"input {committing} (goal 1 each; the process's first also syncs the new WAL's folder), per "
              f"input without a command {other} (goal 0), total {sum(committing) + sum(other)}; start-up "
              f"{counts.startup}, after the last input {counts.shutdown} (the closing checkpoint)")
        for line, done, calls in counts.inputs:
            print(f"  {line:<16} {'commits' if done else 'no command':<10} {calls}")
        bad += sum(1 for c in steady if c != 1) + sum(1 for c in other if c != 0)
        bad += 0 if committing and committing[0] in (1, 2) else 1
    print("all counts as the goal" if not bad else f"{bad} counts off the goal")
    return 0 if not bad else 1


if __name__ == "__main__":
    raise SystemExit(main())
