"""Count it through ``boardbank headless`` (docs/flows.md, "Count it"): the whole classic game of
tests/engine/taps/classic/whole_game.tap with two counting players answering right, wrong then right, wrong
twice, skipping and letting the question time out gives the same journal as without counting; the scores
are printed with the standings, and they survive a restart (the banker's record); a ``boardbank headless``
killed with SIGKILL while a question is on the screen comes back with the same question, and the game then
has the journal of the same game uncounted (the held input applied once)."""

from __future__ import annotations

import argparse
import io
import json
import sys
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
    changes = [q for q in questions if q["rule"] == "change"]
    assert changes and all(q["note"] == q["terms"]["note"] > q["terms"]["paid"] for q in changes), \
        "change questions, with the note and the payment (never the change)"
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


def test_a_question_killed_on_the_screen_comes_back_and_is_paid_once(tmp_path: Path) -> None:
    """SIGKILL while a question is on the screen (its input held, in the banker's record): the restart shows
    the same question; every question then skipped, the game's events are the uncounted game's."""
    sys.path.insert(0, str(Path(__file__).parent))
    from killdrive import Child
    from killdrive import play as send

    plain, _, _ = play(tmp_path / "plain.sqlite3", None)
    lines = [t for t in GAME.read_text(encoding="utf-8").splitlines() if t.strip() and not t.startswith("#")]
    at = lines.index("press ok")
    lines[at:at] = ["choose count=1,2"]
    db, printed, n, args = tmp_path / "count.sqlite3", [], 0, ("--edition", "classic-us")
    child = Child(db, args)
    assert child.next() is not None
    kill_at = 3  # the third question: scores and a change question's turn are in the record too
    asked: list[dict[str, Any]] = []

    def line(text: str) -> dict[str, Any] | None:
        """Send ``text``; the question it asked (printed after its prompt), or None."""
        nonlocal n, printed
        got = send(child, f"L{n}", text)
        n += 1
        printed += got
        if got[-1].get("key") != "prompt.count_question":
            return None
        question = child.next()
        assert question is not None and question["type"] == "question"
        return question

    try:
        for text in lines:
            question = line(text)
            while question is not None:
                asked.append(question)
                if len(asked) == kill_at:
                    printed += child.kill()
                    child = Child(db, args)
                    ready = child.next()
                    assert ready is not None and ready["resumed"]
                    assert ready["prompt"]["key"] == "prompt.count_question"
                    again = child.next()
                    assert again is not None and again["type"] == "question"
                    assert again == {k: v for k, v in question.items() if k != "id"}, "the same question"
                question = line("press skip")
        rc, rest, err = child.finish()
    finally:
        if child.proc.poll() is None:
            child.kill()
    assert rc == 0, err.decode("utf-8", "replace")
    printed += rest
    assert len(asked) > kill_at
    assert _events(printed) == _events(plain), "nothing paid twice, nothing lost"
