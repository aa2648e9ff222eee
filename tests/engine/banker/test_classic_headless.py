"""A whole classic game through ``boardbank headless`` (docs/rules-classic.md 1, 3-9): the tap script of
tests/engine/taps/classic/whole_game.tap piped in, from registration to the last player standing; every
durable event printed once and in order, and a restart resumes the finished game."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
SCRIPT = Path(__file__).parents[1] / "taps" / "classic" / "whole_game.tap"


def headless(db: Path, text: str) -> tuple[int, list[dict[str, object]], str]:
    proc = subprocess.run([BOARDBANK, "headless", "--edition", "classic-us", "--db", str(db)], input=text,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "BOARDBANK_DB": ""})
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def test_a_whole_classic_game_through_headless(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    rc, lines, err = headless(db, SCRIPT.read_text(encoding="utf-8"))
    assert rc == 0, err
    expects = [line for line in lines if line["type"] == "expect"]
    assert len(expects) >= 30 and all(line["ok"] for line in expects), [e for e in expects if not e["ok"]]
    assert not [line for line in lines if line["type"] == "error" and line.get("error") == "error.bad_line"]
    events = [line for line in lines if line["type"] == "event"]
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1)), "each durable event once, in order"
    kinds = [e["event"]["type"] for e in events]  # type: ignore[index]
    for kind in ("GameStarted", "BuildingBought", "CardDrawn", "DebtOpened", "PlayerBankrupt", "TradeCompleted",
                 "AuctionWon", "GameEnded"):
        assert kind in kinds, kind
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM events").fetchone()[0] == len(seqs)
    rc, again, err = headless(db, "expect state over\nexpect phase over\nexpect owner 8 1\nexpect level 1 5\n")
    assert rc == 0, err
    assert again[0]["resumed"] is True and again[0]["state"] == "over"
    assert [line for line in again if line["type"] == "event"] == []
