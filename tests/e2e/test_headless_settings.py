"""``boardbank headless`` keeps the banker's settings across a restart: a PIN and a gesture timeout changed
(and confirmed) in the banker menu are in force after a restart with the same ``--db``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))


def headless(db: Path, lines: list[str]) -> list[dict[str, object]]:
    proc = subprocess.run([BOARDBANK, "headless", "--db", str(db)], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "BOARDBANK_DB": "", "BOARDBANK_CLOCK": "manual"})
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_pin_and_timeout_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    headless(db, ["enroll 000000A1 player 1", "enroll 000000A2 player 2", "enroll 00000105 deed 5",
                  "press menu", "expect state menu", "press settings",  # no PIN until one is set
                  "choose timeout_s=3", "choose pin=4321", "press ok", "expect state menu", "press cancel",
                  "tap 000000A1", "tap 000000A2", "press ok", "expect state idle"])
    lines = headless(db, ["press menu", "choose 1234", "expect error error.bad_pin", "expect state pin",
                          "choose 4321", "expect state menu", "press cancel",
                          "tap 00000105", "expect state deed", "wait 3", "expect state idle"])
    assert lines[0]["type"] == "ready" and lines[0]["resumed"] is True
    expects = [line for line in lines if line["type"] == "expect"]
    assert len(expects) == 5 and all(line["ok"] for line in expects), expects


def test_settings_left_without_confirming_are_not_kept(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    headless(db, ["press menu", "press settings", "choose pin=4321", "press cancel"])
    lines = headless(db, ["press menu", "expect state menu"])  # the PIN was never set
    assert [line["ok"] for line in lines if line["type"] == "expect"] == [True]
