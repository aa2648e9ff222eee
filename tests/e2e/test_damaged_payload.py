"""A sound SQLite file whose event text was damaged (16 bytes, PRAGMA integrity_check still passes):
headless, replay and run refuse it naming the damaged record, and ``replay --salvage`` shows what is
intact before it (docs/architecture.md, section 4)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from engine.commands import PassGo, PlayerSpec, StartGame
from engine.editions import load_edition
from engine.store.durable import DurableGame
from engine.store.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
BOARDBANK = [sys.executable, "-m", "ui.cli"]


def _damaged(tmp: Path) -> Path:
    db = tmp / "bank.db"
    with Journal.open(db) as journal:
        durable = DurableGame.start(journal, load_edition("ultimate-uk"), StartGame((PlayerSpec("p1"), PlayerSpec("p2")), {}, 4))
        for player in ("p1", "p2", "p1"):
            durable.apply(PassGo(player))
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT payload FROM log WHERE number = 3").fetchone()
        raw = bytearray(text.encode())
        raw[30:46] = b"\xfe" * 16
        conn.execute("UPDATE log SET payload = CAST(? AS TEXT) WHERE number = 3", (bytes(raw),))
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    return db


def _run(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_WINDOW="sdl2", KIVY_LOG_MODE="PYTHON",
               KIVY_HOME=str(tmp / "kivy"), BOARDBANK_DB="")
    return subprocess.run([*BOARDBANK, *args], cwd=ROOT, env=env, input="", capture_output=True, text=True,
                          timeout=120, check=False)


def _digest(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


def test_headless_and_replay_refuse_it_naming_the_record(tmp_path: Path) -> None:
    db = _damaged(tmp_path)
    before = _digest(db)
    for args in (["headless", "--db", str(db)], ["run", "--db", str(db)], ["replay", str(db)], ["export", str(db)]):
        done = _run(args, tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr and "command 3 (events from seq 3) is damaged" in done.stderr, done.stderr
        assert "not valid UTF-8" in done.stderr
    assert _digest(db) == before


def test_replay_salvage_shows_what_is_intact(tmp_path: Path) -> None:
    db = _damaged(tmp_path)
    done = _run(["replay", str(db), "--salvage", "--json"], tmp_path)
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["salvage"]["intact_events"] == 2 and "command 3" in state["salvage"]["damaged"]
    assert {p["id"]: p["balance"] for p in state["players"]} == {"p1": 1700, "p2": 1500}
    assert "2 events are intact before the damage" in done.stderr
