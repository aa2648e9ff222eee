"""20 phones follow a whole game played through ``boardbank headless --share`` on loopback: each sees every
journal event once, in order, also the phones that drop and reconnect (Last-Event-ID), and the standings.

The game: tests/engine/taps/whole_game.tap (docs/rules.md 1.3-1.9, 6.2). The design load is 20 phones
(docs/share.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from sharekit import SSE, get

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "tests" / "engine" / "taps" / "whole_game.tap"
PHONES = 20


def headless(tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "BOARDBANK_DB": str(tmp_path / "b.sqlite3"), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "ui.cli", "headless", "--share", "127.0.0.1:0", *extra],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=ROOT)


class Reader(threading.Thread):
    """headless's stdout: the share's URL, and when each event line came (monotonic seconds)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        super().__init__(daemon=True)
        self.proc = proc
        self.url = ""
        self.printed: dict[int, float] = {}
        self.ready = threading.Event()
        self.last_line = time.monotonic()

    def quiet(self, seconds: float = 1.5, timeout: float = 60.0) -> None:
        """Wait until headless has printed nothing for ``seconds`` (it has played every line sent)."""
        began = time.monotonic()
        deadline = began + timeout
        while time.monotonic() - max(self.last_line, began) < seconds:
            assert time.monotonic() < deadline, "headless never went quiet"
            time.sleep(0.05)

    def run(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.last_line = time.monotonic()
            obj = json.loads(line)
            if obj["type"] == "share":
                self.url = obj["url"]
                self.ready.set()
            elif obj["type"] == "event" and not obj.get("replayed"):
                self.printed.setdefault(obj["seq"], time.monotonic())


class Phone(threading.Thread):
    """One phone: reads the stream; with ``drop_every`` it hangs up after that many events and comes back
    with Last-Event-ID, as a browser's EventSource does."""

    def __init__(self, port: int, path: str, drop_every: int = 0, source: str = "127.0.0.1") -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.drop_every, self.source = port, path, drop_every, source
        self.seen: list[int] = []
        self.when: dict[int, float] = {}
        self.last_view: dict[str, object] = {}
        self.reconnects = 0
        self.stop = threading.Event()

    def run(self) -> None:
        last: int | None = None
        while not self.stop.is_set():
            stream = SSE(self.port, self.path, last_id=last, timeout=2.0, source=self.source)
            count = 0
            try:
                for kind, seq, data in stream.messages():
                    if kind == "ev":
                        assert seq is not None
                        self.seen.append(seq)
                        self.when.setdefault(seq, time.monotonic())
                        last, count = seq, count + 1
                        if self.drop_every and count >= self.drop_every:
                            break
                    elif kind == "view":
                        self.last_view = data
            except (TimeoutError, EOFError, OSError):
                pass
            finally:
                stream.close()
            self.reconnects += 1


def test_twenty_phones_see_every_event_once_in_order_through_a_whole_game(tmp_path: Path) -> None:
    proc = headless(tmp_path)
    out = Reader(proc)
    out.start()
    assert out.ready.wait(30), proc.stderr.read() if proc.stderr else ""
    port, path = int(out.url.split(":")[2].split("/")[0]), "/" + out.url.split("/", 3)[3] + "events?lang=en"
    assert get(port, path[:-len("events?lang=en")])[0] == 200
    # each phone its own device (loopback address): one device may hold 16 connections
    phones = [Phone(port, path, drop_every=(7 if i % 4 == 0 else 0), source=f"127.0.0.{10 + i}") for i in range(PHONES)]
    for phone in phones:
        phone.start()
    time.sleep(0.5)
    assert proc.stdin is not None
    for line in GAME.read_text().splitlines():
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        time.sleep(0.005)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        last = max(out.printed, default=0)
        if last and all(p.seen and p.seen[-1] == last for p in phones):
            break
        time.sleep(0.05)
    time.sleep(0.3)  # the standings' view follows the last events
    for phone in phones:
        phone.stop.set()
    proc.stdin.close()
    assert proc.wait(30) == 0
    seqs = sorted(out.printed)
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) > 40
    for i, phone in enumerate(phones):
        assert phone.seen == seqs, f"phone {i}: {len(phone.seen)} events, reconnects {phone.reconnects}"
        assert phone.last_view.get("standings"), f"phone {i} has no standings"
    assert sum(p.reconnects for p in phones if p.drop_every) > 5 * 5
    delays = sorted(p.when[s] - out.printed[s] for p in phones if not p.drop_every for s in seqs)
    p99 = delays[int(len(delays) * 0.99)]
    print(f"event printed -> phone: p50 {delays[len(delays) // 2] * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    assert p99 < 0.2  # docs/share.md: within 200 ms of the journal's commit on the same machine


def test_headless_share_refuses_a_bad_address_and_writes_nothing(tmp_path: Path) -> None:
    for bad in ("nowhere", "127.0.0.1:99999", "[::1"):
        env = {**os.environ, "BOARDBANK_DB": str(tmp_path / "b.sqlite3"), "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-m", "ui.cli", "headless", "--share", bad], input="",
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--share" in done.stderr
        assert not (tmp_path / "b.sqlite3").exists()


def test_headless_share_on_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    import socket

    env = {**os.environ, "BOARDBANK_DB": str(tmp_path / "b.sqlite3"), "PYTHONPATH": str(ROOT)}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "ui.cli", "headless", "--share", f"127.0.0.1:{port}"], input="",
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and done.stdout == ""
