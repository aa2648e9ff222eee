"""``boardbank run --script FILE [--screenshots DIR]``: play a tap script through the running UI.

The script format is the banker's (``engine/banker/tapscript.py``): ``card``, ``alias``, ``tap``, ``press``,
``choose``, ``wait`` and ``expect`` lines. Taps go through the mock reader (so they arrive as reader events
on the main thread, like real cards), presses and choices through the screen's own handlers, ``wait``
moves the banker's clock. After every step the frame is drawn and, with ``--screenshots``, saved as
``DIR/NNN-verb.png``. A failed ``expect`` stops the app with exit status 1.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from engine.banker.tapscript import Alias, Expect, ExpectationFailed, Interpreter, Script, Step, parse_file
from engine.banker.viewmodel import ViewModel

log = logging.getLogger(__name__)

SETTLE_FRAMES = 3  # frames drawn after a step before its screenshot
MAX_WAIT_FRAMES = 200  # frames to wait for a tap to come back from the reader before giving up


class ScriptError(ValueError):
    """A script that cannot be played here (no mock reader, a card that cannot be enrolled)."""


class ScriptRunner:
    """Plays a parsed script in the app, one step per few frames, on Kivy's main thread."""

    def __init__(self, app: Any, script: Script, screenshots: str | Path | None = None) -> None:
        self.app = app
        self.script = script
        self.shots = Path(screenshots) if screenshots else None
        self.index = 0
        self.taken: list[Path] = []
        self.failures: list[str] = []
        self.interpreter = Interpreter(_Screen(self), on_enroll=self._enroll, on_wait=self._advance)
        self._waiting_for = 0
        self._frames = 0

    @classmethod
    def from_file(cls, app: Any, path: str | Path, screenshots: str | Path | None = None) -> ScriptRunner:
        """Parse ``path`` (:class:`~engine.banker.tapscript.TapScriptError` on a bad line)."""
        return cls(app, parse_file(path), screenshots)

    # -- the loop ------------------------------------------------------------------------------------
    def start(self) -> None:
        """Begin with the first step (call on the main thread once the app runs)."""
        if self.shots is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
        self._schedule(self._next)

    def _schedule(self, fn: Any, frames: int = 1) -> None:
        from kivy.clock import Clock

        def later(_dt: float, left: int = frames) -> None:
            if left <= 1:
                fn()
            else:
                Clock.schedule_once(lambda dt: later(dt, left - 1), 0)

        Clock.schedule_once(later, 0)

    def _next(self) -> None:
        if self.index >= len(self.script.steps):
            self.finish(0)
            return
        step = self.script.steps[self.index]
        try:
            self.do(step)
        except ExpectationFailed as exc:
            self.failures.append(str(exc))
            print(f"{self.script.name}: {exc}", file=sys.stderr)
            self.finish(1)
            return
        except ScriptError as exc:
            print(f"{self.script.name}: line {step.line}: {exc}", file=sys.stderr)
            self.finish(2)
            return
        self._frames = 0
        self._schedule(self._settled)

    def _settled(self) -> None:
        controller = self.app.controller
        if controller is not None and controller.handled < self._waiting_for:
            self._frames += 1
            if self._frames > MAX_WAIT_FRAMES:
                print(f"{self.script.name}: a tap never reached the banker", file=sys.stderr)
                self.finish(2)
                return
            self._schedule(self._settled)
            return
        if controller is not None and controller.last_reaction is not None:
            # the screen's reactions come back through the controller, a tap's a few frames later
            self.interpreter.last_error = getattr(controller.last_reaction, "error", None)
        self._schedule(self._after_step, SETTLE_FRAMES)

    def _after_step(self) -> None:
        step = self.script.steps[self.index]
        if self.shots is not None and not isinstance(step, Expect | Alias):
            self.taken.append(self.screenshot(self.shots / f"{self.index + 1:03d}-{_verb(step)}.png"))
        self.index += 1
        self._next()

    def finish(self, status: int) -> None:
        """Stop the app with exit ``status``."""
        self.app.exit_status = status
        self.app.stop()

    # -- one step --------------------------------------------------------------------------------------
    def do(self, step: Step) -> None:
        """Perform ``step`` with the tap-script interpreter (expectations against the banker's view)."""
        self.interpreter.step(step)

    def _enroll(self, uid: str, kind: str, value: int | None) -> object:
        app = self.app
        try:
            card = app.session.registry.enroll(uid, kind, value, replace=True)
        except ValueError as exc:
            raise ScriptError(f"cannot enrol card {uid}: {exc}") from exc
        app.render(app.controller.view)
        return card

    def _advance(self, seconds: float) -> None:
        advance = self.app.session.advance
        if advance is None:
            raise ScriptError("this banker's clock cannot be moved on: 'wait' needs a manual clock")
        advance(seconds)

    def _tap(self, card_uid: str) -> None:
        from reader import mock

        urls = list(self.app.session.mock_urls)
        if not urls:
            raise ScriptError("--script needs a mock:// reader to tap on")
        controller = self.app.controller
        self._waiting_for = controller.handled + 1
        try:
            delivered = mock.present(urls[0], card_uid)
            mock.remove(urls[0])
        except ValueError as exc:
            raise ScriptError(f"cannot tap {card_uid!r} on the mock reader: {exc}") from exc
        if delivered == 0:
            raise ScriptError(f"the mock reader {urls[0]} is not started")

    def screenshot(self, path: Path) -> Path:
        """Save the current frame as ``path`` (``Window.screenshot`` appends a counter: renamed)."""
        from kivy.base import EventLoop
        from kivy.core.window import Window

        self.app.settle_animations()
        Window.canvas.ask_update()
        EventLoop.idle()
        written = Path(Window.screenshot(name=str(path.with_suffix(".png"))))
        written.replace(path)
        return path


def _verb(step: Step) -> str:
    return type(step).__name__.lower()


class _Screen:
    """The app as the interpreter drives it: taps through the mock reader, presses and choices through the
    screen's own handlers, ticks and the view through the controller. Reactions come back through the
    controller (the runner reads them once the frame settles), so these return None."""

    def __init__(self, runner: ScriptRunner) -> None:
        self.runner = runner

    def tap(self, uid: str) -> None:
        self.runner._tap(uid)

    def press(self, button: str, value: str | None = None) -> None:
        self.runner.app.press(button, value)

    def choose(self, value: str) -> None:
        self.runner.app.choose(value)

    def tick(self) -> None:
        self.runner.app.controller.tick()

    @property
    def view(self) -> ViewModel:
        return self.runner.app.controller.view  # type: ignore[no-any-return]
