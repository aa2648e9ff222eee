"""``boardbank headless``: the banker without a screen.

Lines on stdin use the tap-script verbs (engine/banker/tapscript.py): ``tap UID``, ``press BUTTON [VALUE]``,
``choose VALUE``, ``wait SECONDS`` (moves the banker's clock on, for tests), ``enroll UID ROLE [VALUE]``
(or ``card ...``), ``alias NAME UID`` and ``expect ...``. Readers given with ``--reader`` feed taps too:
their threads put card presentations on one queue, and the banker runs on this one thread.

stdout gets one JSON object per line:

* ``{"type": "event", "game": G, "seq": N, "event": {...}}`` for every durable engine event, printed once
  and only after it is on disk;
* ``{"type": "prompt", "state": ..., "key": ..., "params": {...}}`` after every input;
* ``{"type": "cue", "cue": "tap"}``, ``{"type": "error", "error": KEY, "params": {...}}``;
* ``{"type": "enrolled", ...}``, ``{"type": "expect", "ok": ..., "line": N}``, ``{"type": "bye"}``;
* ``{"type": "reader_connected" | "reader_lost", "reader": ...}`` as readers come and go.

A restart with the same database resumes the game (``{"type": "ready", "resumed": true, ...}``). Exit
status: 0, or 1 when an ``expect`` line failed, or 2 when the arguments are wrong.

The banker's clock: real time (monotonic, plus every ``wait``) when a ``--reader`` is given or stdin is a
terminal; otherwise (a script piped in) only ``wait`` moves it, so a replay is deterministic however
loaded the machine is. ``BOARDBANK_CLOCK=real`` or ``=manual`` overrides the choice.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import threading
from typing import Any, TextIO

from engine.banker.machine import Reaction
from engine.banker.tapscript import Expect, ExpectationFailed, Interpreter, Step, TapScriptError
from engine.records import event_to_record
from reader.base import ReaderError
from reader.events import CardPresented, ReaderConnected, ReaderEvent, ReaderLost
from reader.registry import RegistryError
from ui.compose import Built, build

TICK_S = 0.1  # seconds between clock ticks while no input arrives


class Headless:
    """The loop: inputs from one queue, reactions as JSON lines on ``out``."""

    def __init__(self, built: Built, out: TextIO) -> None:
        self.built = built
        self.out = out
        self.inputs: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._printed: set[tuple[int, int]] = set()  # (game id, seq) already printed
        self.failed_expectations = 0
        self.interpreter = Interpreter(built.banker, on_enroll=self._enroll, on_wait=built.advance,
                                       on_reaction=self._reacted, on_expect=self._expected)

    def emit(self, obj: dict[str, Any]) -> None:
        """Write one JSON line and flush it."""
        self.out.write(json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n")
        self.out.flush()

    def report(self, reaction: Reaction, quiet: bool = False) -> None:
        """Print a reaction: its durable events (once each), cues, error and the prompt."""
        durable = self.built.banker.durable
        game_id = durable.game_id if durable is not None else 0
        for event in reaction.events:
            key = (game_id, event.seq)
            if key in self._printed:
                continue
            self._printed.add(key)
            self.emit({"type": "event", "game": game_id, "seq": event.seq, "event": event_to_record(event)})
        for cue in reaction.cues:
            self.emit({"type": "cue", "cue": str(cue)})
            for reader in self.built.readers:
                reader.cue(str(cue))
        if reaction.error is not None:
            self.emit({"type": "error", "error": reaction.error, "params": reaction.params})
        if not quiet:
            self.emit({"type": "prompt", "state": reaction.view.state, "key": reaction.prompt.key,
                       "params": reaction.prompt.as_dict(), "actions": list(reaction.view.actions)})

    def handle_line(self, text: str, lineno: int) -> None:
        """One stdin line: played by the tap-script interpreter, whose hooks print what happened."""
        words = text.split()
        if words and words[0].lower() == "enroll":
            text = "card " + " ".join(words[1:])
        try:
            self.interpreter.line(text, lineno)
        except TapScriptError as exc:
            self.emit({"type": "error", "error": "error.bad_line", "params": {"message": str(exc)}})

    def _enroll(self, uid: str, kind: str, value: int | None) -> object:
        try:
            card = self.built.registry.enroll(uid, kind, value)
        except (RegistryError, ValueError) as exc:
            self.emit({"type": "error", "error": "error.enroll", "params": {"message": str(exc)}})
            return None
        self.emit({"type": "enrolled", "uid": card.uid, "kind": card.kind, "value": card.value})
        return card

    def _reacted(self, step: Step, reaction: object) -> None:
        assert isinstance(reaction, Reaction)
        self.report(reaction)

    def _expected(self, step: Expect, failure: ExpectationFailed | None) -> None:
        if failure is None:
            self.emit({"type": "expect", "ok": True, "line": step.line})
        else:
            self.failed_expectations += 1
            self.emit({"type": "expect", "ok": False, "line": step.line, "message": str(failure)})

    def reader_sink(self, event: ReaderEvent) -> None:
        """Called from reader threads: hand the event to the banker's thread."""
        self.inputs.put(("reader", event))

    def stdin_pump(self, stream: TextIO) -> None:
        """Thread body: every stdin line onto the queue, then end-of-input."""
        for line in stream:
            self.inputs.put(("line", line))
        self.inputs.put(("eof", None))

    def run(self, stream: TextIO) -> int:
        """Serve until end of input; returns the exit status."""
        banker = self.built.banker
        durable = banker.durable
        self.emit({"type": "ready", "db": str(self.built.db), "resumed": durable is not None,
                   "game": durable.game_id if durable else None, "seq": banker.last_seq,
                   "state": banker.state_name})
        if durable is not None:  # already on disk: never printed again after a restart
            self._printed.update((durable.game_id, e.seq) for e in durable.game.events)
        for reader in self.built.readers:
            reader.start(self.reader_sink)
        threading.Thread(target=self.stdin_pump, args=(stream,), name="headless-stdin", daemon=True).start()
        lineno = 0
        while True:
            try:
                kind, payload = self.inputs.get(timeout=TICK_S)
            except queue.Empty:
                before = (banker.state, banker.last_seq)
                reaction = banker.tick()
                if (banker.state, banker.last_seq) != before:
                    self.report(reaction)
                continue
            if kind == "eof":
                break
            if kind == "line":
                lineno += 1
                self.handle_line(str(payload), lineno)
            elif isinstance(payload, CardPresented):
                self.report(banker.tap(payload.uid))
            elif isinstance(payload, ReaderLost):
                self.emit({"type": "reader_lost", "reader": payload.reader, "reason": payload.reason})
            elif isinstance(payload, ReaderConnected):
                self.emit({"type": "reader_connected", "reader": payload.reader, "info": payload.info})
        self.emit({"type": "bye", "seq": banker.last_seq})
        return 1 if self.failed_expectations else 0


def manual_clock_wanted(args: argparse.Namespace, stdin: TextIO) -> bool:
    """Whether only ``wait`` lines move the clock (see the module docstring)."""
    forced = os.environ.get("BOARDBANK_CLOCK", "").lower()
    if forced in ("real", "manual"):
        return forced == "manual"
    return not getattr(args, "reader", None) and not stdin.isatty()


def main(args: argparse.Namespace) -> int:
    """The ``headless`` subcommand; returns the exit status."""
    try:
        built = build(args, default_readers=[], manual_clock=manual_clock_wanted(args, sys.stdin))
    except (OSError, ValueError) as exc:
        print(f"boardbank headless: {exc}", file=sys.stderr)
        return 2
    try:
        return Headless(built, sys.stdout).run(sys.stdin)
    except ReaderError as exc:
        print(f"boardbank headless: {exc}", file=sys.stderr)
        return 2
    finally:
        built.close()
