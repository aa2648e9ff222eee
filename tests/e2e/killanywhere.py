"""SIGKILL ``boardbank headless`` at any line and any moment, with lines written ahead into the pipe.

Used by tests/e2e/test_kill_headless.py (a few kills per game) and bench/bench_kill_headless.py (100). Each
child of the run dies one of four ways, chosen at random before it starts:

* ``startup``: killed 0-0.6 s after it was started, before or while it resumes the game;
* ``written``: 1-4 lines written into its pipe at once, then killed 0-30 ms later (in the middle of any
  of them: reading, applying, committing or answering);
* ``commit``: started by tests/e2e/killchild.py, it kills itself right before or right after the COMMIT
  of its 1st to 3rd committing input, while lines are written ahead of it;
* ``reply``: 1-4 lines written at once, killed as soon as the first one's answer is read.

Between kills a few lines are played one at a time. After each kill the unit is started again on the same
file and every line without an answer is resent with its id, one at a time. Checked: the lines applied
before a kill are a prefix of those written (the resent ones answered ``duplicate`` first, then the rest
applied, never the other way round); the prompt of the restart (its ``ready`` line) and of every duplicate
answer is the uninterrupted run's after the last line applied; every fresh answer's prompt is the
uninterrupted run's after that line (a restart locks the banker menu: the driver opens it again, as in
tests/e2e/killdrive.py); no event is printed twice; every printed event is in the journal and every journaled
event was printed; the final journal and state equal the uninterrupted run's.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from killdrive import (
    GAMES,
    LOCKED,
    Child,
    Tally,
    _check,
    _menu_opener,
    _prompt,
    _terminal,
    compare,
    final_state,
    lines_of,
    play,
    reference,
)

MOMENTS = ("startup", "written", "commit", "reply")


class Run:
    """One killed run of ``lines`` on ``db`` against the uninterrupted run's ``prompts``."""

    def __init__(self, db: Path, lines: list[str], prompts: list[tuple[Any, ...]], args: tuple[str, ...],
                 rng: random.Random) -> None:
        self.db, self.lines, self.prompts, self.args, self.rng = db, lines, prompts, args, rng
        self.tally = Tally()
        self.moments: Counter[str] = Counter()
        self.at = 0  # the first line without an answer
        self.sent = 0  # lines written to the child that died (at..sent-1 are unanswered)

    def problem(self, text: str) -> None:
        self.tally.problems.append(text)

    # -- a child's life ---------------------------------------------------------------------------------
    def spawn(self, moment: str | None) -> Child | None:
        """Start a child; a ``startup`` one is killed while it starts (None)."""
        env = None
        if moment == "commit":
            where = self.rng.choice(("before", "after"))
            env = {"BOARDBANK_TEST_KILL_COMMIT": f"{where}:{self.rng.randint(1, 3)}:{max(self.at, self.sent)}"}
        child = Child(self.db, self.args, env)
        if moment == "startup":
            time.sleep(self.rng.uniform(0.0, 0.6))
            printed = child.kill()
            self.tally.kills += 1
            self.moments["startup"] += 1
            self.tally.take(printed)
            return None
        ready = child.next()
        if ready is None or ready["type"] != "ready":
            self.problem(f"no ready line after a restart: {ready}")
            return None
        self.tally.resumes += 1
        self.resend(child, _prompt(ready))
        return child

    def resend(self, child: Child, ready: tuple[Any, ...]) -> None:
        """Every line of the dead child without an answer, again with its id (see the module docstring)."""
        at, prompts = self.at, self.prompts
        opener = _menu_opener(prompts, at) if at < len(prompts) and prompts[at][0] in LOCKED else None
        if opener is not None and ready == prompts[opener]:
            at = opener  # a restart locks the banker menu: the driver opens it again, from its first line
        first_fresh: int | None = None
        duplicates: list[tuple[Any, ...]] = []
        for n in range(at, max(at, self.sent)):
            answer = play(child, f"L{n}", self.lines[n])
            self.tally.take(answer)
            prompt = next((_prompt(o) for o in reversed(answer) if o["type"] == "prompt"), None)
            if any(o["type"] == "duplicate" for o in answer):
                if first_fresh is not None:
                    self.problem(f"line {n} {self.lines[n]!r} was applied after line {first_fresh}, which was not")
                if prompt is not None:
                    duplicates.append(prompt)
                continue
            if first_fresh is None:
                first_fresh = n
            _check(self.tally, answer, prompts[n + 1], f"line {n} {self.lines[n]!r} (resent)")
        applied = max(at, self.sent) if first_fresh is None else first_fresh
        if ready != prompts[applied]:
            self.problem(f"restart after line {applied - 1}: prompt {ready}, the uninterrupted run's {prompts[applied]}")
        for prompt in duplicates:
            if prompt != prompts[applied]:
                self.problem(f"a duplicate answered with {prompt}, the prompt is {prompts[applied]}")
        self.at = self.sent = max(at, self.sent)

    def absorb(self, printed: list[dict[str, Any]]) -> None:
        """What a dead child printed: the answered lines (a prefix of those written) and their prompts."""
        self.tally.take(printed)
        answered = {o["id"] for o in printed if "id" in o and _terminal(o, o["id"])}
        while self.at < self.sent and f"L{self.at}" in answered:
            mine = [o for o in printed if o.get("id") == f"L{self.at}"]
            _check(self.tally, mine, self.prompts[self.at + 1], f"line {self.at} {self.lines[self.at]!r} (before the kill)")
            self.at += 1
        later = [n for n in range(self.at, self.sent) if f"L{n}" in answered]
        if later:
            self.problem(f"lines {later} answered although line {self.at} was not")

    def write_ahead(self, child: Child) -> int:
        """Write 1-4 lines at once; how many."""
        count = min(self.rng.randint(1, 4), len(self.lines) - self.sent)
        for n in range(self.sent, self.sent + count):
            child.send(f"id=L{n} {self.lines[n]}")
        self.sent += count
        return count

    def kill(self, child: Child, moment: str) -> None:
        """Play on a little, then kill ``child`` at ``moment`` (``commit``: it kills itself)."""
        for _ in range(0 if moment == "commit" else self.rng.randint(0, 2)):
            if self.at >= len(self.lines):
                break
            answer = play(child, f"L{self.at}", self.lines[self.at])
            self.tally.take(answer)
            _check(self.tally, answer, self.prompts[self.at + 1], f"line {self.at} {self.lines[self.at]!r}")
            self.at = self.sent = self.at + 1
        printed: list[dict[str, Any]] = []
        dead = False
        if moment == "written" and self.write_ahead(child):
            time.sleep(self.rng.uniform(0.0, 0.03))
        elif moment == "reply" and self.write_ahead(child):
            while (obj := child.next()) is not None:
                printed.append(obj)
                if _terminal(obj, f"L{self.at}"):
                    break
        elif moment == "commit":
            while not dead and self.sent < len(self.lines):
                self.write_ahead(child)
                while (obj := child.next()) is not None:
                    printed.append(obj)
                    if _terminal(obj, f"L{self.sent - 1}"):
                        break
                dead = obj is None
            if not dead:
                moment = "reply"  # no commit left to die in: killed after the last answer
        if dead:  # it killed itself (its output read to the end)
            child.proc.wait()
        else:
            printed += child.kill()
        self.tally.kills += 1
        self.moments[moment] += 1
        self.absorb(printed)

    def play_out(self, kills: int) -> None:
        """The whole run with ``kills`` deaths (each child's chosen when it starts), then the rest of the
        lines and end of input."""
        left = kills
        while True:
            moment = self.rng.choice(MOMENTS) if left > 0 else None
            child = self.spawn(moment)
            if moment == "startup":
                left -= 1
                continue
            if child is None:
                return  # (said in problems)
            if moment is None:
                break
            self.kill(child, moment)
            left -= 1
        while self.at < len(self.lines):
            answer = play(child, f"L{self.at}", self.lines[self.at])
            self.tally.take(answer)
            _check(self.tally, answer, self.prompts[self.at + 1], f"line {self.at} {self.lines[self.at]!r}")
            self.at = self.sent = self.at + 1
        rc, rest, err = child.finish()
        self.tally.take(rest)
        if rc != 0:
            self.problem(f"exit status {rc}: {err.decode('utf-8', 'replace')[-500:]}")


def run_anywhere(tmp: Path, kills: int, seed: int, game: str) -> tuple[Run, float]:
    """The uninterrupted run, and runs killed ``kills`` times in all in ``tmp``: a game takes at most one
    kill per three lines of its script (each kill moves the game on by a line or more), so more kills are
    spread over several killed games, each on a fresh file; (the killed runs added up, seconds)."""
    lines, args = lines_of(game), GAMES[game]
    prompts, ref = reference(tmp / "reference.sqlite3", lines, args)
    per_game = max(1, len(lines) // 3)
    start = time.monotonic()
    total = Run(tmp / "none", lines, prompts, args, random.Random(seed))
    for n, first in enumerate(range(0, kills, per_game)):
        db = tmp / f"killed-{n}.sqlite3"
        run = Run(db, lines, prompts, args, random.Random(seed * 1000 + n))
        run.play_out(min(per_game, kills - first))
        compare(tmp / "reference.sqlite3", db, ref, run.tally)
        if final_state(db) != final_state(tmp / "reference.sqlite3"):
            run.problem(f"game {n}: the final state differs from the uninterrupted run's")
        t, r = total.tally, run.tally
        t.kills, t.resumes, t.duplicates, t.lost = t.kills + r.kills, t.resumes + r.resumes, \
            t.duplicates + r.duplicates, t.lost + r.lost
        t.problems += [f"game {n}: {p}" for p in r.problems]
        t.fresh.update({(n, s): e for s, e in r.fresh.items()})  # type: ignore[misc]
        t.replayed.update({(n, s): e for s, e in r.replayed.items()})  # type: ignore[misc]
        total.moments.update(run.moments)
    return total, time.monotonic() - start
