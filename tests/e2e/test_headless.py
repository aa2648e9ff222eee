"""``boardbank headless`` replays tap scripts from a pipe; every durable event is printed exactly once,
only after it is on disk, and a restart with the same database resumes the game."""

from __future__ import annotations

import argparse
import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from ui.cli.headless import Headless
from ui.compose import build

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
TAPS = Path(__file__).parents[1] / "engine" / "taps"


def headless(db: Path, text: str) -> tuple[int, list[dict[str, object]], str]:
    proc = subprocess.run([BOARDBANK, "headless", "--db", str(db)], input=text, capture_output=True,
                          text=True, timeout=120, check=False, env={**os.environ, "BOARDBANK_DB": ""})
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def events(lines: list[dict[str, object]]) -> list[dict[str, object]]:
    return [line for line in lines if line["type"] == "event"]


def test_whole_game_script_through_a_pipe_then_resume(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    rc, lines, err = headless(db, (TAPS / "whole_game.tap").read_text())
    assert rc == 0, err
    expects = [line for line in lines if line["type"] == "expect"]
    assert expects and all(line["ok"] for line in expects), [e for e in expects if not e["ok"]]
    seqs = [e["seq"] for e in events(lines)]
    assert seqs == list(range(1, len(seqs) + 1)), "each durable event once, in order"
    assert lines[0]["type"] == "ready" and lines[0]["resumed"] is False
    assert any(e["event"]["type"] == "GameEnded" for e in events(lines))  # type: ignore[index]
    # every printed event is the journal's
    stored = sqlite3.connect(db).execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert stored == len(seqs)
    # a restart resumes where the last durable event left it, and prints nothing twice
    rc, again, err = headless(db, "expect state over\nexpect phase over\nexpect owner 16 3\n")
    assert rc == 0, err
    assert again[0]["resumed"] is True and again[0]["seq"] == seqs[-1] and again[0]["state"] == "over"
    assert events(again) == []


def test_restart_mid_game_continues_the_sequence(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    setup = "\n".join(["enroll 000000A1 player 1", "enroll 000000A2 player 2", "enroll 00000116 deed 16",
                       "tap 000000A1", "tap 000000A2", "press ok", "tap 00000116", "tap 000000A1", "press ok"])
    rc, first, err = headless(db, setup + "\n")
    assert rc == 0, err
    first_seqs = [e["seq"] for e in events(first)]
    rc, second, err = headless(db, "tap 00000116\ntap 000000A2\nexpect balance 2 1300\nexpect level 16 2\n")
    assert rc == 0, err
    second_seqs = [e["seq"] for e in events(second)]
    assert second_seqs[0] == first_seqs[-1] + 1
    assert len(set(first_seqs + second_seqs)) == len(first_seqs + second_seqs)


def test_bad_lines_and_failed_expectations(tmp_path: Path) -> None:
    rc, lines, _ = headless(tmp_path / "bb.sqlite3", "jump 3\nenroll nothex player 1\ntap DEADBEEF\nexpect state idle\n")
    kinds = [(line["type"], line.get("error")) for line in lines]
    assert ("error", "error.bad_line") in kinds and ("error", "error.enroll") in kinds
    assert ("error", "error.unknown_card") in kinds
    assert rc == 1  # the expectation failed: still in setup


class _Checking(io.StringIO):
    """An output stream that checks every printed event is already in the journal on disk."""

    def __init__(self, db: Path) -> None:
        super().__init__()
        self.db = db
        self.checked = 0

    def write(self, s: str) -> int:
        for line in s.splitlines():
            obj = json.loads(line)
            if obj["type"] == "event":
                with sqlite3.connect(self.db) as other:
                    row = other.execute("SELECT COUNT(*) FROM events WHERE seq = ?", (obj["seq"],)).fetchone()
                assert row[0] == 1, f"event {obj['seq']} printed before it was on disk"
                self.checked += 1
        return super().write(s)


def test_events_are_printed_only_after_they_are_on_disk(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    args = argparse.Namespace(db=str(db), reader=None, edition=None, option=[])
    built = build(args, default_readers=[], manual_clock=True)
    out = _Checking(db)
    try:
        rc = Headless(built, out).run(io.StringIO((TAPS / "auction.tap").read_text()))
    finally:
        built.close()
    assert rc == 0
    assert out.checked >= 8


def test_reader_taps_feed_the_same_banker(tmp_path: Path) -> None:
    import queue
    import threading

    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        [BOARDBANK, "headless", "--db", str(tmp_path / "bb.sqlite3"), "--reader", f"stdin://?fd={read_fd}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, pass_fds=(read_fd,))
    os.close(read_fd)
    lines: queue.Queue[dict[str, object]] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(json.loads(line))

    threading.Thread(target=pump, daemon=True).start()

    def wait_for(pred) -> dict[str, object]:  # type: ignore[no-untyped-def]
        while True:
            obj = lines.get(timeout=20)
            if pred(obj):
                return obj

    try:
        assert proc.stdin is not None
        proc.stdin.write("enroll 000000A1 player 1\nenroll 000000A2 player 2\n")
        proc.stdin.flush()
        wait_for(lambda o: o["type"] == "enrolled" and o["value"] == 2)
        os.write(write_fd, b"tap 000000A1\n")
        wait_for(lambda o: o["type"] == "prompt" and o["params"] == {"seated": 1})
        os.write(write_fd, b"tap 00:00:00:A2\n")
        wait_for(lambda o: o["type"] == "prompt" and o["params"] == {"seated": 2})
        proc.stdin.write("press ok\n")
        proc.stdin.flush()
        started = wait_for(lambda o: o["type"] == "event")
        assert started["event"]["type"] == "GameStarted"  # type: ignore[index]
        proc.stdin.close()
        wait_for(lambda o: o["type"] == "bye")
        assert proc.wait(timeout=20) == 0
    finally:
        os.close(write_fd)
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def test_a_piped_script_gets_a_deterministic_clock(tmp_path: Path) -> None:
    # check_deed.tap waits 9.5 s and expects the deed still shown: only `wait` may move the clock
    rc, lines, err = headless(tmp_path / "bb.sqlite3", (TAPS / "check_deed.tap").read_text())
    assert rc == 0, (err, [line for line in lines if line["type"] == "expect" and not line["ok"]])


def test_clock_choice() -> None:
    from ui.cli.headless import manual_clock_wanted

    piped = io.StringIO("")
    assert manual_clock_wanted(argparse.Namespace(reader=None), piped) is True
    assert manual_clock_wanted(argparse.Namespace(reader=["mock://"]), piped) is False
    os.environ["BOARDBANK_CLOCK"] = "real"
    try:
        assert manual_clock_wanted(argparse.Namespace(reader=None), piped) is False
    finally:
        del os.environ["BOARDBANK_CLOCK"]


def test_the_db_comes_from_the_environment_when_not_given(tmp_path: Path) -> None:
    db = tmp_path / "env" / "bb.sqlite3"
    db.parent.mkdir()  # a folder named in $BOARDBANK_DB must exist: a typo never creates a folder tree
    proc = subprocess.run([BOARDBANK, "headless"], input="", capture_output=True, text=True, timeout=60,
                          check=False, env={**os.environ, "BOARDBANK_DB": str(db)})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["db"] == str(db) and db.exists()


def test_the_table_s_choices_through_a_pipe(tmp_path: Path) -> None:
    """Names with spaces, a colour, an option and the edition, answered on stdin, are in GameStarted."""
    db = tmp_path / "bb.sqlite3"
    script = "\n".join(["enroll 000000A1 player 1", "enroll 000000A2 player 2", "tap 000000A1", "tap 000000A2",
                        "choose name=1:Ana María", "choose name=2:山田 太郎", "choose token=2:black",
                        "choose option=go_salary:250", "choose edition=ultimate-ru", "choose token=1:black",
                        "expect error error.token_taken", "press ok", "expect name 1 Ana María",
                        "expect edition ultimate-ru", "expect option go_salary 250"])
    rc, lines, err = headless(db, script + "\n")
    assert rc == 0, err
    expects = [line for line in lines if line["type"] == "expect"]
    assert len(expects) == 4 and all(line["ok"] for line in expects), expects
    started = next(e["event"] for e in events(lines) if e["event"]["type"] == "GameStarted")  # type: ignore[index]
    assert started["edition"] == "ultimate-ru"  # type: ignore[index]
    assert [(p["name"], p["token"]) for p in started["players"]] == [  # type: ignore[index]
        ("Ana María", "red"), ("山田 太郎", "black")]
    assert started["options"]["go_salary"] == 250  # type: ignore[index]
