"""Every command of the command line on a file with a classic game, and on one with both kinds of game:
``replay`` (table, ``--json``, ``--salvage``), ``export`` (JSON lines, CSV), ``doctor``'s journal check,
``cards list``, ``sim`` and ``diagram`` (tests/cli/test_console.py), and ``--help`` listing every edition."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.editions import list_editions, load_edition
from engine.game import Game
from engine.rulesets.registry import get_ruleset
from engine.store.durable import DurableGame
from engine.store.journal import Journal

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))


def _play(journal: Journal, edition_id: str, seed: int, turn_cap: int) -> DurableGame:
    """A bots' game of ``edition_id`` (its ruleset's runner), journaled command by command."""
    edition = load_edition(edition_id)
    gid = journal.create_game(edition.id, seed, {})
    durable = DurableGame(journal, gid, Game(edition))
    get_ruleset(edition.ruleset).runner(edition, 3, seed, game=durable.game, apply=durable.apply,
                                        turn_cap=turn_cap).play()
    return durable


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``classic``: one classic-us game stopped mid-game; ``both``: an Ultimate game, then a classic-ru one."""
    root = tmp_path_factory.mktemp("files")
    out = {"classic": root / "classic.sqlite3", "both": root / "both.sqlite3"}
    with Journal.open(out["classic"]) as journal:
        _play(journal, "classic-us", 5, 30)
    with Journal.open(out["both"]) as journal:
        _play(journal, "ultimate-uk", 3, 2000)
        _play(journal, "classic-ru", 7, 60)
    return out


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOARDBANK, *args], capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "BOARDBANK_DB": ""})


@pytest.mark.parametrize("extra", [[], ["--json"], ["--salvage"], ["--salvage", "--json"]])
def test_replay_a_classic_game(files: dict[str, Path], extra: list[str]) -> None:
    done = run("replay", str(files["classic"]), *extra)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    if "--json" in extra:
        state = json.loads(done.stdout)
        assert (state["edition"], state["ruleset"]) == ("classic-us", "classic")
        assert len(state["deeds"]) == 28 and len(state["players"]) == 3
        owned = [d for d in state["deeds"] if d["owner"]]
        assert owned and all(0 <= d["level"] <= 5 and isinstance(d["mortgaged"], bool) for d in owned)
        assert all(p["wealth"] >= p["balance"] for p in state["players"])
    else:
        assert done.stdout.startswith("game 1 (classic-us, classic)") and "rank player" in done.stdout


def test_replay_each_game_of_a_file_with_both(files: dict[str, Path]) -> None:
    first = json.loads(run("replay", str(files["both"]), "--game", "1", "--json").stdout)
    latest = json.loads(run("replay", str(files["both"]), "--json").stdout)
    assert (first["ruleset"], first["status"], len(first["deeds"])) == ("ultimate", "over", 22)
    assert (latest["game"], latest["edition"], latest["ruleset"]) == (2, "classic-ru", "classic")


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_export_a_classic_game(files: dict[str, Path], fmt: str) -> None:
    for db, game in ((files["classic"], "1"), (files["both"], "2"), (files["both"], "1")):
        done = run("export", str(db), "--game", game, "--format", fmt)
        assert done.returncode == 0 and done.stdout, done.stderr
    lines = run("export", str(files["both"]), "--format", "jsonl").stdout.splitlines()
    started = next(json.loads(x) for x in lines if '"GameStarted"' in x)
    assert started["edition"] == "classic-ru"


def test_doctor_checks_a_file_with_both_kinds_of_game(files: dict[str, Path]) -> None:
    for db in files.values():
        done = run("doctor", "--db", str(db), "--no-gl", "--json")
        assert "Traceback" not in done.stderr, done.stderr
        checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
        assert checks["journal"]["status"] == "pass", checks["journal"]


def test_cards_list_and_sim_on_the_classic_game(files: dict[str, Path]) -> None:
    assert run("cards", "list", "--db", str(files["both"])).returncode == 0
    for edition in ("classic-us", "classic-uk", "classic-ru"):
        done = run("sim", "--edition", edition, "--games", "2", "--players", "3", "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["games"] == 2


@pytest.mark.parametrize("command", ["run", "headless", "sim"])
def test_help_lists_every_edition_of_both_rulesets(command: str) -> None:
    text = " ".join(run(command, "--help").stdout.split())
    for edition in list_editions():
        assert edition in text, (command, edition)
    assert "(classic)" in text and "(ultimate)" in text
