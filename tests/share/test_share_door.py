"""What one device on the network can do to the share, and what the share says (docs/share.md): it cannot
lock the other phones out with idle connections, its malformed requests are one short log line now and
then (never a traceback), a share that cannot start writes nothing, and a share on every interface
advertises an address a phone can open.

Every client is on loopback: 127.0.0.1, 127.0.0.2, ... are different devices to the server."""

from __future__ import annotations

import json
import logging
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from sharekit import SSE, FakeEvent, connect, get, raw, started, view, wait_for

from ui.share import address as address_module
from ui.share.address import Address
from ui.share.guard import QuietLog
from ui.share.server import Limits
from ui.share.share import Share
from ui.share.wiring import reach_note

ROOT = Path(__file__).resolve().parents[2]
BAD_REQUESTS = [b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 9000 + b"\r\n\r\n",
                b"GET / HTTP/1.1\r\nContent-Length: -5\r\nHost: x\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n"]


def closed(sock: socket.socket, timeout: float = 3.0) -> bool:
    """Whether the server closed ``sock`` (EOF or reset) within ``timeout`` seconds."""
    sock.settimeout(timeout)
    try:
        return sock.recv(10) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_one_device_cannot_lock_the_other_phones_out_with_idle_connections() -> None:
    s = started(Limits(per_client=16, idle_s=30.0))
    try:
        port = s.server.port
        hog = [connect(port, "127.0.0.1") for _ in range(256)]  # idle, never a byte sent
        wait_for(lambda: s.server.refused >= 256 - 16)
        assert s.server.per_client.get("127.0.0.1") == 16
        began = time.monotonic()
        assert get(port, f"/{s.token}/", source="127.0.0.2")[0] == 200  # another phone, at once
        phone = SSE(port, f"/{s.token}/events", source="127.0.0.3")
        assert next(phone.messages())[0] == "view"
        assert time.monotonic() - began < 2.0
        assert sum(closed(sock, 0.5) for sock in hog[-20:]) == 20  # beyond 16: closed at once
        assert get(port, f"/{s.token}/", source="127.0.0.1")[0] == 0  # the hog's 17th: refused
        for sock in hog:
            sock.close()
        wait_for(lambda: "127.0.0.1" not in s.server.per_client)
        assert get(port, f"/{s.token}/", source="127.0.0.1")[0] == 200  # its slots come back
        s.publish(1, (FakeEvent(1),), view(1))
        assert next(phone.messages())[:2] == ("ev", 1)
        phone.close()
    finally:
        s.stop()


def test_a_device_s_live_pages_count_against_its_own_limit() -> None:
    s = started(Limits(per_client=3, streams=64))
    try:
        port = s.server.port
        pages = [SSE(port, f"/{s.token}/events", source="127.0.0.4") for _ in range(3)]
        assert all(p.status == 200 for p in pages)
        assert raw(port, f"GET /{s.token}/ HTTP/1.1\r\nHost: x\r\n\r\n".encode(), source="127.0.0.4") == b""
        assert get(port, f"/{s.token}/", source="127.0.0.5")[0] == 200
        for p in pages:
            p.close()
    finally:
        s.stop()


def test_an_idle_connection_is_closed_after_the_idle_time() -> None:
    s = started(Limits(idle_s=0.5))
    try:
        idle = connect(s.server.port, "127.0.0.6")
        began = time.monotonic()
        assert closed(idle, 5.0)
        assert 0.3 < time.monotonic() - began < 4.0
        idle.close()
    finally:
        s.stop()


def test_a_malformed_request_is_one_short_line_per_device_now_and_then(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="aiohttp")
    caplog.set_level(logging.WARNING, logger="ui.share.server")
    s = started(Limits(log_every_s=0.8))
    try:
        port = s.server.port
        for n in range(40):
            assert raw(port, BAD_REQUESTS[n % len(BAD_REQUESTS)], source="127.0.0.7").startswith(b"HTTP/1.")
        raw(port, BAD_REQUESTS[0], source="127.0.0.8")
        assert get(port, f"/{s.token}/", source="127.0.0.7")[0] == 200  # and the server goes on
        wait_for(lambda: s.server.quiet is not None and s.server.quiet.left_out >= 39)
        time.sleep(0.9)  # the next window for 127.0.0.7
        raw(port, BAD_REQUESTS[1], source="127.0.0.7")
        wait_for(lambda: s.server.quiet is not None and s.server.quiet.lines >= 3)
    finally:
        s.stop()
    ours = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert all(r.exc_info is None for r in ours), "no traceback in a warning"
    lines = [r.getMessage() for r in ours]
    assert len(lines) == 3, lines
    assert all("\n" not in line and len(line) < 260 for line in lines), lines
    assert lines[0].startswith("share: bad request (") and lines[0].endswith("from 127.0.0.7"), lines
    assert sum("from 127.0.0.8" in line for line in lines) == 1
    assert "from 127.0.0.7 (39 more from it left out in the last 0.8 s)" in lines[2], lines


def test_the_quiet_log_escapes_a_client_s_bytes_and_forgets_old_clients() -> None:
    seen: list[str] = []

    class Target(logging.Logger):
        def warning(self, msg: object, *args: object, **_kw: object) -> None:  # type: ignore[override]
            seen.append(str(msg) % args)

    now = [0.0]
    quiet = QuietLog(10.0, clock=lambda: now[0], target=Target("t"))
    quiet.exception("Error handling request from %s", "127.0.0.9", exc_info=ValueError("bad\r\nX-Evil: 1\x1b[2J"))
    assert seen == ["share: bad request (ValueError: bad X-Evil: 1?[2J) from 127.0.0.9"]
    for n in range(2000):
        quiet.report(f"10.0.{n // 256}.{n % 256}", "x")
    assert len(quiet._last) <= 1024


def boardbank(tmp_path: Path, command: str, share: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BOARDBANK_DB": str(tmp_path / "b.sqlite3"), "PYTHONPATH": str(ROOT),
           "KIVY_HOME": str(tmp_path.parent / "kivy"), "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1"}
    return subprocess.run([sys.executable, "-m", "ui.cli", command, "--share", share], input="", env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=90, check=False)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize(("command", "case"), [("headless", "port in use"), ("headless", "foreign address"),
                                               ("run", "port in use")])
def test_a_share_that_cannot_start_writes_nothing(tmp_path: Path, command: str, case: str) -> None:
    tmp_path = tmp_path / "install"
    tmp_path.mkdir()
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    share = f"127.0.0.1:{holder.getsockname()[1]}" if case == "port in use" else "198.51.100.7:0"
    try:
        fresh = boardbank(tmp_path, command, share)  # no installation file yet: none is made
        assert fresh.returncode == 2 and not (tmp_path / "b.sqlite3").exists(), fresh.stderr
        lines = [x for x in fresh.stderr.strip().splitlines() if not x.startswith(("Config: ", "[INFO"))]
        assert len(lines) == 1 and lines[0].startswith(f"boardbank {command}: the share cannot listen on "), lines
        assert ("is in use" if case == "port in use" else "is not an address of this unit") in lines[0], lines
        with sqlite3.connect(tmp_path / "b.sqlite3") as db:  # an existing file: byte for byte the same
            db.execute("CREATE TABLE t (x)")
        db.close()
        before = snapshot(tmp_path)
        again = boardbank(tmp_path, command, share)
        assert again.returncode == 2 and snapshot(tmp_path) == before, again.stderr
    finally:
        holder.close()


def test_headless_share_logs_no_traceback_for_malformed_requests(tmp_path: Path) -> None:
    env = {**os.environ, "BOARDBANK_DB": str(tmp_path / "b.sqlite3"), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "headless", "--share", "127.0.0.1:0"], env=env, cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        url = ""
        while not url:
            obj = json.loads(proc.stdout.readline())
            url = obj.get("url", "") if obj["type"] == "share" else ""
        port = int(url.split(":")[2].split("/")[0])
        for n in range(30):
            raw(port, BAD_REQUESTS[n % len(BAD_REQUESTS)], source=f"127.0.0.{10 + n % 2}")
        assert get(port, url.split(str(port))[1])[0] == 200
        _, err = proc.communicate("", timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 2 and all("share: bad request" in line for line in lines), err


@pytest.mark.parametrize("every", ["0.0.0.0", "::"])
def test_a_share_on_every_interface_advertises_the_lan_address(monkeypatch: pytest.MonkeyPatch, every: str) -> None:
    monkeypatch.setattr(address_module, "lan_address", lambda: "192.168.1.20")
    share = Share(Address(every, 8024))  # not started: nothing listens on any interface here
    assert share.url == f"http://192.168.1.20:8024/{share.token}/"
    assert reach_note(share) == f"serving on all addresses ({Address(every, 8024)}); phones use {share.url}"
    assert reach_note(Share(Address("127.0.0.1", 8024))) == ""


def test_a_share_on_every_interface_without_a_lan_address_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    def none() -> str:
        raise address_module.AddressError("no network")

    monkeypatch.setattr(address_module, "lan_address", none)
    share = Share(Address("0.0.0.0", 8024))
    assert share.url == f"http://127.0.0.1:8024/{share.token}/" and "0.0.0.0" not in share.url
    note = reach_note(share)
    assert note.startswith("serving on all addresses (0.0.0.0:8024), but this unit has no local network address")
    assert "no phone can reach the page" in note


def test_the_lan_address_is_never_loopback_nor_every_interface() -> None:
    try:
        host = address_module.lan_address()
    except address_module.AddressError:
        return  # a machine without a network: said plainly (the test above)
    assert not host.startswith("127.") and host not in ("0.0.0.0", "::")
    for found in address_module.interface_addresses():
        assert not found.startswith(("127.", "169.254."))
