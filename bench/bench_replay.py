"""Replay benchmark (a script that prints numbers; not a test): a game's journal read back, at 10k, 100k and
1M events.

For each size one long Ultimate game is played by bots in memory (start money high enough that nobody goes
bankrupt, so the game goes on) and written to a journal file as the journal writes it (one ``log`` row per
command with its link of the hash chain; written in one transaction, since only reading is measured). Then,
each the best of a few runs:

* the floor: a bare read of the game's rows and ``json.loads`` of each payload;
* the journal's load (``Journal.load``: the rows read, decoded, their order, seqs and hash chain checked,
  and the events built), and its ratio to the floor (the goal: at most 1.2);
* the fold (``Game.replay`` of those events);
* ``boardbank replay --json DB`` as a whole process (the goal for 100k events: under 1 s) and its peak
  memory (the child's maximum resident set).

Times should grow linearly with the events. Playing the 1M-event game by bots is itself slow (over 20 minutes
on a loaded 2-core machine: the bots' game slows down as it grows); ``--sizes`` chooses the sizes.
Usage: ``python bench/bench_replay.py [--sizes 10000,100000]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.commands import Command  # noqa: E402
from engine.editions import load_edition  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.records import command_to_record, event_to_record  # noqa: E402
from engine.rulesets.ultimate.sim import GameRunner  # noqa: E402
from engine.store.journal import Journal, dumps_record  # noqa: E402
from engine.store.rows import chain_start, link, payload_text  # noqa: E402

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
LOAD_GOAL, PROCESS_GOAL_S = 1.2, 1.0


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


def write_journal(path: Path, commands: list[Command], game: Game) -> None:
    """The game's rows as the journal writes them (its chain included), in one transaction."""
    with Journal.open(path) as journal:
        gid = journal.create_game(game.edition.id, 7, {"start_money": 10**8})
    by_command: dict[int, list[dict[str, object]]] = {}
    for event in game.events:
        by_command.setdefault(event.command, []).append(event_to_record(event))
    rows, chain = [], chain_start(gid)
    for number, cmd in enumerate(commands, start=1):
        text = payload_text(command_to_record(cmd), by_command.get(number, []))
        chain = link(chain, number, None, text.encode("utf-8"))
        rows.append((gid, number, text, chain))
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO log (game_id, number, input_id, payload, chain) VALUES (?, ?, NULL, ?, ?)", rows)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert dumps_record  # the journal's own encoder is what payload_text uses


def best(runs: int, fn: object) -> float:
    out = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        out = min(out, time.perf_counter() - start)
    return out


def measure(path: Path, runs: int) -> dict[str, float]:
    def bare() -> None:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            for (payload,) in conn.execute("SELECT payload FROM log WHERE game_id = 1 ORDER BY id"):
                json.loads(payload)
        conn.close()

    def load() -> None:
        with Journal.open(path, read_only=True) as journal:
            journal.load(1)

    with Journal.open(path, read_only=True) as journal:
        edition_id, events = journal.load(1)
    edition = load_edition(edition_id)
    out = {"bare": best(runs, bare), "load": best(runs, load),
           "fold": best(runs, lambda: Game.replay(edition, events))}
    process, peak = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        child = subprocess.Popen([BOARDBANK, "replay", "--json", str(path)], stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        process = min(process, time.perf_counter() - start)
        peak = max(peak, usage.ru_maxrss)
        assert os.waitstatus_to_exitcode(status) == 0
    out["process"], out["peak_mib"], out["events"] = process, peak / 1024, float(len(events))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="events per journal, comma-separated")
    parser.add_argument("--runs", type=int, default=3, help="runs of each measure (the best is printed)")
    args = parser.parse_args()
    assert resource  # the child's peak memory comes from wait4's rusage
    print(f"{'events':>9} {'bare read+json':>15} {'load':>8} {'load/bare':>10} {'fold':>8} {'replay --json':>14} "
          f"{'peak MiB':>9} {'us/event (process)':>19}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(x) for x in args.sizes.split(",")):
            path = Path(tmp) / f"game-{size}.sqlite3"
            commands, game = long_game(size)
            write_journal(path, commands, game)
            m = measure(path, args.runs)
            ratio = m["load"] / m["bare"]
            print(f"{int(m['events']):>9} {m['bare']:>14.3f}s {m['load']:>7.3f}s {ratio:>10.2f} {m['fold']:>7.3f}s "
                  f"{m['process']:>13.3f}s {m['peak_mib']:>9.0f} {m['process'] / m['events'] * 1e6:>19.1f}")
            if size == 100_000:
                print(f"  goals at 100k events: load/bare <= {LOAD_GOAL} "
                      f"({'OK' if ratio <= LOAD_GOAL else 'NOT MET'}), replay --json < {PROCESS_GOAL_S} s "
                      f"({'OK' if m['process'] < PROCESS_GOAL_S else 'NOT MET'})")
            path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
