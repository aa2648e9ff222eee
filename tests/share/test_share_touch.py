"""``boardbank run --share``: the QR code on the unit's screen (the banker menu, and the table's corner)
decodes to the live page's URL; the code is drawn from segno's matrix without Pillow."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ui.share.qr import qr_rows, rgba_bytes

ROOT = Path(__file__).resolve().parents[2]
MENU = """card 000000A1 player 1
card 000000A2 player 2
tap 000000A1
tap 000000A2
press ok
card 00000103 deed 3
tap 00000103
tap 000000A1
press ok
press menu
"""


def test_the_code_is_the_urls_matrix_in_texture_order() -> None:
    url = "http://192.168.1.20:8024/GIBHHCDVB6NK7CO37BJQF3EX3Y/"
    rows = qr_rows(url)
    assert len(rows) == len(rows[0]) == 29 + 2 * 2  # version 3 in alphanumeric mode, a 2-module border
    data = rgba_bytes(rows)
    assert len(data) == len(rows) ** 2 * 4
    top_left = (len(rows) - 1 - 2) * len(rows) * 4 + 2 * 4  # the finder's corner, bottom row first
    assert data[top_left:top_left + 4] == b"\x00\x00\x00\xff"
    assert data[:4] == b"\xff\xff\xff\xff"  # the light border
    lower = qr_rows("http://[fe80::1]:8024/abc/")  # a path that is not upper case stays as it is
    assert lower and lower != rows


@pytest.mark.ui
def test_run_share_shows_a_code_that_decodes_to_the_page(tmp_path: Path) -> None:
    script = tmp_path / "menu.tap"
    script.write_text(MENU)
    shots = tmp_path / "shots"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_HOME": str(tmp_path / "kivy"),
           "BOARDBANK_DB": str(tmp_path / "b.sqlite3")}
    done = subprocess.run([sys.executable, "-m", "ui.cli", "run", "--share", "127.0.0.1:0", "--size", "800x480",
                           "--script", str(script), "--screenshots", str(shots)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    url = next(line.split(": ")[-1] for line in done.stderr.splitlines() if "the table on every phone" in line)
    assert url.startswith("http://127.0.0.1:") and url.endswith("/")
    pictures = sorted(shots.glob("*.png"))
    table, menu = pictures[-2], pictures[-1]
    if shutil.which("zbarimg") is None:  # `make test` installs it (the test apt list): in CI never a skip
        if os.environ.get("CI"):
            pytest.fail("no zbarimg in CI: scripts/install-system-deps.sh test installs zbar-tools")
        pytest.skip("no zbarimg to read the codes (Debian: apt-get install zbar-tools)")
    for picture in (table, menu):
        read = subprocess.run(["zbarimg", "-q", "--raw", str(picture)], capture_output=True, text=True, timeout=60)
        assert read.stdout.strip().lower() == url.lower(), picture.name
