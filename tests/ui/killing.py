"""Killing the touch app (SIGKILL, as a power cut does) at a moment of a scripted game, then checking that a
restart shows exactly what the journal holds and says the game was resumed. Used by
tests/ui/test_kill_resume.py (a few kills) and bench/bench_kill_touch.py (a hundred)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from engine.editions import load_edition
from engine.game import Game
from engine.store.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "tests" / "ui" / "game.tap"
BOARDBANK = [sys.executable, "-m", "ui.cli"]


def env(tmp: Path) -> dict[str, str]:
    """The app's environment: offscreen Kivy, its own Kivy home."""
    return dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_WINDOW="sdl2",
                KIVY_LOG_MODE="PYTHON", KIVY_NO_FILELOG="1", KIVY_HOME=str(tmp / "kivy"), BOARDBANK_DB="")


@dataclass
class Kill:
    """One kill: after ``after_s`` seconds of the game; what the journal held then; the restart's verdict."""

    after_s: float
    events: int
    resumed: bool
    problems: list[str]


def durable_state(db: Path) -> tuple[Game | None, list[str]]:
    """The game the journal holds (None before a game started) and any problem with it: a gap or a
    doubled event, a broken invariant."""
    if not db.exists():
        return None, []
    with Journal.open(db) as journal:
        gid = journal.latest_game()
        if gid is None:
            return None, []
        edition, events = journal.load(gid)
    seqs = [e.seq for e in events]
    problems = [] if seqs == list(range(1, len(seqs) + 1)) else [f"event seqs {seqs[:5]}... not 1..n"]
    game = Game.replay(load_edition(edition), events)
    return game, problems + game.invariants()


def check_script(game: Game | None) -> str:
    """A tap script that only checks what the restarted screen shows: every balance, the engine's phase."""
    if game is None:
        return "expect state setup\n"
    lines = [f"expect balance {p[1:]} {game.state.balance(p)}" for p in game.state.order]
    if game.state.phase == "over":  # (in play, a gesture under way is resumed as it was: engine/banker/resume.py)
        lines.append("expect state over")
    return "# source: docs/architecture.md, section 4 (a restart resumes the journal's game)\n" + "\n".join(lines) + "\n"


def kill_and_restart(db: Path, tmp: Path, after_s: float, timeout_s: float = 120) -> Kill:
    """Play tests/ui/game.tap on ``db``, SIGKILL the app after ``after_s`` seconds (or let it finish), then
    restart it on the same file with a script that checks the screen against the journal."""
    app = subprocess.Popen([*BOARDBANK, "run", "--script", str(GAME), "--db", str(db), "--size", "800x480"],
                           cwd=ROOT, env=env(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        app.wait(timeout=after_s)
    except subprocess.TimeoutExpired:
        app.send_signal(signal.SIGKILL)
        app.wait()
    game, problems = durable_state(db)
    script = tmp / f"check-{time.monotonic_ns()}.tap"
    script.write_text(check_script(game), encoding="utf-8")
    again = subprocess.run([*BOARDBANK, "run", "--script", str(script), "--db", str(db), "--size", "800x480"],
                           cwd=ROOT, env=env(tmp), capture_output=True, text=True, timeout=timeout_s, check=False)
    resumed = "boardbank run: resumed game" in again.stderr
    if again.returncode != 0:
        problems.append(f"the restart's screen differs from the journal: {again.stderr.strip()[-400:]}")
    if game is not None and not resumed:
        problems.append("the restart did not say the game was resumed")
    after, more = durable_state(db)
    if (after.events if after else ()) != (game.events if game else ()):
        problems.append("the restart changed the journal")
    return Kill(after_s, len(game.events) if game else 0, resumed, problems + more)


def whole_game_s(tmp: Path) -> float:
    """Seconds one uninterrupted run of tests/ui/game.tap takes here, start-up included: kill moments are
    spread over it, so a slow or loaded machine is killed during its game too, not only at start-up."""
    start = time.perf_counter()
    subprocess.run([*BOARDBANK, "run", "--script", str(GAME), "--db", str(tmp / "whole-game.db"), "--size",
                    "800x480"], cwd=ROOT, env=env(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=600, check=True)
    return time.perf_counter() - start


def random_moments(n: int, seed: int, longest_s: float, earliest_s: float = 1.0) -> list[float]:
    """``n`` kill moments in seconds, spread between ``earliest_s`` and ``longest_s`` into a game."""
    rng = random.Random(seed)
    return [round(rng.uniform(earliest_s, longest_s), 2) for _ in range(n)]
