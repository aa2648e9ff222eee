"""Count it through ``boardbank headless`` (docs/flows.md, "Count it"): the whole classic game of
tests/engine/taps/classic/whole_game.tap with two counting players answering right, wrong then right, wrong
twice, skipping and letting the question time out gives the same journal as without counting; the scores
are printed with the standings, and they survive a restart (the banker's record)."""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ui.cli.headless import Headless
from ui.compose import build

GAME = Path(__file__).parents[1] / "engine" / "taps" / "classic" / "whole_game.tap"
POLICIES = ("right", "wrong_right", "wrong_wrong", "skip", "timeout")


def _lines(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def play(db: Path, count: str | None) -> tuple[list[dict[str, Any]], dict[str, int], Any]:
    """The script through headless (``choose count=...`` before ✓ when ``count``), each question answered
    by the next policy in turn; the printed lines and how often each policy ran."""
    args = argparse.Namespace(db=str(db), reader=None, edition="classic-us", option=[])
    built = build(args, default_readers=[], manual_clock=True)
    out = io.StringIO()
    used = dict.fromkeys(POLICIES, 0)
    policies: Iterator[str] = iter(POLICIES * 100)
    try:
        h = Headless(built, out)
        n = 0

        def line(text: str) -> None:
            nonlocal n
            n += 1
            h.handle_line(text, n)

        for text in GAME.read_text(encoding="utf-8").splitlines():
            if count is not None and text.strip() == "press ok" and built.banker.state_name == "setup":
                line(f"choose count={count}")
            line(text)
            while built.banker.view.question is not None:
                policy = next(policies)
                used[policy] += 1
                amount = built.banker.view.question.amount
                if policy == "right":
                    line(f"choose {amount}")
                elif policy == "wrong_right":
                    line(f"choose {amount + 1}")
                    line(f"choose {amount}")
                elif policy == "wrong_wrong":
                    line(f"choose {amount + 1}")
                    line(f"choose {amount + 2}")
                elif policy == "skip":
                    line("press skip")
                else:
                    line(f"wait {built.banker.ctx.timeout_s + 1}")
        return _lines(out), used, built
    finally:
        built.close()


def _events(lines: list[dict[str, Any]]) -> list[Any]:
    """Every durable event (the start's shuffled deck and seed left out: this script draws no card)."""
    return [(e["seq"], {k: v for k, v in e["event"].items() if k not in ("deck", "seed")})
            for e in lines if e["type"] == "event"]


def test_a_counted_classic_game_has_the_journal_of_the_same_game_uncounted(tmp_path: Path) -> None:
    plain, _, _ = play(tmp_path / "plain.sqlite3", None)
    counted, used, _ = play(tmp_path / "count.sqlite3", "1,2")
    assert all(e["ok"] for e in counted if e["type"] == "expect"), [e for e in counted if e["type"] == "expect"
                                                                    and not e["ok"]]
    assert _events(counted) == _events(plain)
    assert all(used[p] >= 1 for p in POLICIES), used
    questions = [e for e in counted if e["type"] == "question"]
    assert questions and {q["player"] for q in questions} <= {"p1", "p2"}
    assert all("amount" not in q for q in questions), "a question never prints its answer"
    outcomes = [e["outcome"] for e in counted if e["type"] == "counted"]
    assert {"right", "revealed", "skipped", "timeout"} <= set(outcomes)
    scores = [e for e in counted if e["type"] == "scores"]
    final = scores[-1]
    assert final["over"] is True
    right = sum(s["right"] for s in final["scores"])
    answered = sum(s["answered"] for s in final["scores"])
    assert right == outcomes.count("right") and answered == right + outcomes.count("revealed")
    assert not [e for e in plain if e["type"] in ("question", "scores")]


def test_the_scores_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "count.sqlite3"
    lines, _, _ = play(db, "1,2")
    final = [e for e in lines if e["type"] == "scores"][-1]["scores"]
    args = argparse.Namespace(db=str(db), reader=None, edition="classic-us", option=[])
    built = build(args, default_readers=[], manual_clock=True)
    try:
        shown = [(s.player, s.right, s.answered) for s in built.banker.view.scores]
    finally:
        built.close()
    assert shown == [(s["player"], s["right"], s["answered"]) for s in final]
