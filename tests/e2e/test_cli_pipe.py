"""The command line behaves in a pipe: a reader that goes away early (``| head``) is no error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TAPS = Path(__file__).resolve().parents[1] / "engine" / "taps" / "whole_game.tap"


def test_headless_into_a_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    script = TAPS.read_text(encoding="utf-8")
    cmd = [sys.executable, "-m", "ui.cli", "headless", "--db", str(tmp_path / "bank.db")]
    with subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stdin is not None
        proc.stdout.readline()  # the first line only, then the reader goes away
        proc.stdout.close()
        try:
            proc.stdin.write(script.encode())
            proc.stdin.close()
        except BrokenPipeError:
            pass
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.wait(timeout=60)
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode == 0
