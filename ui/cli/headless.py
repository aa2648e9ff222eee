"""``boardbank headless``: the banker without a screen.

Lines on stdin use the tap-script verbs (engine/banker/tapscript.py): ``tap UID``, ``press BUTTON [VALUE]``,
``choose VALUE``, ``wait SECONDS`` (moves the banker's clock on, for tests), ``enroll UID ROLE [VALUE]``
(or ``card ...``), ``alias NAME UID`` and ``expect ...``. Readers given with ``--reader`` feed taps too:
their threads put card presentations on one queue, and the banker runs on this one thread.

stdout gets one JSON object per line:

* ``{"type": "event", "game": G, "seq": N, "event": {...}}`` for every durable engine event, printed once
  and only after it is on disk;
* ``{"type": "prompt", "state": ..., "key": ..., "params": {...}, "actions": [...]}`` after every input
  (the buttons allowed now: a menu question such as ``prompt.confirm_new_game`` offers ``press_ok`` and
  ``press_cancel``; setup after New game offers ``press_back``, the game left named by ``back_names``);
* ``{"type": "cue", "cue": "tap"}``, ``{"type": "error", "error": KEY, "params": {...}}``;
* ``{"type": "enrolled", ...}``, ``{"type": "expect", "ok": ..., "line": N}``, ``{"type": "bye"}``;
* ``{"type": "reader_connected" | "reader_lost", "reader": ...}`` as readers come and go;
* ``{"type": "share", "url": ...}`` with ``--share``: the live page's URL at the start and when a new game
  gives it a new token (docs/share.md).
* count it (docs/flows.md, "Count it"): ``{"type": "question", ...}`` while a counting player's question is
  asked (``choose N`` answers, ``press skip`` skips), ``{"type": "counted", ...}`` when it ended, and
  ``{"type": "scores", ...}`` when scores change, at the standings and after ``ready`` (a kept question too);
* ``{"type": "card_known", "uid", "kind", "value", "from": "record"}`` when a card not in the registry
  named itself by its NDEF record (:mod:`ui.cardrecord`) and was enrolled; an ``error`` line with a
  ``error.sticker_*`` key when a record is refused (it contradicts the registry or names a role another card
  holds, both named; another edition's card; a record outside the grammar; a sticker saying banker), its
  ``*_key`` parameters themselves catalog keys (:mod:`ui.cardtext`).

With ``--speak-to DIR`` each payment, whose turn it is and the standings are also said into DIR (``NNNN.wav``
and ``NNNN.txt``, in ``--lang``) by a worker thread that never holds up an input (ui/story/speech.py: espeak-ng
in-process, or Piper where a model of the language is installed).

A restart with the same database resumes the game and what the players were in the middle of
(``{"type": "ready", "resumed": true, "state": ..., "prompt": {...}, ...}``: the state and prompt they were
before). On a full disk or a read-only mount the unit comes up read-only: ``"read_only"`` in the ready line
says why (else it is null), the game is shown, and every command is refused with ``error.storage``. Exit status: 0, or 1 when an ``expect`` line failed, or 2 when the arguments are wrong.

Input ids: a line may start with ``id=ID`` (1..64 printable ASCII characters, no space), or be a JSON
object ``{"id": "ID", "line": "tap 04A1"}``. Every object printed for that line carries ``"id": ID``. A
line whose id is known (it completed a command in the journal, or is among the last 512 inputs) is not
applied again: it is answered with ``{"type": "duplicate", "id": ..., "command": N | null}``, the events of
its command again (``"replayed": true``) and the current prompt (engine/banker/inputs.py says what a
restart keeps).

Bad input never stops the loop: a line that is not UTF-8, holds a NUL or another control character, is
longer than 4096 bytes, or is not a step gets one ``error.bad_line`` (its message cut to a short quote)
and changes nothing. Every printed line is valid UTF-8 JSON.

The banker's clock: real time (monotonic, plus every ``wait``) when a ``--reader`` is given or stdin is a
terminal; otherwise (a script piped in) only ``wait`` moves it, so a replay is deterministic however
loaded the machine is. ``BOARDBANK_CLOCK=real`` or ``=manual`` overrides the choice.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sqlite3
import sys
import threading
from typing import Any, TextIO

from engine.banker.machine import Reaction
from engine.banker.tapscript import Expect, ExpectationFailed, Interpreter, Step, TapScriptError
from engine.records import event_to_record
from engine.store.faults import storage_words
from reader.base import ReaderError
from reader.events import CardPresented, ReaderConnected, ReaderEvent, ReaderLost
from reader.registry import RegistryError
from ui.cardrecord import resolve
from ui.cli.headless_lines import MAX_LINE_BYTES, BadLine, decode_line
from ui.compose import Built, build

TICK_S = 0.1  # seconds between clock ticks while no input arrives


class Headless:
    """The loop: inputs from one queue, reactions as JSON lines on ``out``."""

    def __init__(self, built: Built, out: TextIO, speaker: Any = None) -> None:
        self.built = built
        self.speaker = speaker  # ui.story.speech.Speaker with --speak-to: says each new durable event
        self._share_url = ""  # the live page's URL last printed (``--share``)
        self.out = out
        self.inputs: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._printed: set[tuple[int, int]] = set()  # (game id, seq) already printed
        self._id: str | None = None  # the id of the line being handled, echoed on all it prints
        self.failed_expectations = 0
        self._scores: list[dict[str, Any]] = []  # count it: the scores last printed
        self.interpreter = Interpreter(built.banker, on_enroll=self._enroll, on_wait=built.advance,
                                       on_reaction=self._reacted, on_expect=self._expected)

    def emit(self, obj: dict[str, Any]) -> None:
        """Write one JSON line (valid UTF-8: a text that cannot be encoded is escaped) and flush it."""
        if self._id is not None:
            obj = {**obj, "id": self._id}
        text = json.dumps(obj, ensure_ascii=False, sort_keys=True)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = json.dumps(obj, ensure_ascii=True, sort_keys=True)
        self.out.write(text + "\n")
        self.out.flush()

    def report(self, reaction: Reaction, quiet: bool = False) -> None:
        """Print a reaction: its durable events (once each), cues, error and the prompt."""
        durable = self.built.banker.durable
        game_id = durable.game_id if durable is not None else 0
        if reaction.duplicate:
            command = reaction.events[0].command if reaction.events else None
            self.emit({"type": "duplicate", "command": command})
        fresh: list[Any] = []  # the events printed now for the first time (said with --speak-to)
        for event in reaction.events:
            key = (game_id, event.seq)
            if reaction.duplicate:
                self.emit({"type": "event", "game": game_id, "seq": event.seq, "event": event_to_record(event),
                           "replayed": True})
                continue
            if key in self._printed:
                continue
            self._printed.add(key)
            self.emit({"type": "event", "game": game_id, "seq": event.seq, "event": event_to_record(event)})
            fresh.append(event)
        if self.speaker is not None and fresh:
            self.speaker.events(fresh, reaction.view)
        for cue in reaction.cues:
            self.emit({"type": "cue", "cue": str(cue)})
            for reader in self.built.readers:
                reader.cue(str(cue))
        if reaction.error is not None:
            self.emit({"type": "error", "error": reaction.error, "params": reaction.params})
        if self.built.share is not None:
            self.built.share.publish_reaction(self.built.banker, reaction)
            self._announce_share()
        if not quiet:
            self.emit({"type": "prompt", "state": reaction.view.state, "key": reaction.prompt.key,
                       "params": reaction.prompt.as_dict(), "actions": list(reaction.view.actions)})
        self._count_lines(reaction.view)

    def _count_lines(self, view: Any) -> None:
        """Count it's lines (the module docstring): a question never shows its answer."""
        q = getattr(view, "question", None)
        if q is not None:
            self.emit({"type": "question", "player": q.player, "role": q.role, "rule": q.rule,
                       "terms": dict(q.terms), "deed": q.deed, "tries": q.tries, "given": q.given,
                       "note": q.note or None})  # a change question: the note paid with (terms: note, paid)
        done = getattr(view, "counted", None)
        if done is not None:
            self.emit({"type": "counted", "player": done.player, "amount": done.amount, "outcome": done.outcome,
                       "given": done.given})
        scores = [{"player": s.player, "right": s.right, "answered": s.answered} for s in getattr(view, "scores", ())]
        if scores and (scores != self._scores or view.state == "over"):
            self._scores = scores
            self.emit({"type": "scores", "scores": scores, "over": view.state == "over"})

    def _announce_share(self) -> None:
        """``{"type": "share", "url": ...}`` when the page's URL is new (the start, a New game)."""
        share = self.built.share
        if share is not None and share.url != self._share_url:
            self._share_url = share.url
            self.emit({"type": "share", "url": share.url})

    def handle_line(self, raw: bytes | str, lineno: int) -> None:
        """One stdin line (bytes or text): its id, then played by the tap-script interpreter, whose hooks
        print what happened; a bad line prints one ``error.bad_line`` and changes nothing."""
        try:
            input_id, text = decode_line(raw)
        except BadLine as exc:
            self.emit({"type": "error", "error": "error.bad_line", "params": {"message": f"line {lineno}: {exc}"}})
            return
        words = text.split()
        if words and words[0].lower() == "enroll":
            text = "card " + " ".join(words[1:])
        self._id = input_id
        try:
            self.interpreter.line(text, lineno, input_id)
        except TapScriptError as exc:
            self.emit({"type": "error", "error": "error.bad_line", "params": {"message": str(exc)}})
        finally:
            self._id = None

    def on_card(self, event: CardPresented) -> None:
        """A card on a reader: its role from the registry, else from the NDEF record it carries (then
        enrolled: ``card_known``); a record that contradicts the registry is refused with both named."""
        resolution = resolve(event.uid, event.record, self.built.registry, self.built.edition.id)
        if resolution.refusal:
            self.emit({"type": "error", "error": resolution.refusal, "params": dict(resolution.params)})
            return
        if resolution.source == "record" and resolution.role is not None:
            kind, value = resolution.role
            self.emit({"type": "card_known", "uid": event.uid, "kind": kind, "value": value, "from": "record"})
        self.report(self.built.banker.tap(event.uid))

    def _enroll(self, uid: str, kind: str, value: int | None) -> object:
        try:
            card = self.built.registry.enroll(uid, kind, value)
        except (RegistryError, ValueError) as exc:
            self.emit({"type": "error", "error": "error.enroll", "params": {"message": str(exc)}})
            return None
        except (sqlite3.Error, OSError) as exc:  # a full disk, a read-only file: nothing was enrolled
            self.emit({"type": "error", "error": "error.storage", "params": {"reason": storage_words(exc)}})
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
        """Thread body: every stdin line onto the queue (as bytes when the stream has a binary buffer: a
        line longer than :data:`MAX_LINE_BYTES` is skipped, not read whole), then end-of-input."""
        binary = getattr(stream, "buffer", None)
        try:
            if binary is None:
                for line in stream:
                    self.inputs.put(("line", line))
            else:
                while chunk := binary.readline(MAX_LINE_BYTES + 1):
                    if len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n"):
                        size = len(chunk)
                        while more := binary.readline(65536):
                            size += len(more)
                            if more.endswith(b"\n"):
                                break
                        self.inputs.put(("long", size))
                    else:
                        self.inputs.put(("line", chunk))
        finally:
            self.inputs.put(("eof", None))

    def run(self, stream: TextIO) -> int:
        """Serve until end of input; returns the exit status."""
        banker = self.built.banker
        durable = banker.durable
        edition = durable.game.edition if durable is not None else banker.setup_edition
        ready: dict[str, Any] = {"type": "ready", "db": str(self.built.db), "resumed": durable is not None,
                                 "game": durable.game_id if durable else None, "edition": edition.id,
                                 "ruleset": edition.ruleset}
        notice = getattr(self.built, "notice", "")
        if notice:
            print(f"boardbank headless: {notice}", file=sys.stderr)
            ready["notice"] = notice
        self.emit({**ready, "seq": banker.last_seq,
                   "state": banker.state_name, "prompt": {"key": banker.view.prompt.key,
                                                          "params": banker.view.prompt.as_dict()},
                   "read_only": self.built.read_only})  # why nothing can be recorded (None: it can)
        self._announce_share()
        self._count_lines(banker.view)  # count it: a question kept on the screen through a restart, the scores
        if durable is not None:  # already on disk: never printed again after a restart
            self._printed.update((durable.game_id, e.seq) for e in durable.game.events)
        for reader in self.built.readers:
            reader.set_known(lambda uid: self.built.registry.lookup(uid) is not None)
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
                self.handle_line(payload, lineno)
            elif kind == "long":
                lineno += 1
                self.emit({"type": "error", "error": "error.bad_line", "params": {
                    "message": f"line {lineno}: the line is {payload} bytes long; at most {MAX_LINE_BYTES}"}})
            elif isinstance(payload, CardPresented):
                self.on_card(payload)
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
    from ui.share.wiring import check_share, release_share, start_share

    try:
        check_share(args)  # the share's address is taken before the installation file is opened
        if getattr(args, "speak_to", None):
            from ui.story.speech import check_speak_to

            check_speak_to(args.speak_to)
        built = build(args, default_readers=[], manual_clock=manual_clock_wanted(args, sys.stdin))
    except (OSError, ValueError, RuntimeError) as exc:
        release_share(args)
        print(f"boardbank headless: {exc}", file=sys.stderr)
        return 2
    try:
        start_share(args, built, lambda text: print(f"boardbank headless: {text}", file=sys.stderr))
    except (OSError, ValueError) as exc:
        built.close()
        print(f"boardbank headless: {exc}", file=sys.stderr)
        return 2
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(encoding="utf-8", errors="strict")  # JSON lines are UTF-8 whatever the locale
    try:
        speaker = _speaker(args, built)
    except (OSError, ValueError, RuntimeError) as exc:
        built.close()
        print(f"boardbank headless: {exc}", file=sys.stderr)
        return 2
    try:
        return Headless(built, sys.stdout, speaker).run(sys.stdin)
    except ReaderError as exc:
        print(f"boardbank headless: {exc}", file=sys.stderr)
        return 2
    finally:
        if speaker is not None:
            speaker.close()
        built.close()


def _speaker(args: argparse.Namespace, built: Built) -> Any:
    """``--speak-to DIR``: a ui.story.speech.Speaker in ``--lang`` (else the edition's language), or None."""
    folder = getattr(args, "speak_to", None)
    if not folder:
        return None
    from ui.story.speech import Speaker

    lang = getattr(args, "lang", None) or built.edition.language
    durable = built.banker.durable
    return Speaker(folder, lang if lang in ("en", "ru", "ro", "ja") else "en",
                   on_error=lambda text: print(f"boardbank headless: speech: {text}", file=sys.stderr),
                   game=durable.game if durable is not None else None)
