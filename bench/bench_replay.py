"""Replay benchmark (a script that prints numbers; not a test): a game's journal read back, at 10k, 100k and
1M events.

One long Ultimate game is played by bots in memory (start money high enough that nobody goes bankrupt, so
the game goes on), at most 100,000 events of it (:data:`PLAYED`: the bots' game slows down as it grows, and
1M events took them over 20 minutes). A journal of each size is written from its rows as the journal
writes them (one ``log`` row per command with its link of the hash chain), directly and in one transaction:
the played rows, then, past them, the second half of the played rows again and again with their command
numbers, seqs and links renumbered (a valid journal the fold reads like any other; about 10 s for 1M
events). Then, in alternating rounds (each measure once per round, the best round printed), in CPU
seconds of this process or of the child:

* the floor: a bare read of the game's rows and ``json.loads`` of each payload;
* the journal's open (``Journal.open`` read-only: the file's checks, SQLite's ``quick_check`` of the whole
  file among them), apart;
* the journal's load (``Journal.load`` on the open journal: the rows read, decoded, their order, seqs and
  hash chain checked, and the events built; freeing them afterwards is not timed), and its ratio to the
  floor (the goal: at most 1.2);
* the fold (``Game.replay`` of those events; the goal: at most 0.3 s per 100k events);
* ``boardbank replay --json DB`` as a whole process, its CPU time (user + system) and wall time (the goal
  for 100k events: under 1 s), and its peak memory (the child's maximum resident set; the children are
  started by a small launcher process, so that no child counts this bench's memory). The child runs as
  an installed program does, from compiled bytecode (pip compiles it at install): its ``.pyc`` files go to a
  temporary folder (``PYTHONPYCACHEPREFIX``, never the source tree), warmed by one run first, whatever
  ``PYTHONDONTWRITEBYTECODE`` says here (a child compiling every module again costs it about 0.1 s more).

The load's JSON parser is printed first (engine/store/fastload.py uses orjson when it is installed, else
``json``; the floor always uses ``json.loads``).

The floor, the open, the load and the fold of a round are measured in a fresh process, as small as a
replay's (this one holds the played rows, and its garbage collector's passes over them fell inside
whichever measure triggered them). Times should grow linearly with the events. The machine's load average
is printed first.
Usage: ``python bench/bench_replay.py [--sizes 10000,100000,1000000] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.commands import Command  # noqa: E402
from engine.editions import load_edition  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.records import command_to_record, event_to_record  # noqa: E402
from engine.rulesets.ultimate.sim import GameRunner  # noqa: E402
from engine.store.fastload import LOADS  # noqa: E402
from engine.store.journal import Journal  # noqa: E402
from engine.store.rows import chain_start, link, payload_text  # noqa: E402

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
LOAD_GOAL, FOLD_GOAL_S, PROCESS_GOAL_S = 1.2, 0.3, 1.0


PLAYED = 100_000
"""Events of the bots' game at most; longer journals repeat its second half."""


def long_game(events: int) -> tuple[list[Command], Game]:
    """A bots' game of at least ``events`` events (its commands and the game)."""
    edition = load_edition("ultimate-uk")
    game, sent = Game(edition), []

    def apply(cmd: Command) -> object:
        if len(game.events) >= events:
            raise StopIteration
        sent.append(cmd)
        return game.apply(cmd)

    runner = GameRunner(edition, 4, 7, game=game, apply=apply, check_invariants=False,  # type: ignore[arg-type]
                        options={"start_money": 10**8}, turn_cap=10**9)
    with contextlib.suppress(StopIteration):  # the game is long enough
        runner.play()
    return sent, game


Row = tuple[dict[str, object], list[dict[str, object]]]


def played_rows(commands: list[Command], game: Game) -> list[Row]:
    """(command record, event records) per command of the played game."""
    by_command: dict[int, list[dict[str, object]]] = {}
    for event in game.events:
        by_command.setdefault(event.command, []).append(event_to_record(event))
    return [(command_to_record(cmd), by_command.get(n, [])) for n, cmd in enumerate(commands, start=1)]


def write_journal(path: Path, played: list[Row], events: int, edition_id: str = "ultimate-uk") -> int:
    """A journal of at least ``events`` events from the ``played`` rows (see the module's text), its chain
    included, in one transaction; the events written."""
    with Journal.open(path) as journal:
        gid = journal.create_game(edition_id, 7, {"start_money": 10**8})
    rows, chain, seq, half = [], chain_start(gid), 1, len(played) // 2
    number = 0
    while seq <= events:
        i = number if number < len(played) else half + (number - len(played)) % (len(played) - half)
        number += 1
        command, records = played[i]
        renumbered = []
        for record in records:
            renumbered.append({**record, "seq": seq, "command": number})
            seq += 1
        text = payload_text(command, renumbered)
        chain = link(chain, number, None, text.encode("utf-8"))
        rows.append((gid, number, text, chain))
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO log (game_id, number, input_id, payload, chain) VALUES (?, ?, NULL, ?, ?)", rows)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return seq - 1


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def child_env(pycache: Path) -> dict[str, str]:
    """The replay child's environment: compiled bytecode kept in ``pycache`` (see the module's text)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


LAUNCHER = """
import json, os, subprocess, sys, time
for line in sys.stdin:
    args, env = json.loads(line)
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    print(json.dumps([wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status)]),
          flush=True)
"""
"""A small process that starts the replay children and reports each one's wall time, CPU time and peak
resident set: a child started by this bench (hundreds of MiB once the bots' game is in memory) would count
the bench's own memory in its peak (Linux keeps the high-water mark of the process it was forked from)."""


class Launcher:
    """The :data:`LAUNCHER` process, started while this bench is still small."""

    def __init__(self) -> None:
        self._proc = subprocess.Popen([sys.executable, "-c", LAUNCHER], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)

    def replay(self, path: Path, env: dict[str, str]) -> tuple[float, float, int]:
        """One ``boardbank replay --json`` process: its wall time, CPU time (s) and peak resident set (KiB)."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps([[BOARDBANK, "replay", "--json", str(path)], env]) + "\n")
        self._proc.stdin.flush()
        wall, process, rss, status = json.loads(self._proc.stdout.readline())
        assert status == 0, f"boardbank replay exited with {status}"
        return wall, process, rss

    def close(self) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        self._proc.wait()


def one_round(path: Path) -> dict[str, float]:
    """The floor, the open, the load and the fold once each, in this process (a fresh one per round: see
    :func:`measure`), after a floor and a load run once untimed (the load's imports the ruleset and compiles
    the constructors)."""
    def bare() -> None:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            for (payload,) in conn.execute("SELECT payload FROM log WHERE game_id = 1 ORDER BY id"):
                json.loads(payload)
        conn.close()

    def opened() -> None:
        Journal.open(path, read_only=True).close()

    with Journal.open(path, read_only=True) as journal:
        edition_id, _ = journal.load(1)
        edition = load_edition(edition_id)
        bare()
        out = {"bare": cpu(bare), "open": cpu(opened)}
        start = time.process_time()
        _, events = journal.load(1)
        out["load"] = time.process_time() - start  # freeing the events is not the load: they are kept
    out["fold"] = cpu(lambda: Game.replay(edition, events))
    out["events"] = float(len(events))
    return out


def measure(path: Path, runs: int, launcher: Launcher) -> dict[str, float]:
    """Each figure the best of ``runs`` alternating rounds. The in-process figures of a round are measured
    in a fresh process (:func:`one_round`), as small as a replay's: in this one, which holds the played
    rows, the same load took up to 1.5 times as long and varied widely from round to round."""
    out = {k: float("inf") for k in ("bare", "open", "load", "fold", "process", "wall")}
    peak, events = 0, 0.0
    env = child_env(path.parent / "pycache")
    launcher.replay(path, env)  # compiles the bytecode once
    for _ in range(runs):  # alternating rounds: each measure once per round
        done = subprocess.run([sys.executable, __file__, "--round", str(path)], capture_output=True, text=True,
                              check=True, env=env)
        for key, value in json.loads(done.stdout).items():
            if key == "events":
                events = value
            else:
                out[key] = min(out[key], value)
        wall, process, rss = launcher.replay(path, env)
        out["wall"], out["process"] = min(out["wall"], wall), min(out["process"], process)
        peak = max(peak, rss)
    out["peak_mib"], out["events"] = peak / 1024, events
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="events per journal, comma-separated")
    parser.add_argument("--runs", type=int, default=3, help="alternating rounds (the best is printed)")
    parser.add_argument("--round", metavar="DB", help=argparse.SUPPRESS)  # one round's in-process figures
    args = parser.parse_args()
    if args.round:
        print(json.dumps(one_round(Path(args.round))))
        return 0
    sizes = [int(x) for x in args.sizes.split(",")]
    print("load average (1, 5, 15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"the load's JSON parser: {LOADS.__module__}.{LOADS.__name__}")
    start = time.process_time()
    launcher = Launcher()  # before the bots' game fills this process
    commands, game = long_game(min(max(sizes), PLAYED))
    played = played_rows(commands, game)
    print(f"the bots' game: {len(game.events)} events in {time.process_time() - start:.1f} CPU s")
    del commands, game
    print(f"{'events':>9} {'write':>7} {'bare read+json':>15} {'open':>6} {'load':>7} {'load/bare':>10} {'fold':>7} "
          f"{'fold/100k':>10} {'replay cpu':>11} {'wall':>7} {'peak MiB':>9} {'us/event':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            path = Path(tmp) / f"game-{size}.sqlite3"
            start = time.process_time()
            write_journal(path, played, size)
            written = time.process_time() - start
            m = measure(path, args.runs, launcher)
            ratio, per_100k = m["load"] / m["bare"], m["fold"] / m["events"] * 100_000
            print(f"{int(m['events']):>9} {written:>6.1f}s {m['bare']:>14.3f}s {m['open']:>5.3f}s {m['load']:>6.3f}s "
                  f"{ratio:>10.2f} "
                  f"{m['fold']:>6.3f}s {per_100k:>9.3f}s {m['process']:>10.3f}s {m['wall']:>6.3f}s "
                  f"{m['peak_mib']:>9.0f} {m['process'] / m['events'] * 1e6:>9.2f}")
            if size == 100_000:
                print(f"  goals at 100k events: load/bare <= {LOAD_GOAL} ({'OK' if ratio <= LOAD_GOAL else 'NOT MET'}),"
                      f" fold <= {FOLD_GOAL_S} s ({'OK' if m['fold'] <= FOLD_GOAL_S else 'NOT MET'}), replay --json "
                      f"< {PROCESS_GOAL_S} s ({'OK' if m['process'] < PROCESS_GOAL_S else 'NOT MET'} in CPU, "
                      f"{'OK' if m['wall'] < PROCESS_GOAL_S else 'NOT MET'} in wall time)")
            path.unlink()
    launcher.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
