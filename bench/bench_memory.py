"""Memory benchmark (a script that prints numbers; not a test): the touch app's resident memory (RSS)
idle and through a whole scripted game at 800x480, the kiosk's screen (need: under 150 MiB all the way),
and the figure that counts on the kiosk: the RSS without the software renderer's mappings (``libLLVM``,
Mesa's ``*_dri.so`` and ``libgallium``, which a Raspberry Pi's V3D driver does not map), sampled from
``/proc/PID/smaps`` through the whole game (need: under 100 MiB for the classic game), beside the same
figure of a window showing one Kivy label (what Kivy, SDL and GL alone hold).

Two runs of ``boardbank run`` (offscreen Kivy, a temporary installation file) for each ruleset's game
(:data:`GAMES`: Ultimate's ``tests/ui/game.tap`` on the default edition, and classic's whole game
``tests/engine/taps/classic/whole_game.tap`` on ``classic-us``, from registration to the last player):

* idle: no script; the RSS 5 s after the app says ``READY=1`` (the systemd notification, caught on a
  socket of ours), the setup screen drawn;
* game: ``--script``; the child's ``VmRSS`` sampled every 20 ms: the peak and the end.

At the game's peak it reads ``/proc/PID/smaps`` and splits the RSS: C heap (``[heap]``), anonymous maps
(Python's arenas, thread arenas), the software renderer's code (``libLLVM``, Mesa's ``*_dri.so``: pages
of code that a GPU driver such as the Raspberry Pi's v3d does not run), other files. It prints the
OpenGL renderer measured (Kivy's log line). ``--env "NAME=VALUE ..."`` repeats both runs with variables
set, to compare what holds the memory (e.g. ``LP_NUM_THREADS=0``, ``BOARDBANK_FINISH_FRAMES=0``).
A last section runs Ultimate's idle and game again with sharing on (``BOARDBANK_SHARE`` on loopback, the
live page for phones, docs/share.md), idle with 20 phones reading the page (``--only-sharing``: just it).
The project's modules are first compiled to bytecode, as the kiosk's installer does, and the children may read
it whatever ``PYTHONDONTWRITEBYTECODE`` says (compiling from source at start holds about 1 MiB more).
Usage: ``SDL_VIDEODRIVER=offscreen python bench/bench_memory.py [--env "NAME=VALUE ..."]... [--repeat N]
[--only-sharing]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEED_MIB = 150.0
NEED_NO_RENDERER_MIB = 100.0
"""The classic game's peak RSS without the software renderer's mappings, MiB."""
SMAPS_EVERY_S = 0.25
"""Seconds between two reads of the game's ``/proc/PID/smaps`` (reading it costs a few ms)."""
ONE_LABEL = """
import os, sys, time
from kivy.config import Config
Config.set("graphics", "width", "800"); Config.set("graphics", "height", "480")
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.label import Label

class One(App):
    def build(self):
        Clock.schedule_once(lambda dt: (sys.stdout.write("SHOWN\\n"), sys.stdout.flush()), 1.0)
        Clock.schedule_once(lambda dt: self.stop(), 4.0)
        return Label(text="boardbank")

One().run()
"""
"""A Kivy window at 800x480 with one label: the floor any Kivy app stands on."""
GAMES: tuple[tuple[str, tuple[str, ...], Path], ...] = (
    ("ultimate", (), ROOT / "tests" / "ui" / "game.tap"),
    ("classic", ("--edition", "classic-us"), ROOT / "tests" / "engine" / "taps" / "classic" / "whole_game.tap"),
)
"""(ruleset, ``boardbank run`` arguments, tap script of a whole game) measured."""
IDLE_AFTER_READY_S = 5.0
RENDERER_CODE = ("libLLVM", "_dri.so", "libz3", "libgallium")
"""Mappings that hold the software renderer's code (LLVM's JIT compiler, Mesa's driver)."""


def status(pid: int, key: str) -> float:
    """``key`` (e.g. ``VmRSS``) of process ``pid`` in MiB, or 0 when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def breakdown(pid: int) -> dict[str, float]:
    """The RSS of ``pid`` in MiB by kind: heap, anonymous, renderer code, other files (empty when gone)."""
    parts: dict[str, float] = {}
    kind = "other files"
    try:
        text = Path(f"/proc/{pid}/smaps").read_text()
    except OSError:
        return parts
    for line in text.splitlines():
        fields = line.split()
        if fields and re.fullmatch(r"[0-9a-f]+-[0-9a-f]+", fields[0]):
            name = fields[5] if len(fields) > 5 else ""
            if name == "[heap]":
                kind = "C heap"
            elif not name or name.startswith("[anon"):
                kind = "anonymous"
            elif any(part in name for part in RENDERER_CODE):
                kind = "renderer code"
            else:
                kind = "other files"
        elif fields and fields[0] == "Rss:":
            parts[kind] = parts.get(kind, 0.0) + int(fields[1]) / 1024
    return parts


def without_renderer(pid: int) -> float:
    """The RSS of ``pid`` in MiB without the software renderer's mappings (0 when it is gone)."""
    parts = breakdown(pid)
    return sum(parts.values()) - parts.get("renderer code", 0.0)


def one_label(extra: dict[str, str]) -> tuple[float, float]:
    """(RSS, RSS without the renderer's mappings) in MiB of a one-label Kivy window, 2 s after it is shown."""
    with tempfile.TemporaryDirectory(prefix="bench-mem-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "one_label.py").write_text(ONE_LABEL, encoding="utf-8")  # a file: Kivy's App looks for its kv
        proc = subprocess.Popen([sys.executable, str(tmp / "one_label.py")], cwd=tmp, env=app_env(tmp, extra, ""),
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            assert proc.stdout is not None
            while proc.stdout.readline().strip() != b"SHOWN":
                if proc.poll() is not None:
                    raise SystemExit("the one-label window did not start")
            time.sleep(1.0)
            return status(proc.pid, "VmRSS"), without_renderer(proc.pid)
        finally:
            proc.kill()
            proc.communicate()


PACKAGES = ("engine", "reader", "ui", "firmware_sim")
"""The project's packages, compiled to bytecode before the runs as the kiosk's installer does."""


def compile_bytecode() -> float:
    """Compile the project's modules to ``__pycache__`` (``python -m compileall``, as ``hardware/kiosk/install.sh``
    does: the kiosk never compiles a module from source at start) and return the seconds it took. The children
    then run with bytecode allowed, whatever ``PYTHONDONTWRITEBYTECODE`` says here: compiling from source leaves
    about 1 MiB more in the heap."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", *PACKAGES], cwd=ROOT, check=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    return time.perf_counter() - start


def app_env(tmp: Path, extra: dict[str, str], notify: str) -> dict[str, str]:
    """The child's environment: offscreen Kivy logging to stderr, its own files, bytecode read from
    ``__pycache__`` (:func:`compile_bytecode`), ``extra`` on top."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return dict(env, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "offscreen"), KIVY_NO_ARGS="1",
                KIVY_WINDOW="sdl2", KIVY_HOME=str(tmp / "kivy"), KIVY_LOG_MODE="KIVY", KIVY_NO_FILELOG="1",
                BOARDBANK_DB=str(tmp / "bb.sqlite3"), NOTIFY_SOCKET=notify, **extra)


def renderer(log: str) -> str:
    """The OpenGL renderer Kivy reported in ``log`` ("?" when it said none)."""
    found = re.search(r"OpenGL renderer <b?'?([^'>]*)", log)
    return found.group(1) if found else "?"


def kill_all(proc: subprocess.Popen[bytes]) -> None:
    """Kill the app started in a session of its own and every process it started: the setup screen's
    estimates worker holds the app's stderr open, and outlived a kill of the app alone (the next read of that
    pipe waited for it for ever)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def idle(extra: dict[str, str], edition: tuple[str, ...] = ()) -> tuple[float, str]:
    """(RSS in MiB 5 s after READY=1, renderer) of the app started without a script."""
    with tempfile.TemporaryDirectory(prefix="bench-mem-") as tmp_name:
        tmp = Path(tmp_name)
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(str(tmp / "notify"))
            sock.settimeout(120)
            proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "run", "--size", "800x480", *edition], cwd=ROOT,
                                    env=app_env(tmp, extra, str(tmp / "notify")), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, start_new_session=True)
            try:
                while b"READY=1" not in sock.recv(256):
                    pass
                time.sleep(IDLE_AFTER_READY_S)
                rss = status(proc.pid, "VmRSS")
            finally:
                kill_all(proc)
                _, err = proc.communicate()
    return rss, renderer(err.decode(errors="replace"))


def game(extra: dict[str, str], edition: tuple[str, ...], script: Path) -> tuple[float, float, dict[str, float],
                                                                                float, float]:
    """One scripted game (``script`` with the ``edition`` arguments): peak and end RSS (MiB), the breakdown
    at the peak, seconds, and the peak of the RSS without the software renderer's mappings (MiB)."""
    with tempfile.TemporaryDirectory(prefix="bench-mem-") as tmp_name:
        tmp = Path(tmp_name)
        start = time.perf_counter()
        with (tmp / "err").open("wb") as err:
            proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "run", "--script", str(script), "--size",
                                     "800x480", *edition], cwd=ROOT, env=app_env(tmp, extra, ""),
                                    stdout=subprocess.DEVNULL, stderr=err)
            peak, end, parts, bare, read_at = 0.0, 0.0, dict[str, float](), 0.0, 0.0
            while proc.poll() is None:
                rss = status(proc.pid, "VmRSS")
                if rss > peak + 1.0:  # a new peak: where it is (smaps is read at most once per MiB)
                    parts = breakdown(proc.pid) or parts
                    bare = max(bare, sum(parts.values()) - parts.get("renderer code", 0.0))
                if time.perf_counter() - read_at > SMAPS_EVERY_S:
                    read_at = time.perf_counter()
                    bare = max(bare, without_renderer(proc.pid))
                peak, end = max(peak, rss), rss or end
                time.sleep(0.02)
        if proc.returncode != 0:
            raise SystemExit(f"the scripted game failed ({proc.returncode}): {(tmp / 'err').read_text()[-500:]}")
    return peak, end, parts, time.perf_counter() - start, bare


# -- sharing on (docs/share.md): the live page's server in the app, 20 phones reading it ---------------------
SHARE_ENV = {"BOARDBANK_SHARE": "127.0.0.1:0"}
PHONES = 20


def idle_sharing(phones: int = PHONES) -> float:
    """RSS in MiB of the app started with sharing on (loopback), ``phones`` phones on the live page, 5 s
    after READY=1 and the phones' connection."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_share import Phones

    with tempfile.TemporaryDirectory(prefix="bench-mem-") as tmp_name:
        tmp = Path(tmp_name)
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock, (tmp / "err").open("wb") as err:
            sock.bind(str(tmp / "notify"))
            sock.settimeout(120)
            proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "run", "--size", "800x480"], cwd=ROOT,
                                    env=app_env(tmp, SHARE_ENV, str(tmp / "notify")), stdout=subprocess.DEVNULL,
                                    stderr=err, start_new_session=True)
            try:
                while b"READY=1" not in sock.recv(256):
                    pass
                found = re.search(r"the table on every phone: (\S+)", (tmp / "err").read_text(errors="replace"))
                if found is None:
                    raise SystemExit("the app did not print the share's URL")
                crowd = Phones(found.group(1), phones)
                time.sleep(IDLE_AFTER_READY_S)
                rss = status(proc.pid, "VmRSS")
                crowd.close()
            finally:
                kill_all(proc)
                proc.wait()
    return rss


def print_sharing() -> None:
    """The section of the report with sharing on: idle with 20 phones, and Ultimate's whole game."""
    ruleset, edition, script = GAMES[0]
    idle_rss, _ = idle({}, edition)
    shared_idle = idle_sharing()
    peak, end, _parts, seconds, _bare = game(SHARE_ENV, edition, script)
    print(f"sharing on (boardbank run --share on loopback), {ruleset}: idle with {PHONES} phones on the live page "
          f"{shared_idle:.0f} MiB (sharing off {idle_rss:.0f} MiB: {shared_idle - idle_rss:+.0f}); "
          f"{script.name} peak {peak:.0f} MiB, end {end:.0f} MiB ({seconds:.0f} s)", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", action="append", default=[], metavar='"NAME=VALUE ..."',
                        help="also run with these variables set (repeatable; each is its own pair of runs)")
    parser.add_argument("--only-sharing", action="store_true", help="only the section with sharing on")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="play each whole game N times (the figures of each, the highest counts)")
    args = parser.parse_args()
    print(f"the project's modules compiled to bytecode as the kiosk's installer does ({compile_bytecode():.1f} s)")
    if args.only_sharing:
        print_sharing()
        return 0
    runs: list[tuple[str, dict[str, str]]] = [("as shipped", {})]
    for item in args.env:
        runs.append((item, dict(pair.partition("=")[::2] for pair in item.split())))
    shipped_peak, classic_bare = 0.0, 0.0
    for label, extra in runs:
        label_rss, label_bare = one_label(extra)
        print(f"{label}, a one-label Kivy window at 800x480: RSS {label_rss:.0f} MiB, without the software "
              f"renderer's mappings {label_bare:.0f} MiB")
        for ruleset, edition, script in GAMES:
            idle_rss, gl = idle(extra, edition)
            for _ in range(max(1, args.repeat)):
                peak, end, parts, seconds, bare = game(extra, edition, script)
                if label == "as shipped":
                    shipped_peak = max(shipped_peak, peak)
                    if ruleset == "classic":
                        classic_bare = max(classic_bare, bare)
                split = ", ".join(f"{k} {v:.0f}" for k, v in sorted(parts.items(), key=lambda kv: -kv[1]))
                print(f"{label}, {ruleset} {script.name} (renderer: {gl}): idle {idle_rss:.0f} MiB; game peak "
                      f"{peak:.0f} MiB, end {end:.0f} MiB ({seconds:.0f} s)")
                print(f"  at the peak: {split} MiB; without the software renderer's mappings, the peak through the "
                      f"game: {bare:.1f} MiB (the one-label window: {label_bare:.1f} MiB)", flush=True)
    verdict = "OK" if shipped_peak < NEED_MIB else "TOO MUCH"
    print(f"peak RSS through a whole game of either ruleset, as shipped: {shipped_peak:.0f} MiB "
          f"(need < {NEED_MIB:.0f}): {verdict}")
    verdict = "OK" if classic_bare < NEED_NO_RENDERER_MIB else "TOO MUCH"
    print(f"peak RSS without the software renderer's mappings through a whole classic game, as shipped: "
          f"{classic_bare:.1f} MiB (need < {NEED_NO_RENDERER_MIB:.0f}): {verdict}")
    print_sharing()
    return 0


if __name__ == "__main__":
    sys.exit(main())
