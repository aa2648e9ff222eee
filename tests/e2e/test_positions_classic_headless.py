"""A whole classic game where the unit keeps the tokens, piped into ``boardbank headless --edition
classic-us``: tests/engine/taps/positions/classic_whole_game.tap from registration to the last player
standing; every expect holds, every durable event is printed once and in order, the dice are journaled in
the commands, the standings rank the winner first, and a restart resumes the finished game (docs/flows.md
"The unit keeps the tokens"; docs/rules-classic.md 9)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
SCRIPT = Path(__file__).parents[1] / "engine" / "taps" / "positions" / "classic_whole_game.tap"


def headless(db: Path, text: str) -> tuple[int, list[dict[str, object]], str]:
    proc = subprocess.run([BOARDBANK, "headless", "--edition", "classic-us", "--db", str(db)], input=text,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "BOARDBANK_DB": ""})
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def test_a_whole_classic_positions_game_through_headless(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    rc, lines, err = headless(db, SCRIPT.read_text(encoding="utf-8"))
    assert rc == 0, err
    expects = [line for line in lines if line["type"] == "expect"]
    assert len(expects) >= 60 and all(line["ok"] for line in expects), [e for e in expects if not e["ok"]]
    errors = [line["error"] for line in lines if line["type"] == "error"]
    assert errors == ["error.rule", "error.wrong_player"], "only the two wrong cards the script taps on purpose"
    events = [line["event"] for line in lines if line["type"] == "event"]
    seqs = [line["seq"] for line in lines if line["type"] == "event"]
    assert seqs == list(range(1, len(seqs) + 1)), "each durable event once, in order"
    kinds = [e["type"] for e in events]  # type: ignore[index]
    for kind in ("GameStarted", "DeedBought", "AuctionWon", "CardDrawn", "SalaryPaid", "JailEntered",
                 "JailRollFailed", "JailLeft", "RentPaid", "DebtOpened", "DeedMortgaged", "DebtSettled",
                 "PlayerBankrupt", "GameEnded"):
        assert kind in kinds, kind
    rolls = [e for e in events if e["type"] == "DiceRolled"]  # type: ignore[index]
    assert len(rolls) == 16
    dice = [json.loads(row[0]) for row in sqlite3.connect(db).execute(
        "SELECT payload FROM commands WHERE type = 'RollDice'")]
    assert [(d["die1"], d["die2"]) for d in dice] == [(e["die1"], e["die2"]) for e in rolls]  # type: ignore[index]
    bankrupt = next(e for e in events if e["type"] == "PlayerBankrupt")  # type: ignore[index]
    assert (bankrupt["player"], bankrupt["creditor"]) == ("p2", "p1")  # type: ignore[index]
    ended = events[-1]
    assert ended["type"] == "GameEnded"  # type: ignore[index]
    standings = [(s["player"], s["rank"], s["total"]) for s in ended["standings"]]  # type: ignore[index]
    # Ana: 155 cash (165 less the 10 % fee on the mortgaged Reading Railroad) + 640 of deeds at their prices
    # + the Reading Railroad at its mortgage value 100
    assert standings == [("p1", 1, 895), ("p2", 2, 0)]
    rc, again, err = headless(db, "expect state over\nexpect phase over\nexpect position 2 28\n"
                                  "expect owner 21 1\nexpect balance 1 155\n")
    assert rc == 0, err
    assert again[0]["resumed"] is True and again[0]["state"] == "over"
    assert [line for line in again if line["type"] == "event"] == []
    resumed = [line for line in again if line["type"] == "expect"]
    assert len(resumed) == 5 and all(line["ok"] for line in resumed), resumed
