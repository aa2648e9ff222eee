"""``boardbank run --script --screenshots`` and ``boardbank doctor`` as a user runs them (subprocesses:
each gets its own Kivy window)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import doctor

BOARDBANK = [sys.executable, "-m", "ui.cli"]
ROOT = Path(__file__).resolve().parents[2]
SHORT = """\
# source: docs/rules.md 1.3 (register, start with M1500), 1.9 (buy at the printed price)
card 0A0B0C01 player 1
card 0A0B0C02 player 2
card 0D0E0F16 deed 16
tap 0A0B0C01
tap 0A0B0C02
press ok
tap 0D0E0F16
tap 0A0B0C01
press ok
expect balance 1 1240
expect owner 16 1
"""


def run(args: list[str], tmp: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_WINDOW="sdl2",
               KIVY_HOME=str(tmp / "kivy"), KIVY_LOG_MODE="PYTHON", BOARDBANK_DB=str(tmp / "bb.sqlite3"))
    return subprocess.run([*BOARDBANK, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.ui
@pytest.mark.parametrize(("size", "lang"), [((800, 480), "ro"), ((1920, 1080), "ja")])
def test_a_script_is_played_with_a_screenshot_per_step(tmp_path: Path, size: tuple[int, int], lang: str) -> None:
    script = tmp_path / "short.tap"
    script.write_text(SHORT, encoding="utf-8")
    shots = tmp_path / "shots"
    done = run(["run", "--script", str(script), "--screenshots", str(shots), "--size", f"{size[0]}x{size[1]}",
                "--lang", lang], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    names = sorted(p.name for p in shots.iterdir())
    assert names == ["001-card.png", "002-card.png", "003-card.png", "004-tap.png", "005-tap.png",
                     "006-press.png", "007-tap.png", "008-tap.png", "009-press.png"]
    assert all(png_size(shots / n) == size for n in names)


@pytest.mark.ui
def test_a_restart_resumes_the_game(tmp_path: Path) -> None:
    first = tmp_path / "first.tap"
    first.write_text(SHORT, encoding="utf-8")
    assert run(["run", "--script", str(first)], tmp_path).returncode == 0
    again = tmp_path / "again.tap"
    again.write_text("expect balance 1 1240\nexpect owner 16 1\nexpect phase play\n", encoding="utf-8")
    done = run(["run", "--script", str(again)], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.ui
def test_a_failed_expectation_exits_1(tmp_path: Path) -> None:
    script = tmp_path / "wrong.tap"
    script.write_text(SHORT.replace("expect balance 1 1240", "expect balance 1 999"), encoding="utf-8")
    done = run(["run", "--script", str(script)], tmp_path)
    assert done.returncode == 1
    assert "expected balance 1 999" in done.stderr


def test_screenshots_need_a_script(tmp_path: Path) -> None:
    done = run(["run", "--screenshots", str(tmp_path)], tmp_path)
    assert done.returncode == 2
    assert "--screenshots needs --script" in done.stderr


def test_the_language_defaults_to_the_editions() -> None:
    from types import SimpleNamespace

    from ui.touch.app import choose_language

    assert choose_language(None, SimpleNamespace(language="ru")) == "ru"
    assert choose_language("ja", SimpleNamespace(language="ru")) == "ja"
    assert choose_language(None, SimpleNamespace(language="de")) == "en"
    assert choose_language(None, None) == "en"


def test_a_bad_size_is_refused(tmp_path: Path) -> None:
    done = run(["run", "--size", "big"], tmp_path)
    assert done.returncode == 2
    assert "WIDTHxHEIGHT" in done.stderr


def test_doctor_checks_the_kiosk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    monkeypatch.setenv("DISPLAY", ":0")
    assert doctor.check_display().status == doctor.OK
    args = argparse.Namespace(db=str(tmp_path / "bb.sqlite3"), json=False, no_gl=True, reader=None)
    failed = any(c.status == doctor.FAIL for c in doctor.run_checks(args))
    status = doctor.main(args)
    out = capsys.readouterr().out
    for name in ("reader back-ends", "pcscd", "fonts", "sound", "display", "journal", "pin"):
        assert name in out
    assert status == (1 if failed else 0)
