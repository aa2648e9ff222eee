"""The real window under Xvfb, clicked by xdotool: ``boardbank run`` on its own X display, its buttons read
from the file the app writes with ``$BOARDBANK_TEST_BUTTONS`` (ui/touch/button_dump.py), and each click a
real pointer's press, 80 ms hold and release (``xdotool mousemove X Y mousedown 1 sleep 0.08 mouseup 1``),
which SDL hands to Kivy as it does a mouse or a finger."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("Xvfb", "xdotool", "xauth")
"""Debian's xvfb, xdotool and xauth (scripts/install-system-deps.sh test)."""


def missing_tools() -> list[str]:
    """The X tools not on PATH."""
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def free_display() -> int:
    """An X display number with no lock file and no socket (from :90 up)."""
    for number in range(90, 190):
        if not Path(f"/tmp/.X{number}-lock").exists() and not Path(f"/tmp/.X11-unix/X{number}").exists():
            return number
    raise RuntimeError("no free X display number between :90 and :189")


def wait_until(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``condition`` every 50 ms until it returns a true value (returned); AssertionError after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


class XApp:
    """Xvfb on a free display and ``boardbank run`` in it (``args`` after ``run``), stopped by :meth:`close`."""

    def __init__(self, tmp: Path, *args: str) -> None:
        self.tmp = tmp
        self.db = tmp / "game.sqlite3"
        self.buttons_file = tmp / "buttons.json"
        self.display = f":{free_display()}"
        self.xvfb = subprocess.Popen(["Xvfb", self.display, "-screen", "0", "800x480x24", "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.app: subprocess.Popen[bytes] | None = None
        try:
            wait_until(lambda: Path(f"/tmp/.X11-unix/X{self.display[1:]}").exists() or self.xvfb.poll() is not None,
                       10, "Xvfb's socket")
            assert self.xvfb.poll() is None, f"Xvfb {self.display} did not start"
            env = {**os.environ, "DISPLAY": self.display, "KIVY_WINDOW": "sdl2", "KIVY_NO_ARGS": "1",
                   "KIVY_HOME": str(tmp / "kivy"), "BOARDBANK_CACHE": str(tmp / "cache"),
                   "BOARDBANK_TEST_BUTTONS": str(self.buttons_file), "PYTHONPATH": str(ROOT)}
            env.pop("SDL_VIDEODRIVER", None)  # the X11 driver, not offscreen
            self.log = (tmp / "app.log").open("wb")
            self.app = subprocess.Popen([sys.executable, "-m", "ui.cli.console", "run", "--db", str(self.db), *args],
                                        env=env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
            wait_until(lambda: self.buttons_file.exists() or self.app is None or self.app.poll() is not None, 60,
                       "the app's first screen")
            assert self.app.poll() is None, f"boardbank run exited: {self.app_log()}"
        except BaseException:
            self.close()
            raise

    def app_log(self) -> str:
        path = self.tmp / "app.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def screen(self) -> dict[str, Any]:
        """What the app last wrote: screen, state, seq and buttons."""
        return dict(json.loads(self.buttons_file.read_text(encoding="utf-8")))

    def find(self, test: Callable[[dict[str, Any]], bool], what: str, timeout: float = 10.0) -> dict[str, Any]:
        """The first button ``test`` accepts on the screen (waiting for it)."""
        def found() -> dict[str, Any] | None:
            try:
                return next((b for b in self.screen()["buttons"] if test(b)), None)
            except (OSError, ValueError):
                return None
        return dict(wait_until(found, timeout, what))

    def find_card(self, role: tuple[str, int], what: str) -> dict[str, Any]:
        """The tray's card of ``role`` (kind, value), the tray swiped toward it (xdotool: press, a 300 px drag,
        a rest, release) until it is in sight. The tray holds the bank cards, then the deeds, then the events,
        each by number."""
        order = {"player": 0, "deed": 1, "event": 2, "banker": 3}
        wanted = (order[role[0]], role[1])
        for _ in range(24):
            cards = [b for b in self.screen()["buttons"] if b.get("card", [None, []])[1]]
            hit = next((b for b in cards if tuple(b["card"][1]) == role), None)
            if hit is not None:
                return hit
            ranks = [(order[b["card"][1][0]], b["card"][1][1]) for b in cards]
            swipe = -300 if ranks and wanted > max(ranks) else 300  # the finger moves left: later cards
            row = max(b["y"] for b in cards) + 25
            moves = [str(a) for k in range(1, 7) for a in ("mousemove", 400 + swipe * k // 6 - swipe // 2, row,
                                                           "sleep", "0.02")]
            subprocess.run(["xdotool", "mousemove", str(400 - swipe // 2), str(row), "mousedown", "1", *moves,
                            "sleep", "0.15", "mouseup", "1"], env={**os.environ, "DISPLAY": self.display},
                           check=True, timeout=10)
            time.sleep(0.4)
        raise AssertionError(f"{what} never came into sight on the tray")

    def click(self, button: dict[str, Any]) -> None:
        """A real pointer's click at the button's centre: press, 80 ms, release."""
        x, y = button["x"] + button["w"] // 2, button["y"] + button["h"] // 2
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "mousedown", "1", "sleep", "0.08", "mouseup", "1"],
                       env={**os.environ, "DISPLAY": self.display}, check=True, timeout=10)

    def act(self, test: Callable[[dict[str, Any]], bool] | tuple[str, int], what: str) -> None:
        """Click the button ``test`` accepts, or the tray's card of a role (kind, value), and wait until the
        screen changed (the app answered)."""
        button = self.find_card(test, what) if isinstance(test, tuple) else self.find(test, what)
        before = self.screen()
        self.click(button)
        wait_until(lambda: self.screen() != before, 10, f"the app to answer {what}")

    def replay(self) -> dict[str, Any]:
        """``boardbank replay DB --json`` (read-only beside the running app)."""
        out = subprocess.run([sys.executable, "-m", "ui.cli.console", "replay", str(self.db), "--json"], cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return dict(json.loads(out.stdout))

    def close(self) -> None:
        """Stop the app and Xvfb (SIGTERM, then SIGKILL after 5 s)."""
        for process in (self.app, self.xvfb):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)
        if getattr(self, "log", None) is not None:
            self.log.close()
