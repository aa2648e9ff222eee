"""SIGKILL ``boardbank headless`` at random moments of a long scripted game and resume it each time.

Used by tests/e2e/test_kill_headless.py (a few kills) and bench/bench_kill_headless.py (100 kills).
The script is tests/engine/taps/whole_game.tap (buying, rent, GO, Location, an event card, jail, an
auction, a debt and the bankruptcy) with an undo through the banker menu, a move card whose landing is
declined into an auction without bids, and a gesture left to time out. Every line carries an id. The
driver sends a line, waits a random few milliseconds and kills the unit; it then restarts it on the same
file and resends from the first line it has no answer for, as a driver after a crash would. Checked: the
prompt after each restart is the one before the kill (the prompt of the last line the unit applied; in
the banker menu, which a restart locks, the prompt under it, and the driver opens the menu again), every
answer's prompt is the uninterrupted run's, no event is printed twice, every printed event is in the
journal and every journaled event was printed, and the final journal and state equal the uninterrupted
run's (the seed of the virtual deck aside: it comes from the system's randomness).
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
TAPS = Path(__file__).parents[1] / "engine" / "taps"
ANN = "04A10000000001"
UNDO = ["tap 000000BB", "choose 1", "choose 2", "choose 34", "press undo", "press ok"]
MOVE_CARD = ["tap 00000218", f"tap {ANN}", "choose 1", "press decline", "wait 10"]
TIMEOUT = ["tap 00000121", "wait 4", "wait 7"]


POSITIONS = TAPS / "positions" / "classic_whole_game.tap"
GAMES: dict[str, tuple[str, ...]] = {
    "ultimate": (), "classic-positions": ("--edition", "classic-us"), "ultimate-positions": (),
    "classic": ("--edition", "classic-us"), "classic-four": ("--edition", "classic-us", "--option", "positions=on")}
"""The kill runs, with their ``headless`` arguments: the Ultimate game of :func:`script`, a whole classic
game where the unit keeps the tokens (tests/engine/taps/positions/classic_whole_game.tap,
:func:`positions_script`), the Ultimate game where it keeps them (positions/whole_game.tap) and the classic
game at the table (classic/whole_game.tap: builds, mortgages, a deal, bankruptcies) and the issue's classic
game: four players, dice typed, staged builds and sales, auctions, a mortgage, physical cards
(positions/classic_four_players.tap, with ``--option positions=on``)."""


def positions_script(path: Path = POSITIONS) -> list[str]:
    """A tap script's lines (by default the classic positions game), aliases resolved, ``expect`` lines
    left out."""
    aliases: dict[str, str] = {}
    out: list[str] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        text = raw.split("#", 1)[0].strip()
        words = text.split()
        if not words or words[0] == "expect":
            continue
        if words[0] == "alias":
            aliases[words[1]] = words[2]
            continue
        if words[0] == "tap" and words[1].startswith("@"):
            text = f"tap {aliases[words[1][1:]]}"
        out.append(text)
    return out


def script() -> list[str]:
    """The long game, aliases resolved, ``expect`` lines left out (see the module docstring)."""
    aliases: dict[str, str] = {}
    out: list[str] = []
    bought = False
    for raw in (TAPS / "whole_game.tap").read_text(encoding="utf-8").splitlines():
        text = raw.split("#", 1)[0].strip()
        words = text.split()
        if not words or words[0] == "expect":
            continue
        if words[0] == "alias":
            aliases[words[1]] = words[2]
            continue
        if words[0] == "tap" and words[1].startswith("@"):
            text = f"tap {aliases[words[1][1:]]}"
        out.append(text)
        if text == "press ok" and not bought and out[-3:-1] == ["tap 00000103", f"tap {ANN}"]:
            bought = True  # ann's first buy: undone through the menu, bought again, then a move card
            out += [*UNDO, "tap 00000103", f"tap {ANN}", "press ok", *MOVE_CARD, *TIMEOUT]
    assert bought
    return ["card 000000BB banker", "card 00000218 event 18", *out]


def lines_of(game: str) -> list[str]:
    """The script of the kill run ``game`` (a key of :data:`GAMES`)."""
    if game == "ultimate":
        return script()
    if game == "classic-positions":
        return positions_script()
    name = {"ultimate-positions": "positions/whole_game.tap", "classic-four": "positions/classic_four_players.tap"}
    return positions_script(TAPS / name.get(game, "classic/whole_game.tap"))


class Child:
    """One ``boardbank headless`` process on ``db``; its JSON lines arrive on a queue (None at the end).
    ``env``: more environment (tests/e2e/killchild.py reads its kill inside a commit from it)."""

    def __init__(self, db: Path, args: tuple[str, ...] = (), env: dict[str, str] | None = None) -> None:
        command = [sys.executable, str(Path(__file__).with_name("killchild.py"))] if env else [BOARDBANK]
        self.proc = subprocess.Popen([*command, "headless", "--db", str(db), *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env={**os.environ, "BOARDBANK_DB": "", "BOARDBANK_CLOCK": "manual",
                                          **(env or {})})
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                if line.endswith(b"\n"):  # (a line cut by the kill is not an answer)
                    self.lines.put(json.loads(line.decode("utf-8")))
        finally:
            self.lines.put(None)

    def next(self, timeout: float = 120.0) -> dict[str, Any] | None:
        return self.lines.get(timeout=timeout)

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:  # it killed itself (tests/e2e/killchild.py): what it printed tells the rest
            pass

    def kill(self) -> list[dict[str, Any]]:
        """SIGKILL; what it had printed until then."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        rest = []
        while (obj := self.next()) is not None:
            rest.append(obj)
        return rest

    def finish(self) -> tuple[int, list[dict[str, Any]], bytes]:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        rest = []
        while (obj := self.next()) is not None:
            rest.append(obj)
        assert self.proc.stderr is not None
        return self.proc.wait(), rest, self.proc.stderr.read()


def _terminal(obj: dict[str, Any], input_id: str) -> bool:
    return obj.get("id") == input_id and (obj["type"] in ("prompt", "enrolled", "expect")
                                          or obj.get("error") in ("error.bad_line", "error.enroll"))


def _prompt(obj: dict[str, Any]) -> tuple[Any, ...]:
    if obj["type"] == "ready":
        return obj["state"], obj["prompt"]["key"], obj["prompt"]["params"]
    return obj["state"], obj["key"], obj["params"]


@dataclass
class Tally:
    """What the runs printed and how the checks went."""

    kills: int = 0
    resumes: int = 0
    duplicates: int = 0
    lost: int = 0
    fresh: dict[int, dict[str, Any]] = field(default_factory=dict)  # seq -> event printed once
    replayed: dict[int, dict[str, Any]] = field(default_factory=dict)  # seq -> event answered again
    problems: list[str] = field(default_factory=list)

    def take(self, objects: list[dict[str, Any]]) -> None:
        for obj in objects:
            if obj["type"] != "event":
                continue
            seq, event = int(obj["seq"]), obj["event"]
            if obj.get("replayed"):
                if seq in self.fresh and self.fresh[seq] != event:
                    self.problems.append(f"event {seq} replayed differently")
                self.replayed[seq] = event
            elif seq in self.fresh:
                self.duplicates += 1
                self.problems.append(f"event {seq} printed twice")
            else:
                self.fresh[seq] = event


def play(child: Child, input_id: str, text: str) -> list[dict[str, Any]]:
    """Send one line; everything printed up to its last answer."""
    child.send(f"id={input_id} {text}")
    got: list[dict[str, Any]] = []
    while True:
        obj = child.next()
        assert obj is not None, f"the unit stopped at {input_id} {text!r}"
        got.append(obj)
        if _terminal(obj, input_id):
            return got


def reference(db: Path, lines: list[str], args: tuple[str, ...] = ()) -> tuple[list[tuple[Any, ...]], Tally]:
    """The uninterrupted run: the prompt after each line (carried over lines that print none)."""
    child, tally = Child(db, args), Tally()
    ready = child.next()
    assert ready is not None and ready["type"] == "ready"
    prompt, prompts = _prompt(ready), []
    for n, text in enumerate(lines):
        answer = play(child, f"L{n}", text)
        tally.take(answer)
        prompt = next((_prompt(o) for o in reversed(answer) if o["type"] == "prompt"), prompt)
        prompts.append(prompt)
    rc, rest, err = child.finish()
    assert rc == 0, err.decode("utf-8", "replace")
    tally.take(rest)
    return [_prompt(ready), *prompts], tally


def killed(db: Path, lines: list[str], prompts: list[tuple[Any, ...]], kills: int, seed: int,
           args: tuple[str, ...] = ()) -> Tally:
    """The run killed ``kills`` times; ``prompts[n + 1]`` is the reference prompt after line ``n``."""
    rng, tally = random.Random(seed), Tally()
    points = sorted(rng.choices(range(len(lines)), k=kills))  # a line may be killed again while resent
    child = Child(db, args)
    ready = child.next()
    assert ready is not None
    at = 0
    for point in [*points, None]:
        end = len(lines) if point is None else max(point, at)
        while at < end:
            answer = play(child, f"L{at}", lines[at])
            tally.take(answer)
            _check(tally, answer, prompts[at + 1], f"line {at} {lines[at]!r}")
            at += 1
        if point is None:
            break
        if at >= len(lines):  # a kill after the last line (kill points repeat, and the last may be acked)
            tally.take(child.kill())
            tally.kills += 1
            child = Child(db, args)
            ready = child.next()
            tally.resumes += 1
            if ready is None or _prompt(ready) != prompts[at]:
                tally.problems.append(f"after the kill at the end: {ready}, expected {prompts[at]}")
            continue
        child.send(f"id=L{at} {lines[at]}")
        time.sleep(rng.uniform(0.0, 0.03))
        rest = child.kill()
        tally.kills += 1
        tally.take(rest)
        acked = any(_terminal(o, f"L{at}") for o in rest)
        if acked:
            _check(tally, rest, prompts[at + 1], f"line {at} {lines[at]!r} (before the kill)")
            at += 1
        child = Child(db, args)
        ready = child.next()
        assert ready is not None and ready["type"] == "ready", ready
        tally.resumes += 1
        allowed = [prompts[at]] if acked else [prompts[at], prompts[at + 1]]
        opener = _menu_opener(prompts, at)
        if opener is not None and _prompt(ready) == prompts[opener]:
            at = opener  # a restart locks the banker menu: the driver opens it again, from its first line
            continue
        if _prompt(ready) not in allowed:
            tally.problems.append(f"after the kill at line {at} {lines[at]!r}: prompt {_prompt(ready)}, "
                                  f"expected one of {allowed}")
    rc, rest, err = child.finish()
    tally.take(rest)
    if rc != 0:
        tally.problems.append(f"exit status {rc}: {err.decode('utf-8', 'replace')[-500:]}")
    return tally


LOCKED = frozenset({"pin", "menu", "settings"})


def _menu_opener(prompts: list[tuple[Any, ...]], at: int) -> int | None:
    """If the unit was in the banker menu before line ``at``: the line that opened its PIN prompt."""
    if prompts[at][0] not in LOCKED:
        return None
    n = at
    while n > 0 and prompts[n][0] in LOCKED:
        n -= 1
    return n


def _check(tally: Tally, answer: list[dict[str, Any]], want: tuple[Any, ...], where: str) -> None:
    prompt = next((_prompt(o) for o in reversed(answer) if o["type"] == "prompt"), None)
    if prompt is not None and prompt != want:
        tally.problems.append(f"{where}: prompt {prompt}, the uninterrupted run's {want}")


def journal_events(db: Path) -> list[dict[str, Any]]:
    """The journal's events in order, the virtual deck's seed and order left out."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT payload FROM events ORDER BY game_id, seq").fetchall()
    out = []
    for (payload,) in rows:
        event = json.loads(payload)
        if event.get("type") == "GameStarted":
            event = {k: v for k, v in event.items() if k not in ("seed", "deck")}
        out.append(event)
    return out


def compare(ref_db: Path, db: Path, ref: Tally, tally: Tally) -> None:
    """Final checks: the same journal as the uninterrupted run; every journaled event printed, and only those."""
    want, got = journal_events(ref_db), journal_events(db)
    if got != want:
        tally.problems.append(f"the journal differs from the uninterrupted run's ({len(got)} vs {len(want)} events)")
        tally.duplicates += max(0, len(got) - len(want))
    printed = {**tally.replayed, **tally.fresh}
    with sqlite3.connect(db) as conn:
        stored = {int(s): json.loads(p) for s, p in conn.execute("SELECT seq, payload FROM events")}
    tally.lost = len(set(stored) - set(printed)) + len(set(printed) - set(stored))
    if tally.lost:
        tally.problems.append(f"{tally.lost} events printed but not journaled, or journaled but never printed")
    if any(stored[s] != e for s, e in printed.items() if s in stored):
        tally.problems.append("a printed event differs from the journal's")
    if len(ref.fresh) != len(want):
        tally.problems.append("the uninterrupted run did not print each event once")


def final_state(db: Path) -> dict[str, object]:
    """The final engine state of the file's latest game, the virtual deck's seed and order left out."""
    from engine.store.durable import DurableGame
    from engine.store.journal import Journal

    with Journal.open(db, read_only=True) as journal:
        game_id = journal.latest_game()
        assert game_id is not None
        snapshot = DurableGame.open(journal, game_id).game.state.snapshot()
    return {k: v for k, v in snapshot.items() if k not in ("seed", "deck", "chance", "chest")}  # the decks: seeded


def run(tmp: Path, kills: int, seed: int, game: str = "ultimate") -> tuple[Tally, float, int]:
    """The uninterrupted run and the killed one in ``tmp`` (``game``: a key of :data:`GAMES`); (the killed
    run's tally, seconds, lines)."""
    lines, args = lines_of(game), GAMES[game]
    prompts, ref = reference(tmp / "reference.sqlite3", lines, args)
    start = time.monotonic()
    tally = killed(tmp / "killed.sqlite3", lines, prompts, kills, seed, args)
    seconds = time.monotonic() - start
    compare(tmp / "reference.sqlite3", tmp / "killed.sqlite3", ref, tally)
    if final_state(tmp / "killed.sqlite3") != final_state(tmp / "reference.sqlite3"):
        tally.problems.append("the final state differs from the uninterrupted run's")
    return tally, seconds, len(lines)
