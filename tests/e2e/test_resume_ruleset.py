"""The saved game decides the ruleset: a restart of ``boardbank headless`` on a file whose latest game is a
classic one brings back the classic game, its edition, options and gestures, with no ``--edition``, with
``--edition ultimate-uk`` (said in one line, not obeyed) and with the kiosk's own arguments
(hardware/kiosk/boardbank.env); the other way round too. Setup chooses the game first: a table built for
one game starts the other's when the family picks its edition (docs/flows.md, "Choosing the game")."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
ROOT = Path(__file__).parents[2]
KIOSK_ENV = ROOT / "hardware" / "kiosk" / "boardbank.env"

CLASSIC_START = ["enroll 000000A1 player 1", "enroll 000000A2 player 2", "enroll 00000101 deed 1",
                 "enroll 00000102 deed 2", "tap 000000A1", "tap 000000A2", "press ok",
                 "tap 00000101", "tap 000000A1", "press ok", "tap 00000102", "tap 000000A1", "press ok"]
"""A classic-us game: player 1 buys Mediterranean and Baltic (the brown set, so a house may be built)."""
BUILD_A_HOUSE = ["press build", "tap 000000A1", "tap 00000101", "press ok", "expect level 1 1",
                 "expect balance 1 1330"]
"""The classic build gesture: a house on Mediterranean (50): 1500 - 60 - 60 - 50."""


def kiosk_args() -> list[str]:
    """The kiosk's ``BOARDBANK_ARGS`` without its readers (no bridge on this machine)."""
    line = next(x for x in KIOSK_ENV.read_text().splitlines() if x.startswith("BOARDBANK_ARGS="))
    args = shlex.split(shlex.split(line.partition("=")[2])[0])  # as the shell reads the file, then the unit
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("--reader", "--lang"):  # no bridge here; --lang is the run command's own (a screen)
            skip = True
        else:
            out.append(arg)
    return out


def headless(db: Path, lines: list[str], *extra: str) -> tuple[int, list[dict[str, object]], str]:
    proc = subprocess.run([BOARDBANK, "headless", "--db", str(db), *extra], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "BOARDBANK_DB": ""})
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def errors(lines: list[dict[str, object]]) -> list[dict[str, object]]:
    return [line for line in lines if line["type"] == "error"]


def test_the_kiosk_env_pins_no_edition() -> None:
    assert "--edition" not in KIOSK_ENV.read_text().partition("BOARDBANK_ARGS=")[2].splitlines()[0]


@pytest.mark.parametrize("restart", [[], ["--edition", "ultimate-uk"], ["--edition", "ultimate-ru"], "kiosk"],
                         ids=["no-edition", "ultimate-uk", "ultimate-ru", "kiosk-env"])
def test_a_classic_game_resumes_as_classic(tmp_path: Path, restart: list[str] | str) -> None:
    db = tmp_path / "bb.sqlite3"
    rc, first, err = headless(db, CLASSIC_START, "--edition", "classic-us")
    assert rc == 0 and not errors(first), (err, errors(first))
    args = kiosk_args() if restart == "kiosk" else list(restart)
    rc, lines, err = headless(db, BUILD_A_HOUSE, *args)
    assert rc == 0, err
    ready = lines[0]
    assert ready["type"] == "ready" and ready["resumed"] is True
    assert (ready["edition"], ready["ruleset"]) == ("classic-us", "classic")
    assert not errors(lines), errors(lines)  # press build is accepted: the classic gestures are back
    assert all(line["ok"] for line in lines if line["type"] == "expect")
    asked = args[args.index("--edition") + 1] if "--edition" in args else None
    if asked is not None and asked != "classic-us":  # said in one line, on stderr and in the ready line
        notice = [x for x in err.splitlines() if "--edition" in x]
        assert len(notice) == 1 and "classic-us" in notice[0] and asked in notice[0], err
        assert ready["notice"] == notice[0].removeprefix("boardbank headless: ")
    else:
        assert "notice" not in ready and "--edition" not in err


def test_an_ultimate_game_resumes_as_ultimate_and_the_next_game_is_the_asked_one(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    start = ["enroll 000000A1 player 1", "enroll 000000A2 player 2", "enroll 00000116 deed 16",
             "tap 000000A1", "tap 000000A2", "press ok", "tap 00000116", "tap 000000A1", "press ok"]
    rc, first, err = headless(db, start)
    assert rc == 0 and not errors(first), err
    rc, lines, err = headless(db, ["press build", "press location", "press cancel", "press menu",
                                   "press new_game", "press ok", "expect state setup", "expect edition classic-us",
                                   "tap 000000A1", "tap 000000A2", "press ok", "press build"],
                              "--edition", "classic-us")
    assert rc == 0, err
    assert (lines[0]["edition"], lines[0]["ruleset"]) == ("ultimate-uk", "ultimate")
    refused = errors(lines)
    assert [e["params"]["trigger"] for e in refused] == ["press_build"]  # type: ignore[index]
    assert all(line["ok"] for line in lines if line["type"] == "expect"), lines
    started = [line["event"] for line in lines if line["type"] == "event"
               and line["event"]["type"] == "GameStarted"]  # type: ignore[index]
    assert started and started[0]["edition"] == "classic-us"  # type: ignore[index]
    assert lines[-2]["type"] == "prompt" and lines[-2]["state"] == "action"  # the classic build gesture


def test_setup_chooses_the_other_game(tmp_path: Path) -> None:
    """A fresh file (ultimate-uk): the table picks Classic UK, sets a classic option, starts it, builds."""
    db = tmp_path / "bb.sqlite3"
    rc, lines, err = headless(db, [
        "enroll 000000A1 player 1", "enroll 000000A2 player 2", "tap 000000A1", "tap 000000A2",
        "choose option=location_fee:150",  # an Ultimate option: dropped with its game
        "choose edition=classic-uk", "expect edition classic-uk",
        "choose option=jail_fine:60", "expect option jail_fine 60",
        "choose option=location_fee:150", "expect error error.bad_option",
        "press ok", "press build"])
    assert rc == 0, err
    assert all(line["ok"] for line in lines if line["type"] == "expect"), lines
    assert [e["error"] for e in errors(lines)] == ["error.bad_option"]
    started = next(line["event"] for line in lines if line["type"] == "event"
                   and line["event"]["type"] == "GameStarted")  # type: ignore[index]
    assert started["edition"] == "classic-uk" and started["options"]["jail_fine"] == 60  # type: ignore[index]
    assert "location_fee" not in started["options"]  # type: ignore[operator]
    rc, again, err = headless(db, [])
    assert (again[0]["edition"], again[0]["ruleset"]) == ("classic-uk", "classic")


def test_the_docs_say_what_the_program_does() -> None:
    """README, docs/architecture.md and docs/flows.md: the classic gestures are in, the game is chosen in
    setup, and the saved game decides (no "next piece of work", no "classic/ coming")."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    flows = (ROOT / "docs" / "flows.md").read_text(encoding="utf-8")
    assert "next piece of work" not in readme and "Choosing the game" in readme and "saved game decides" in readme
    assert "coming" not in architecture and "names no ruleset" in architecture
    assert "## Choosing the game" in flows and "## The saved game decides" in flows


def test_a_game_being_registered_resumes_with_the_game_chosen(tmp_path: Path) -> None:
    """Quit while registering a classic game on a fresh file (whose new games are ultimate-uk): the restart
    comes back to the same setup, Classic UK chosen, and starts a classic game."""
    db = tmp_path / "bb.sqlite3"
    rc, first, err = headless(db, ["enroll 000000A1 player 1", "enroll 000000A2 player 2", "tap 000000A1",
                                   "tap 000000A2", "choose edition=classic-uk", "choose option=jail_fine:70"])
    assert rc == 0 and not errors(first), err
    rc, lines, err = headless(db, ["expect edition classic-uk", "expect option jail_fine 70", "press ok",
                                   "press build"])
    assert rc == 0, err
    assert (lines[0]["edition"], lines[0]["ruleset"], lines[0]["state"]) == ("classic-uk", "classic", "setup")
    assert not errors(lines) and all(line["ok"] for line in lines if line["type"] == "expect"), lines
