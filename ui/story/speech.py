"""Speech: the table's story said aloud, written to files for now (``boardbank headless --speak-to DIR``).

A :class:`Speaker` takes texts on the caller's thread (never waiting) and a worker thread turns each into
sound with a :class:`Voice`: ``DIR/0001.wav`` with its text beside it in ``DIR/0001.txt``, numbered in the
order said. The voice (:func:`voice_for`) is Piper's where a model of the language is installed
(ui/story/speech_piper.py), else espeak-ng's, in-process through libespeak-ng (ui/story/speech_espeak.py);
Japanese is given kana readings for espeak-ng. Playing through the sound output is a :class:`Player` sink
(ui/touch/voice.py's KivyPlayer).

What is said (:func:`utterance`): each payment's sentence, whose turn it is, the standings at the end.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from engine import events as ev
from engine.receipts import Receipt, ReceiptBook, money_of
from ui.i18n import Translator
from ui.money import format_money
from ui.story.names import Names
from ui.story.sentences import sentence
from ui.story.speech_espeak import (
    EspeakVoice,
    SpeechError,
    _kakasi,
    espeak_installed,
    espeak_path,
    kana_reading,
)
from ui.story.speech_piper import LANGS, PiperVoice, installed_models, piper_engine

__all__ = ["EspeakVoice", "PiperVoice", "Player", "Sink", "Speaker", "SpeechError", "Voice", "check_speak_to",
           "espeak_installed", "espeak_path", "kana_reading", "piper_models", "utterance", "voice_for", "voices"]


class Voice(Protocol):
    """Turns ``text`` into a WAV file at ``path``."""

    def synth(self, text: str, path: Path) -> None: ...


class Sink(Protocol):
    """What happens to each utterance once its WAV is written (the files are kept in every case)."""

    def done(self, number: int, text: str, wav: Path) -> None: ...


class Player(Sink, Protocol):
    """A sink that plays each WAV aloud and can be stopped (a new entry cuts off a stale one)."""

    def stop(self) -> None: ...


def check_speak_to(folder: str | Path) -> Path:
    """The ``--speak-to`` folder made ready before anything else starts; :class:`SpeechError` names the
    folder and why it cannot be used, or that espeak-ng is missing."""
    path = Path(folder)
    if not espeak_installed():
        raise SpeechError(f"--speak-to {folder}: espeak-ng is not installed (scripts/install-system-deps.sh run)")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".boardbank-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise SpeechError(f"--speak-to {folder}: cannot write there: {exc.strerror or exc}") from None
    return path


def utterance(event: Any, names: Names, receipt: Receipt | None = None) -> str:
    """What the unit says for ``event``: a payment's sentence (with its receipt's detail: the hotel, the
    level), whose turn it is, the final standings; "" for anything else."""
    if isinstance(event, ev.TurnEnded | ev.GameEnded) or money_of(event) is not None:
        return sentence(event, names, receipt)
    return ""


class _Told:
    """New durable events to be said, turned into texts on the worker thread (see :meth:`Speaker.events`)."""

    __slots__ = ("events", "view")

    def __init__(self, events: tuple[Any, ...], view: Any) -> None:
        self.events = events
        self.view = view


class Speaker:
    """Says texts through a worker thread into ``folder`` (``NNNN.wav`` + ``NNNN.txt``), in order.

    :meth:`say` and :meth:`events` return at once; :meth:`close` waits for what is queued (at most
    ``timeout_s``). A failed utterance is counted in ``failures`` and logged by ``on_error``; the game goes on.
    Without ``cut_off`` (every utterance written: ``--speak-to``) even the texts are made on the worker thread
    (the sentences, the receipts, the language's number formats: ~70 ms at the first one), numbered there in
    the order queued, so the banker's thread only queues the events.

    ``cut_off`` (the live table): a new text drops the texts still queued (counted in ``dropped``) and stops
    the sink's playing one (``sink.stop()``), and a text made stale while it was synthesised is written but
    not handed to the sink: the table hears the latest entry, never a backlog. ``keep_stale=False`` deletes
    the files of such a stale one (a scratch folder that must not fill up). Texts are numbered when said.
    """

    def __init__(self, folder: Path, lang: str, voice: Voice | None = None, sink: Sink | None = None,
                 on_error: Callable[[str], None] | None = None, game: Any = None, cut_off: bool = False,
                 keep_stale: bool = True) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.lang = lang
        self.sink = sink
        self.on_error = on_error or (lambda message: None)
        self.voice = voice or voice_for(lang, self.on_error)
        self._tr: Translator | None = None
        self._book: ReceiptBook | None = None
        self._resumed = (game.edition, tuple(game.events)) if game is not None else None
        self.count = 0  # utterances numbered (with ``cut_off`` when said, else by the worker)
        self.written = 0
        self.failures = 0
        self.dropped = 0  # texts cut off before they were said (``cut_off``)
        self.cut_off = cut_off
        self.keep_stale = keep_stale  # False: a stale utterance's files are deleted (a scratch folder)
        self._cut_below = 0  # utterances numbered below it are stale (hush)
        self.busy_s = 0.0  # seconds the worker spent making sound
        self._queue: queue.Queue[tuple[int, str] | _Told | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work, name="speaker", daemon=True)
        self._worker.start()

    @property
    def tr(self) -> Translator:
        """The language's catalog (read at its first use: on the worker thread without ``cut_off``)."""
        if self._tr is None:
            self._tr = Translator(self.lang)
        return self._tr

    @property
    def book(self) -> ReceiptBook:
        """The receipts of the game (a resumed one's events first), made at its first use."""
        if self._book is None:
            self._book = ReceiptBook(*self._resumed) if self._resumed is not None else ReceiptBook()
        return self._book

    def say(self, text: str) -> None:
        """Queue ``text`` (in the order said; numbered now with ``cut_off``, else by the worker)."""
        if not text.strip():
            return
        if not self.cut_off:
            self._queue.put((0, text))
            return
        self.count += 1
        self._drop_queued()
        stop = getattr(self.sink, "stop", None)
        if stop is not None:
            stop()
        self._queue.put((self.count, text))

    def latest(self) -> int:
        """The number of the utterance that may still be heard (an older one is stale with ``cut_off``)."""
        return max(self.count, self._cut_below)

    def hush(self) -> None:
        """Say nothing more of what is queued or playing (the voice turned off)."""
        self._cut_below = self.count + 1
        self._drop_queued()
        stop = getattr(self.sink, "stop", None)
        if stop is not None:
            stop()

    def _drop_queued(self) -> None:
        """Take the texts not yet started off the queue (the close marker stays)."""
        kept: list[tuple[int, str] | _Told | None] = []
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is None:
                kept.append(item)
            else:
                self.dropped += 1
        for item in kept:
            self._queue.put(item)

    def events(self, events: Any, view: Any) -> None:
        """Say what :func:`utterance` says for each new durable event (whole commands, in order), naming
        things as ``view`` (an immutable snapshot) does; the receipts come from the book of the game
        (``game``: a resumed one's). Without ``cut_off`` the texts are made on the worker thread."""
        if not self.cut_off:
            self._queue.put(_Told(tuple(events), view))
            return
        for text in self._texts(tuple(events), view):
            self.say(text)

    def _texts(self, events: tuple[Any, ...], view: Any) -> list[str]:
        names = Names.from_view(view, self.lang, self.tr)
        return [text for event, receipt in self.book.add(events) if (text := utterance(event, names, receipt))]

    def _work(self) -> None:
        warm = getattr(self.voice, "warm", None)
        if warm is not None:  # the voice's data loaded while the game starts, not at its first utterance
            with contextlib.suppress(Exception):  # a voice that cannot start: its first utterance says why
                warm()
        if not self.cut_off:  # the texts are made here: the catalog and the number formats read now, while
            with contextlib.suppress(Exception):  # the banker's thread waits on its disk, not at the first one
                format_money(0, "M", self.lang, self.tr)
        while (item := self._queue.get()) is not None:
            if isinstance(item, _Told):
                try:
                    texts = self._texts(item.events, item.view)
                except Exception as exc:  # a sentence that cannot be made: the game and the voice go on
                    self.failures += 1
                    self.on_error(f"utterance after {self.count}: {type(exc).__name__}: {exc}")
                    continue
                for text in texts:
                    self._utter(0, text)
            else:
                self._utter(*item)

    def _utter(self, number: int, text: str) -> None:
        if not number:  # queued without a number: numbered now, in the order queued
            self.count += 1
            number = self.count
        stem = self.folder / f"{number:04d}"
        started = time.perf_counter()
        try:
            stem.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")
            self.voice.synth(text, stem.with_suffix(".wav"))
            self.written += 1
            stale = self.cut_off and number < self.latest()
            if stale:
                self.dropped += 1
                if not self.keep_stale:
                    for path in (stem.with_suffix(".wav"), stem.with_suffix(".txt")):
                        path.unlink(missing_ok=True)
        except Exception as exc:  # a voice that failed (or broke): counted and said, the worker goes on
            self.failures += 1
            self.on_error(f"utterance {number}: {exc}")
            stale = True
        self.busy_s += time.perf_counter() - started
        if self.sink is not None and not stale:
            try:
                self.sink.done(number, text, stem.with_suffix(".wav"))
            except Exception as exc:  # a player that broke: the files are written, the game goes on
                self.on_error(f"utterance {number} not played: {type(exc).__name__}: {exc}")

    def close(self, timeout_s: float = 120.0) -> bool:
        """Say what is queued, then stop the worker; False if it did not finish within ``timeout_s``."""
        self._queue.put(None)
        self._worker.join(timeout_s)
        return not self._worker.is_alive()


def voice_for(lang: str, on_error: Callable[[str], None] | None = None) -> Voice:
    """The voice the unit speaks ``lang`` with: Piper's when a model of that language is installed and Piper
    is (espeak-ng's behind it, for an utterance Piper fails on), else espeak-ng's."""
    model = installed_models().get(lang)
    engine = piper_engine() if model is not None else ""
    try:
        fallback: EspeakVoice | None = EspeakVoice(lang)
    except SpeechError:
        if not engine:
            raise
        fallback = None
    if model is not None and engine:
        return PiperVoice(lang, model, engine, fallback, on_error)
    assert fallback is not None
    return fallback


def voices() -> dict[str, str]:
    """Language -> the voice the unit has for it (``espeak-ng ru``, ``piper ru_RU-irina-medium.onnx (the
    piper command); else espeak-ng ru``), ``""`` for none."""
    found: dict[str, str] = {lang: "" for lang in LANGS}
    program = espeak_path()
    if program is not None:
        try:
            listing = subprocess.run([program, "--voices"], capture_output=True, text=True, timeout=10,
                                     check=False).stdout
        except (OSError, subprocess.SubprocessError):
            listing = ""
        have = {line.split()[1] for line in listing.splitlines()[1:] if len(line.split()) > 1}
        for lang in found:
            if lang in have or any(code.startswith(f"{lang}-") for code in have):
                found[lang] = f"espeak-ng {lang}"
        if found["ja"]:
            try:
                _kakasi()
            except ImportError:
                found["ja"] += " (kana only: pykakasi is not installed, kanji are not read)"
    engine = piper_engine()
    how = {"module": "the piper module", "command": "the piper command"}.get(engine, "")
    for lang, model in installed_models().items():
        if lang not in found:
            continue
        if not engine:
            found[lang] = (found[lang] or "no voice") + f" (Piper's {model.name} is in {model.parent}, but " \
                                                        "piper-tts is not installed)"
        else:
            found[lang] = f"piper {model.name} ({how})" + (f"; else {found[lang]}" if found[lang] else "")
    return found


def piper_models(folders: list[Path] | None = None) -> dict[str, Path]:
    """Language -> the Piper model the unit speaks it with: the models installed (in ``folders``, else the
    places :func:`ui.story.speech_piper.voice_folders` names) when Piper is installed, else none."""
    return installed_models(folders) if piper_engine() else {}
