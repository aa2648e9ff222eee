"""The banker's own overhead per gesture, over the engine's time for the same command.

A gesture goes through the Banker (taps / presses -> machine -> Game.check -> Game.apply -> view model);
the baseline applies the same command straight to an identical in-memory Game. Both run without the
journal (an in-memory store), so the difference is the banker alone; a third line shows a gesture with the
real journal (SQLite WAL, synchronous=FULL) for scale. Times are microseconds of CPU time of this thread
(``time.thread_time_ns``: other processes on a busy machine do not inflate them), and of wall time for
the journal line (which waits for fsync). The target is a banker overhead below 1 ms (1000 us) per gesture.
A second part plays the classic game's gestures (classic-us: GO, rent, a mortgage and its lift, a build tap
and a sale, a tax) the same way. Run: ``.venv/bin/python bench/bench_banker.py [--gestures N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import commands as c
from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock
from engine.editions import Edition, load_edition
from engine.events import Event
from engine.game import Game
from engine.rulesets.classic import commands as cc
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


D3 = "00000103"
CLASSIC_SETUP = [("tap", P1), ("tap", P2), ("press", "ok"), ("tap", D1), ("tap", P1), ("press", "ok"),
                 ("tap", D2), ("tap", P1), ("press", "ok"), ("press", "end_turn"), ("tap", D3), ("tap", P2),
                 ("press", "ok"), ("press", "end_turn")]
# one round of classic gestures, player 1's turn: (inputs, the command the banker must issue)
CLASSIC_ROUND: list[tuple[list[tuple[str, str]], c.Command]] = [
    ([("press", "go"), ("tap", P1)], c.PassGo("p1")),
    ([("tap", D1), ("tap", P2)], c.PayRent("p2", 1)),
    ([("tap", P1), ("tap", D3)], c.PayRent("p1", 3)),
    ([("tap", D3), ("tap", P2), ("press", "mortgage")], cc.MortgageDeed("p2", 3)),
    ([("tap", D3), ("tap", P2), ("press", "lift")], cc.LiftMortgage("p2", 3)),
    ([("tap", P1), ("press", "build"), ("tap", D1), ("press", "ok")], cc.BuildHouse("p1", 1)),
    ([("tap", P1), ("press", "sell"), ("tap", D1), ("press", "ok")], cc.SellBuilding("p1", 1)),
    ([("press", "luxury_tax"), ("tap", P1)], cc.PayTax("p1", 38)),
]


def measure_classic(gestures: int) -> dict[str, dict[str, float]]:
    """The classic game: per-gesture microseconds of the banker (memory) and of the engine alone."""
    edition = load_edition("classic-us")
    cards = CardTable({P1: ("player", 1), P2: ("player", 2), D1: ("deed", 1), D2: ("deed", 2), D3: ("deed", 3)})
    clock = ManualClock()  # moved 2 s between gestures: the same card in the next gesture is no bounce
    banker = Banker(MemoryStore(edition), cards, clock, seed_source=lambda: 1)  # type: ignore[arg-type]
    calls: dict[str, Callable[..., Any]] = {"tap": banker.tap, "press": banker.press}
    for verb, arg in CLASSIC_SETUP:
        assert calls[verb](arg).error is None, (verb, arg)
    assert banker.game is not None
    game = Game.replay(edition, banker.game.events)
    results: dict[str, list[float]] = {"banker": [], "engine": []}
    for i in range(gestures):
        inputs, cmd = CLASSIC_ROUND[i % len(CLASSIC_ROUND)]
        clock.advance(2.0)
        t0 = time.thread_time_ns()
        events = 0
        for verb, arg in inputs:
            reaction = calls[verb](arg)
            assert reaction.error is None, (inputs, reaction.error, reaction.params)
            events += len(reaction.events)
        results["banker"].append((time.thread_time_ns() - t0) / 1000)
        assert events, inputs
        t0 = time.thread_time_ns()
        game.apply(cmd)
        results["engine"].append((time.thread_time_ns() - t0) / 1000)
    assert game.state == banker.game.state, "the banker issued other commands than the round's"
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
    classic = measure_classic(args.gestures)
    print(f"classic-us: {args.gestures} gestures (2-4 inputs + 1 command each: GO, rent, mortgage, lift, a build "
          "tap, a sale, a tax), microseconds (CPU time)")
    for label in ("engine", "banker", "overhead"):
        row = classic[label]
        print(f"  {label:<15} p50 {row['p50']:8.1f}   p99 {row['p99']:8.1f}   mean {row['mean']:8.1f}")
    verdict = {q: "OK" if classic["overhead"][q] < 1000.0 else "MISSED" for q in ("p50", "p99")}
    print(f"target: banker overhead < 1000 us per gesture -> p50 {verdict['p50']}, p99 {verdict['p99']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
