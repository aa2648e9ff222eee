"""The installation's file is never touched by what should not touch it (docs/architecture.md, section 4).

A scripted run (the README's screenshot command) plays on a temporary file unless ``--db`` is given; a bad
``--edition`` or a ``--db`` in a folder that does not exist is refused before anything is written.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.commands import PlayerSpec, StartGame
from engine.editions import load_edition
from engine.store.durable import DurableGame
from engine.store.journal import Journal
from reader.registry import CardRegistry

ROOT = Path(__file__).resolve().parents[2]
BOARDBANK = [sys.executable, "-m", "ui.cli"]
SCRIPT = """\
# source: docs/rules.md 1.3 (register with the bank cards, then start)
card 0A0B0C01 player 1
card 0A0B0C02 player 2
tap 0A0B0C01
tap 0A0B0C02
press ok
expect balance 1 1500
"""


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "BOARDBANK_DB"}
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_WINDOW="sdl2", KIVY_HOME=str(tmp / "kivy"),
               KIVY_LOG_MODE="PYTHON", XDG_DATA_HOME=str(tmp / "xdg"), HOME=str(tmp / "home"), **extra)
    return env


def _run(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BOARDBANK, *args], cwd=ROOT, env=env, input=stdin, capture_output=True, text=True,
                          timeout=180, check=False)


def _family_file(path: Path) -> str:
    """An installation file with an enrolled bank card and a game in progress; returns its digest."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with Journal.open(path) as journal:
        DurableGame.start(journal, load_edition("ultimate-uk"), StartGame((PlayerSpec("p1"), PlayerSpec("p2")), {}, 5))
    registry = CardRegistry.open(path)
    registry.enroll("04A22B1C", "player", 1)
    registry.close()
    return _digest(path)


def _digest(path: Path) -> str:
    """The file and its WAL, as bytes on disk."""
    parts = [p.read_bytes() for p in (path, Path(f"{path}-wal")) if p.exists()]
    return hashlib.sha256(b"|".join(parts)).hexdigest()


@pytest.mark.ui
def test_a_script_without_db_leaves_the_installation_file_alone(tmp_path: Path) -> None:
    env = _env(tmp_path)
    installed = tmp_path / "xdg" / "boardbank" / "boardbank.sqlite3"  # platformdirs' data folder
    before = _family_file(installed)
    script = tmp_path / "s.tap"
    script.write_text(SCRIPT, encoding="utf-8")
    done = _run(["run", "--script", str(script), "--screenshots", str(tmp_path / "shots"), "--size", "800x480"], env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _digest(installed) == before
    registry = CardRegistry.open(installed)
    assert [(c.uid, c.kind, c.value) for c in registry.cards()] == [("04A22B1C", "player", 1)]
    registry.close()
    assert len(list((tmp_path / "shots").iterdir())) == 5  # a screenshot per card, tap and press


@pytest.mark.ui
def test_screenshots_into_a_file_is_one_clear_line(tmp_path: Path) -> None:
    script = tmp_path / "s.tap"
    script.write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "taken").write_text("x", encoding="utf-8")
    done = _run(["run", "--script", str(script), "--screenshots", str(tmp_path / "taken")], _env(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"boardbank run: --screenshots {tmp_path / 'taken'}: "
                                                "expected a folder, this is a file"]


@pytest.mark.parametrize("command", ["headless", "run"])
def test_an_unknown_edition_writes_nothing(tmp_path: Path, command: str) -> None:
    db = tmp_path / "bank.db"
    done = _run([command, "--edition", "nowhere", "--db", str(db)], _env(tmp_path))
    assert done.returncode == 2
    assert "unknown edition 'nowhere'" in done.stderr and "Traceback" not in done.stderr
    assert not db.exists() and sorted(p.name for p in tmp_path.iterdir() if p.name != "kivy") == []


def test_a_refused_option_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "bank.db"
    done = _run(["headless", "--option", "max_players=99", "--db", str(db)], _env(tmp_path))
    assert done.returncode == 2 and "max_players expects 2..8" in done.stderr
    assert not db.exists()


def test_a_db_in_a_missing_folder_is_refused_and_no_folder_is_made(tmp_path: Path) -> None:
    db = tmp_path / "no" / "such" / "folder" / "bank.db"
    done = _run(["headless", "--db", str(db)], _env(tmp_path))
    assert done.returncode == 2
    assert f"the folder {db.parent} does not exist" in done.stderr
    assert not (tmp_path / "no").exists()
    env = _env(tmp_path, BOARDBANK_DB=str(db))  # the same through the environment
    assert _run(["headless"], env).returncode == 2 and not (tmp_path / "no").exists()


def test_a_classic_edition_is_banked_at_the_table(tmp_path: Path) -> None:
    """The classic editions have their gestures at the table (docs/flows.md, "The classic game";
    docs/rules-classic.md 1): ``boardbank headless --edition classic-us`` registers two players and starts."""
    db = tmp_path / "bank.db"
    lines = "card 000000A1 player 1\ncard 000000A2 player 2\ntap 000000A1\ntap 000000A2\npress ok\n" \
            "expect state idle\nexpect edition classic-us\nexpect balance 1 1500\n"
    done = _run(["headless", "--edition", "classic-us", "--db", str(db)], _env(tmp_path), stdin=lines)
    assert done.returncode == 0, done.stderr
    assert '"ok": false' not in done.stdout and '"GameStarted"' in done.stdout and db.exists()


def test_setup_offers_the_editions_of_both_games(tmp_path: Path) -> None:
    """A table built for Ultimate Banking may choose the classic game (docs/flows.md, "Choosing the game");
    an unknown edition is refused with the list of both games' editions and changes nothing."""
    lines = "\n".join(["choose edition=monopoly-mars", "expect edition ultimate-uk",
                       "choose edition=classic-us", "expect edition classic-us"]) + "\n"
    done = _run(["headless", "--db", str(tmp_path / "bank.db")], _env(tmp_path), stdin=lines)
    assert done.returncode == 0, done.stderr
    refused = [line for line in done.stdout.splitlines() if '"error.bad_edition"' in line]
    assert len(refused) == 1
    assert '"expected": "ultimate-ru, ultimate-uk, ultimate-us, classic-ru, classic-uk, classic-us"' in refused[0]
    assert '{"line": 4, "ok": true, "type": "expect"}' in done.stdout
