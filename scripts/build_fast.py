"""Build the optional compiled engine: the classic rules and the simulator's hot path compiled with mypyc.

Usage: ``python scripts/build_fast.py [--out build/fast]`` (``make fast``). Then run anything with the compiled
modules first on the path, e.g. ``PYTHONPATH=build/fast boardbank sim --edition classic-us ...``; without it
nothing changes, the plain ``pip install -e .`` stays the way to run and test the project.

The build copies ``engine/`` into ``OUT/engine/`` and compiles the modules of :data:`COMPILED` there, out of the
source tree, so a compiled module can never shadow a source file being edited. ``OUT/SOURCES.sha256`` records a
hash of the sources it was built from; :func:`stale` says whether the build still matches the tree (the peer
bench refuses a stale build). Needs mypy (the ``dev`` extra) and a C compiler with the Python headers.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "build" / "fast"
STAMP = "SOURCES.sha256"

COMPILED: tuple[str, ...] = (
    "engine/commands.py", "engine/editions.py", "engine/events.py", "engine/invariants.py", "engine/ledger.py",
    "engine/players.py", "engine/state.py", "engine/sim/results.py", "engine/sim/runner.py",
    "engine/rulesets/api.py", "engine/turns.py", "engine/auction.py", "engine/moves.py",  # the rules both rulesets share
    *(f"engine/rulesets/classic/{name}.py" for name in (
        "auction", "base", "bots", "building", "cards", "commands", "debt", "edition", "events", "fold",
        "invariants", "jail", "moves", "rent", "rules", "ruleset", "sim", "sim_send", "standings", "state",
        "table", "trade", "turnlimits", "turns", "variant_fold", "variants", "watch")),
)
"""The modules compiled, relative to the repository. The build keeps each module's source beside it: the
record codec (engine/records.py) reads the compiled commands' and events' field types from there, as mypyc
keeps only erased ones. Left as Python: ``engine/errors.py`` (its exceptions subclass built-in types),
the options (a dataclass hierarchy mypyc does not take) and everything off the simulator's path (the store,
the banker, the Ultimate ruleset)."""


def sources_hash(root: Path = ROOT) -> str:
    """SHA-256 over every ``engine/**/*.py`` file's path and bytes, in path order."""
    digest = hashlib.sha256()
    for path in sorted((root / "engine").rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def stale(out: Path = DEFAULT_OUT, root: Path = ROOT) -> str | None:
    """Why the build in ``out`` cannot be used for the tree at ``root`` (missing, or built from other
    sources), or None when it matches."""
    stamp = out / STAMP
    if not stamp.is_file():
        return f"no compiled build in {out}: run `make fast`"
    if stamp.read_text().strip() != sources_hash(root):
        return f"the compiled build in {out} was made from other sources: run `make fast` again"
    return None


def build(out: Path) -> None:
    """Copy ``engine/`` into ``out`` and compile :data:`COMPILED` there in place."""
    missing = [m for m in COMPILED if not (ROOT / m).is_file()]
    if missing:
        raise SystemExit(f"build_fast: modules listed but not in the tree: {', '.join(missing)}")
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(ROOT / "engine", out / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    mypyc = Path(sys.executable).with_name("mypyc")
    command = [str(mypyc) if mypyc.exists() else "mypyc", *COMPILED]
    env = dict(os.environ, MYPYC_OPT_LEVEL=os.environ.get("MYPYC_OPT_LEVEL", "3"))
    done = subprocess.run(command, cwd=out, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        errors = [line for line in (done.stdout + done.stderr).splitlines() if "error" in line.lower()]
        raise SystemExit("build_fast: mypyc failed:\n" + "\n".join(errors[-20:] or [done.stderr[-2000:]]))
    shutil.rmtree(out / "build", ignore_errors=True)
    (out / STAMP).write_text(sources_hash() + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the compiled copy goes")
    args = parser.parse_args()
    build(args.out.resolve())
    compiled = sorted(p.name for p in args.out.rglob("*.so"))
    print(f"compiled {len(COMPILED)} modules into {args.out} ({len(compiled)} shared objects); "
          f"use it with PYTHONPATH={args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
