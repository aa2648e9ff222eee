"""``make run`` installs what running needs and no more; ``make test`` adds the test tools; ``make
screenshots`` works."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPS = ROOT / "scripts" / "install-system-deps.sh"
TEST_ONLY_APT = {"pcscd", "vsmartcard-vpcd", "socat", "graphviz", "shellcheck", "libpcsclite-dev", "pcsc-tools",
                 "xvfb", "xauth", "xdotool"}
TEST_ONLY_PIP = ("pytest", "hypothesis", "mypy", "ruff", "pyscard", "graphviz")

pytestmark = pytest.mark.timeout(240)


def make_n(target: str, venv: Path) -> str:
    done = subprocess.run(["make", "-n", target, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True,
                          timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def fake_venv(tmp_path: Path, *stamps: str) -> Path:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    for stamp in stamps:
        (venv / stamp).write_text("")
        os.utime(venv / stamp, (2**31, 2**31))  # newer than pyproject.toml and bin/python
    return venv


def test_make_run_installs_the_ui_extra_and_the_run_apt_list_only(tmp_path: Path) -> None:
    out = make_n("run", fake_venv(tmp_path))
    assert "pip install -q -e '.[ui]'" in out
    assert ".[dev]" not in out
    assert "install-system-deps.sh run" in out and "install-system-deps.sh test" not in out


def test_make_test_after_make_run_still_installs_the_test_tools(tmp_path: Path) -> None:
    out = make_n("test", fake_venv(tmp_path, ".stamp-run"))
    assert "pip install -q -e '.[dev]'" in out
    assert "install-system-deps.sh test" in out
    assert "pytest" in out and "ruff check" in out and "mypy --strict" in out
    assert "pip install" not in make_n("test", fake_venv(tmp_path / "again", ".stamp-test"))


def test_the_apt_lists_split_run_from_test() -> None:
    def listed(flag: str) -> set[str]:
        done = subprocess.run(["bash", str(DEPS), flag], capture_output=True, text=True, timeout=30, check=True)
        return set(done.stdout.split())

    run, test = listed("--list-run"), listed("--list-test")
    assert run & TEST_ONLY_APT == set()
    assert test >= TEST_ONLY_APT
    assert {"libgl1", "libegl1", "fonts-ipafont-gothic"} <= run
    bad = subprocess.run(["bash", str(DEPS), "everything"], capture_output=True, text=True, timeout=30, check=False)
    assert bad.returncode == 2 and "expected 'run' or 'test'" in bad.stderr


def test_the_ui_extra_has_no_test_tool() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert not [dep for dep in extras["ui"] if dep.lower().startswith(TEST_ONLY_PIP)]
    assert all(any(dep.lower().startswith(tool) for dep in extras["dev"]) for tool in TEST_ONLY_PIP)


@pytest.mark.ui
def test_make_screenshots_plays_the_game_at_800x480(tmp_path: Path) -> None:
    venv = Path(sys.executable).parent.parent
    shots = tmp_path / "shots"
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"))
    done = subprocess.run(["make", "-s", "-o", f"{venv}/.stamp-run", "screenshots", f"VENV={venv}", f"SHOTS={shots}"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=200, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    pngs = sorted(shots.glob("*.png"))
    assert len(pngs) > 50
    for png in (pngs[0], pngs[-1]):
        head = png.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (800, 480)
