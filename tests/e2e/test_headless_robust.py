"""``boardbank headless`` under bad bytes and resent lines: every output line is valid UTF-8 JSON, bad
lines are refused one by one, and a line whose id is known is answered, never applied twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
SETUP = b"enroll 000000A1 player 1\nenroll 000000A2 player 2\nenroll 00000116 deed 16\n"


def run(db: Path, data: bytes) -> tuple[int, list[dict[str, object]], str]:
    proc = subprocess.run([BOARDBANK, "headless", "--db", str(db)], input=data, capture_output=True, timeout=120,
                          check=False, env={**os.environ, "BOARDBANK_DB": "", "LC_ALL": "C", "PYTHONIOENCODING": ""})
    lines = [json.loads(line.decode("utf-8")) for line in proc.stdout.splitlines()]  # UTF-8 JSON, each
    return proc.returncode, lines, proc.stderr.decode("utf-8", "replace")


def test_invalid_bytes_nul_and_long_lines_give_valid_json_and_change_nothing(tmp_path: Path) -> None:
    data = (SETUP + b"tap \xff\ntap 000000A1\x00\ntap \xc3\x28\nchoose name=1:\xed\xa0\x80\n"
            + b"tap " + b"A" * 1_000_000 + b"\n" + b'{"line": "tap \\ud800"}\n' + b"press \x1b[2J\n"
            + "choose name=1:Zoë\nwait nan\nexpect state setup\n".encode())
    rc, lines, err = run(tmp_path / "bb.sqlite3", data)
    assert rc == 0, err
    assert "Traceback" not in err
    bad = [line for line in lines if line.get("error") == "error.bad_line"]
    assert len(bad) == 8, bad
    assert all(len(json.dumps(line)) < 400 for line in bad)
    assert not [line for line in lines if line["type"] == "event" or line.get("cue") in ("tap", "ok")]
    assert [line["ok"] for line in lines if line["type"] == "expect"] == [True]


def test_ids_are_echoed_and_a_resent_line_is_answered_from_the_journal(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    gesture = (b"id=a1 tap 000000A1\nid=a2 tap 000000A2\nid=a3 press ok\n"
               b'{"id": "b1", "line": "tap 00000116"}\nid=b2 tap 000000A1\nid=b3 press ok\n')
    rc, first, err = run(db, SETUP + gesture)
    assert rc == 0, err
    events = [line for line in first if line["type"] == "event"]
    assert events and {line["id"] for line in events} == {"a3", "b3"}
    prompts = [line for line in first if line["type"] == "prompt"]
    assert [p["id"] for p in prompts] == ["a1", "a2", "a3", "b1", "b2", "b3"]
    assert first[0]["type"] == "ready" and first[0]["prompt"] == {"key": "prompt.setup", "params": {"seated": 0}}
    # a driver that crashed resends everything, to a restarted unit: nothing is applied twice
    rc, again, err = run(db, gesture + b"id=c1 expect level 16 1\nid=c2 expect balance 1 1240\n")
    assert rc == 0, err
    assert again[0]["resumed"] is True and again[0]["state"] == "idle"
    dups = [line for line in again if line["type"] == "duplicate"]
    assert [d["id"] for d in dups] == ["a1", "a2", "a3", "b1", "b2", "b3"]
    replayed = [line for line in again if line["type"] == "event"]
    assert replayed and all(line.get("replayed") is True for line in replayed)
    assert [line["seq"] for line in replayed] == [line["seq"] for line in events]
    assert [line["ok"] for line in again if line["type"] == "expect"] == [True, True]
    assert [line["id"] for line in again if line["type"] == "expect"] == ["c1", "c2"]


def test_bad_ids_are_refused(tmp_path: Path) -> None:
    data = SETUP + ("id= tap 000000A1\nid=" + "x" * 65 + " tap 000000A1\n"
                    '{"id": true, "line": "tap 000000A1"}\n{"id": "1", "line": 5}\n[1]\n{bad\n'
                    '{"id": "1", "line": "tap 000000A1", "x": 1}\nid=é tap 000000A1\n').encode()
    rc, lines, err = run(tmp_path / "bb.sqlite3", data)
    assert rc == 0, err
    assert len([line for line in lines if line.get("error") == "error.bad_line"]) == 8
    assert not [line for line in lines if line["type"] == "cue"]  # not one of them was played
