"""The command line a user types: --version, help with defaults, one error form, diagram on stdout."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from ui.cli.console import build_parser
from ui.cli.diagram import mermaid_source, stdout_source

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(120)


def boardbank(*args: str, cwd: Path = ROOT, tmp: Path | None = None,
              stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON")
    if tmp is not None:
        env["BOARDBANK_DB"] = str(tmp / "bb.sqlite3")
        env["KIVY_HOME"] = str(tmp / "kivy")
    return subprocess.run([BOARDBANK, *args], cwd=cwd, env=env, input=stdin, capture_output=True, text=True,
                          timeout=100, check=False)


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_version() -> None:
    done = boardbank("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"boardbank {version('boardbank')}"


def test_every_option_has_help_and_shows_its_default() -> None:
    for name, parser in subparsers().items():
        text = parser.format_help()
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"boardbank {name} {action.option_strings or action.dest}: no help"
            if action.default not in (None, False, [], argparse.SUPPRESS):
                shown = f"(default: {action.default})"
                assert shown in " ".join(text.split()), f"boardbank {name} {action.dest}: {shown} not in its help"


def test_sim_help_shows_its_100_games() -> None:
    done = boardbank("sim", "--help")
    assert done.returncode == 0
    assert "games to play (default: 100)" in done.stdout
    assert "(default: 4)" in done.stdout and "(default: ultimate-uk)" in done.stdout


def test_headless_help_tells_of_the_manual_clock() -> None:
    text = " ".join(boardbank("headless", "--help").stdout.split())
    assert "manual clock" in text and "wait SECONDS" in text and "stdin is piped" in text


@pytest.mark.parametrize(("args", "stdin"), [
    (["sim", "--players", "many"], ""),
    (["sim", "--edition", "monopoly-mars", "--games", "1"], ""),
    (["sim", "--option", "nope=1", "--games", "1"], ""),
    (["replay", "{tmp}/missing.sqlite3"], ""),
    (["export", "{tmp}/missing.sqlite3"], ""),
    (["export"], ""),
    (["cards", "enroll", "wizard", "1", "--uid", "04A1B2C3"], ""),
    (["cards", "shuffle"], ""),
    (["headless", "--option", "no-equals-sign"], ""),
    (["diagram", "--out", "{tmp}/a-file"], ""),
    (["backup", "{tmp}/a-file"], ""),
    (["restore", "{tmp}/missing.sqlite3"], ""),
    (["run", "--size", "big"], ""),
    (["doctor", "--db", "{tmp}/a-file", "--no-gl"], ""),
])
def test_one_error_form_for_every_command(tmp_path: Path, args: list[str], stdin: str) -> None:
    (tmp_path / "a-file").write_text("not a database\n", encoding="utf-8")
    (tmp_path / "bb.sqlite3").write_bytes(b"")  # an empty installation file: backup has a source
    args = [a.format(tmp=tmp_path) for a in args]
    done = boardbank(*args, tmp=tmp_path, stdin=stdin)
    assert done.returncode == 2, (args, done.stderr)
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"boardbank {args[0]}: "), (args, done.stderr)
    assert "error:" not in last and "Traceback" not in done.stderr


def test_an_unknown_sim_option_is_named_without_an_unrelated_hint() -> None:
    done = boardbank("sim", "--option", "nope=1", "--games", "1")
    assert done.returncode == 2
    assert done.stderr.startswith("boardbank sim: unknown rule option 'nope'")
    assert "max_players=" not in done.stderr and "more players" not in done.stderr


def test_too_many_players_still_get_the_max_players_hint() -> None:
    done = boardbank("sim", "--players", "6", "--games", "1")
    assert done.returncode == 2
    assert "max_players=6" in done.stderr


def test_diagram_without_out_prints_mermaid_and_writes_nothing(tmp_path: Path) -> None:
    done = boardbank("diagram", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == stdout_source("all")
    assert list(tmp_path.iterdir()) == []


def test_diagram_shows_both_rulesets_machines_or_the_one_asked(tmp_path: Path) -> None:
    """Each ruleset has its own banker machine: the classic one has Build, Ultimate's the Location."""
    both = boardbank("diagram", cwd=tmp_path).stdout
    assert both.count("stateDiagram-v2") == 2 and "%% ruleset: ultimate" in both and "%% ruleset: classic" in both
    classic = boardbank("diagram", "--ruleset", "classic", cwd=tmp_path)
    assert classic.returncode == 0 and classic.stdout == mermaid_source("classic")
    assert "press_build" in classic.stdout and "press_location" not in classic.stdout
    ultimate = boardbank("diagram", "--ruleset", "ultimate", cwd=tmp_path).stdout
    assert ultimate == mermaid_source("ultimate") and "press_location" in ultimate and "press_build" not in ultimate
    bad = boardbank("diagram", "--ruleset", "chess", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.strip().startswith("boardbank diagram: --ruleset")


def test_diagram_out_to_a_file_or_an_unwritable_place_is_one_line(tmp_path: Path) -> None:
    target = tmp_path / "banker.mmd"
    target.write_text("mine\n", encoding="utf-8")
    for out in (target, target / "sub"):
        done = boardbank("diagram", "--out", str(out), cwd=tmp_path)
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("boardbank diagram: "), done.stderr
        assert str(target) in lines[0]
    assert target.read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["banker.mmd"]


def test_diagram_checks_flows_md_before_writing_anything(tmp_path: Path) -> None:
    (tmp_path / "flows.md").write_text("no markers\n", encoding="utf-8")
    done = boardbank("diagram", "--out", str(tmp_path))
    assert done.returncode == 2 and done.stderr.startswith("boardbank diagram: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flows.md"]
