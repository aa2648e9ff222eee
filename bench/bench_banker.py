"""The banker's own overhead per gesture, over the engine's time for the same command.

A gesture goes through the Banker (taps / presses -> machine -> Game.check -> Game.apply -> view model);
the baseline applies the same command straight to an identical in-memory Game. Both run without the
journal (an in-memory store), so the difference is the banker alone; a third line shows a gesture with the
real journal (SQLite WAL, synchronous=FULL) for scale. Times are microseconds of CPU time of this thread
(``time.thread_time_ns``: other processes on a busy machine do not inflate them), and of wall time for
the journal line (which waits for fsync). The target is a banker overhead below 1 ms (1000 us) per gesture.
Run: ``.venv/bin/python bench/bench_banker.py [--gestures N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import commands as c
from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock
from engine.editions import Edition, load_edition
from engine.events import Event
from engine.game import Game
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

P1, P2, D1, D2 = "000000A1", "000000A2", "00000101", "00000102"


class _MemoryDurable:
    """A DurableGame look-alike without the journal (apply = Game.apply)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.game_id = 1

    def apply(self, cmd: c.Command) -> tuple[Event, ...]:
        return self.game.apply(cmd)


class MemoryStore:
    """A GameStore in memory: isolates the banker's cost from the disk's."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.options: Mapping[str, object] = {}

    def new_game(self, edition_id: str, players: Sequence[c.PlayerSpec], options: Mapping[str, object],
                 seed: int) -> _MemoryDurable:
        game = Game(self.edition)
        game.apply(c.StartGame(tuple(players), dict(options), seed))
        return _MemoryDurable(game)

    def resume(self) -> None:
        return None

    def events(self, game: _MemoryDurable) -> Sequence[Event]:
        return game.game.events


def _banker(store: object) -> Banker:
    cards = CardTable({P1: ("player", 1), P2: ("player", 2), D1: ("deed", 1), D2: ("deed", 2)})
    banker = Banker(store, cards, ManualClock(), seed_source=lambda: 1)  # type: ignore[arg-type]
    for step in (lambda: banker.tap(P1), lambda: banker.tap(P2), lambda: banker.press("ok"),
                 lambda: banker.tap(D1), lambda: banker.tap(P1), lambda: banker.press("ok"),
                 lambda: banker.tap(D2), lambda: banker.tap(P2), lambda: banker.press("ok")):
        assert step().error is None
    return banker


# one round of gestures: (inputs through the banker, the command it must issue)
ROUND: list[tuple[str, list[tuple[str, str]], c.Command]] = [
    ("pass GO (card, button)", [("tap", P1), ("press", "go")], c.PassGo("p1")),
    ("pass GO (button, card)", [("press", "go"), ("tap", P2)], c.PassGo("p2")),
    ("pay rent (deed, card)", [("tap", D1), ("tap", P2)], c.PayRent("p2", 1)),
    ("pay rent (card, deed)", [("tap", P1), ("tap", D2)], c.PayRent("p1", 2)),
]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(gestures: int) -> dict[str, dict[str, float]]:
    """Per-gesture microseconds: banker (memory), engine alone, banker with the journal on disk."""
    edition = load_edition("ultimate-uk")
    banker = _banker(MemoryStore(edition))
    game = Game(edition)
    for cmd in (c.StartGame((c.PlayerSpec("p1", "Player 1", "red"), c.PlayerSpec("p2", "Player 2", "green"))),
                c.BuyDeed("p1", 1), c.BuyDeed("p2", 2)):
        game.apply(cmd)
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.open(Path(tmp) / "bench.sqlite3")
        disk = _banker(JournalStore(journal))
        results: dict[str, list[float]] = {"banker": [], "engine": [], "banker+journal": []}
        calls: dict[str, Callable[..., object]] = {}
        for i in range(gestures):
            _name, inputs, cmd = ROUND[i % len(ROUND)]
            for label, target, now in (("banker", banker, time.thread_time_ns),
                                       ("banker+journal", disk, time.perf_counter_ns)):
                calls = {"tap": target.tap, "press": target.press}
                t0 = now()
                for verb, arg in inputs:
                    reaction = calls[verb](arg)
                results[label].append((now() - t0) / 1000)
                assert reaction.error is None and reaction.events, (label, inputs, reaction.error)
            t0 = time.thread_time_ns()
            game.apply(cmd)
            results["engine"].append((time.thread_time_ns() - t0) / 1000)
        journal.close()
    summary = {k: {"p50": _pct(v, 0.5), "p99": _pct(v, 0.99), "mean": statistics.fmean(v)}
               for k, v in results.items()}
    overhead = [b - e for b, e in zip(results["banker"], results["engine"], strict=True)]
    summary["overhead"] = {"p50": _pct(overhead, 0.5), "p99": _pct(overhead, 0.99),
                           "mean": statistics.fmean(overhead)}
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gestures", type=int, default=2000)
    args = parser.parse_args()
    summary = measure(args.gestures)
    print(f"banker overhead per gesture, {args.gestures} gestures (2 inputs + 1 command each), microseconds"
          " (CPU time; banker+journal: wall time)")
    for label in ("engine", "banker", "overhead", "banker+journal"):
        row = summary[label]
        print(f"  {label:<15} p50 {row['p50']:8.1f}   p99 {row['p99']:8.1f}   mean {row['mean']:8.1f}")
    verdict = {q: "OK" if summary["overhead"][q] < 1000.0 else "MISSED" for q in ("p50", "p99")}
    print(f"target: banker overhead < 1000 us per gesture -> p50 {verdict['p50']}, p99 {verdict['p99']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
