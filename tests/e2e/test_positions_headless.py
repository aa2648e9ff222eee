"""A whole Ultimate game where the unit keeps the tokens, piped into ``boardbank headless``: every expect of
the script holds, every durable event is printed once and in order, the dice are journaled in the commands,
and a restart resumes with the tokens where they stood (docs/flows.md "The unit keeps the tokens")."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
SCRIPT = Path(__file__).parents[1] / "engine" / "taps" / "positions" / "whole_game.tap"


def headless(db: Path, text: str) -> tuple[int, list[dict[str, object]], str]:
    proc = subprocess.run([BOARDBANK, "headless", "--db", str(db)], input=text, capture_output=True,
                          text=True, timeout=120, check=False, env={**os.environ, "BOARDBANK_DB": ""})
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def test_whole_positions_game_through_a_pipe_then_resume(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    rc, lines, err = headless(db, SCRIPT.read_text(encoding="utf-8"))
    assert rc == 0, err
    expects = [line for line in lines if line["type"] == "expect"]
    assert len(expects) >= 30 and all(line["ok"] for line in expects), [e for e in expects if not e["ok"]]
    events = [line["event"] for line in lines if line["type"] == "event"]
    seqs = [line["seq"] for line in lines if line["type"] == "event"]
    assert seqs == list(range(1, len(seqs) + 1))
    rolls = [e for e in events if e["type"] == "DiceRolled"]  # type: ignore[index]
    assert len(rolls) == 11 and any(e["type"] == "GameEnded" for e in events)  # type: ignore[index]
    dice = [json.loads(row[0]) for row in sqlite3.connect(db).execute(
        "SELECT payload FROM commands WHERE type = 'RollDice'")]
    assert [(d["die1"], d["die2"]) for d in dice] == [(e["die1"], e["die2"]) for e in rolls]  # type: ignore[index]
    rc, again, err = headless(db, "expect state over\nexpect position 1 0\nexpect position 2 12\n")
    assert rc == 0, err
    assert again[0]["resumed"] is True
    assert all(line["ok"] for line in again if line["type"] == "expect")

