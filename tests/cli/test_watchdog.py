"""ui/watchdog.py: systemd's notify protocol, and the Kivy app's READY=1 and watchdog pings."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ui.watchdog import notify, start_heartbeat, watchdog_interval_s

ROOT = Path(__file__).resolve().parents[2]


def listener(path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    return sock


def test_notify_sends_one_datagram_to_the_socket(tmp_path: Path) -> None:
    path = str(tmp_path / "notify")
    with listener(path) as sock:
        assert notify("READY=1", {"NOTIFY_SOCKET": path}) is True
        assert sock.recv(4096) == b"READY=1"


def test_notify_to_an_abstract_socket() -> None:
    name = f"boardbank-test-{os.getpid()}"
    with listener("\0" + name) as sock:
        assert notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_notify_without_systemd_or_with_a_dead_socket_is_false(tmp_path: Path) -> None:
    assert notify("READY=1", {}) is False
    assert notify("READY=1", {"NOTIFY_SOCKET": "relative/path"}) is False
    assert notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")}) is False


def test_the_watchdog_interval_is_half_the_period() -> None:
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval_s({}) is None
    assert watchdog_interval_s({"WATCHDOG_USEC": "soon"}) is None
    assert watchdog_interval_s({"WATCHDOG_USEC": "0"}) is None


def test_the_heartbeat_says_ready_then_pings(tmp_path: Path) -> None:
    path = str(tmp_path / "notify")
    scheduled = []
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"}
    with listener(path) as sock:
        assert start_heartbeat(lambda cb, seconds: scheduled.append((cb, seconds)), env)
        assert sock.recv(4096) == b"READY=1"
        [(ping, seconds)] = scheduled
        assert seconds == 1.0
        ping(1.0)
        assert sock.recv(4096) == b"WATCHDOG=1"
    assert start_heartbeat(lambda cb, s: scheduled.append((cb, s)), {}) is False
    assert len(scheduled) == 1


@pytest.mark.ui
@pytest.mark.timeout(120)
def test_the_kivy_app_notifies_systemd_from_its_main_loop(tmp_path: Path) -> None:
    script = tmp_path / "short.tap"
    script.write_text("card 0A0B0C01 player 1\ncard 0A0B0C02 player 2\ntap 0A0B0C01\ntap 0A0B0C02\n"
                      "press ok\nexpect phase play\n", encoding="utf-8")
    path = str(tmp_path / "notify")
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path / "kivy"),
               KIVY_LOG_MODE="PYTHON", NOTIFY_SOCKET=path, WATCHDOG_USEC="100000",
               BOARDBANK_DB=str(tmp_path / "bb.sqlite3"))
    with listener(path) as sock:
        sock.settimeout(0.2)
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "run", "--script", str(script)], cwd=ROOT,
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        messages: list[bytes] = []
        while proc.poll() is None and time.monotonic() - started < 100:
            try:
                messages.append(sock.recv(4096))
            except TimeoutError:
                continue
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err[-2000:]
    assert messages[:1] == [b"READY=1"], messages
    assert b"WATCHDOG=1" in messages[1:], f"no watchdog ping from the main loop: {messages}"
