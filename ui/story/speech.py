"""Speech: the table's story said aloud, written to files for now (``boardbank headless --speak-to DIR``).

A :class:`Speaker` takes texts on the caller's thread (never waiting) and a worker thread turns each into
sound with a :class:`Voice`: ``DIR/0001.wav`` with its text beside it in ``DIR/0001.txt``, numbered in the
order said. The voice is Debian's ``espeak-ng -v LANG -w FILE TEXT``; Japanese is read from kana only, so
its texts are given readings first (:func:`kana_reading`, pykakasi when installed). Playing through the
sound output later is another :class:`Sink` (e.g. ``aplay FILE`` after the file is written).

What is said (:func:`utterance`): each payment's sentence, whose turn it is, the standings at the end.
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from engine import events as ev
from engine.receipts import Receipt, ReceiptBook, money_of
from ui.i18n import Translator
from ui.story.names import Names
from ui.story.sentences import sentence

ESPEAK = "espeak-ng"
SYNTH_TIMEOUT_S = 30.0  # one utterance's synthesis at most (espeak-ng takes ~0.1 s a sentence)


class SpeechError(RuntimeError):
    """No voice for a language, or a voice that failed."""


class Voice(Protocol):
    """Turns ``text`` into a WAV file at ``path``."""

    def synth(self, text: str, path: Path) -> None: ...


class Sink(Protocol):
    """What happens to each utterance once its WAV is written (the files are kept in every case)."""

    def done(self, number: int, text: str, wav: Path) -> None: ...


def espeak_path() -> str | None:
    """Where espeak-ng is installed (None when it is not)."""
    return shutil.which(ESPEAK)


@cache
def _kakasi() -> Any:
    import pykakasi  # type: ignore[import-not-found,unused-ignore]

    return pykakasi.kakasi()


def kana_reading(text: str) -> str:
    """``text`` with its kanji given as hiragana (espeak-ng's Japanese voice reads kana only; it names a
    kanji as a "Chinese letter"); unchanged when pykakasi is not installed."""
    try:
        kakasi = _kakasi()
    except ImportError:
        return text
    return "".join(part["hira"] if part["orig"] != part["hira"] and any(
        "\u4e00" <= ch <= "\u9fff" for ch in part["orig"]) else part["orig"] for part in kakasi.convert(text))


class EspeakVoice:
    """``espeak-ng -v LANG -w FILE TEXT`` (Japanese given its kana reading)."""

    def __init__(self, lang: str, program: str | None = None) -> None:
        found = program or espeak_path()
        if found is None:
            raise SpeechError("espeak-ng is not installed (scripts/install-system-deps.sh installs it)")
        self.program = found
        self.lang = lang

    def synth(self, text: str, path: Path) -> None:
        said = kana_reading(text) if self.lang == "ja" else text
        done = subprocess.run([self.program, "-v", self.lang, "-w", str(path), "--", said], capture_output=True,
                              timeout=SYNTH_TIMEOUT_S, check=False)
        if done.returncode != 0 or not path.exists():
            raise SpeechError(f"espeak-ng -v {self.lang} failed ({done.returncode}): "
                              f"{done.stderr.decode(errors='replace').strip()[:200]}")


def check_speak_to(folder: str | Path) -> Path:
    """The ``--speak-to`` folder made ready before anything else starts; :class:`SpeechError` names the
    folder and why it cannot be used, or that espeak-ng is missing."""
    path = Path(folder)
    if espeak_path() is None:
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


class Speaker:
    """Says texts through a worker thread into ``folder`` (``NNNN.wav`` + ``NNNN.txt``), in order.

    :meth:`say` and :meth:`events` return at once; :meth:`close` waits for what is queued (at most
    ``timeout_s``). A failed utterance is counted in ``failures`` and logged by ``on_error``; the game goes on.
    """

    def __init__(self, folder: Path, lang: str, voice: Voice | None = None, sink: Sink | None = None,
                 on_error: Callable[[str], None] | None = None, game: Any = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.lang = lang
        self.voice = voice or EspeakVoice(lang)
        self.sink = sink
        self.on_error = on_error or (lambda message: None)
        self.tr = Translator(lang)
        self.book = ReceiptBook(game.edition, game.events) if game is not None else ReceiptBook()
        self.count = 0
        self.written = 0
        self.failures = 0
        self.busy_s = 0.0  # seconds the worker spent making sound
        self._queue: queue.Queue[tuple[int, str] | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work, name="speaker", daemon=True)
        self._worker.start()

    def say(self, text: str) -> None:
        """Queue ``text`` (numbered now, in the order said)."""
        if text.strip():
            self.count += 1
            self._queue.put((self.count, text))

    def events(self, events: Any, view: Any) -> None:
        """Say what :func:`utterance` says for each new durable event (whole commands, in order), naming
        things as ``view`` does; the receipts come from the book of the game (``game``: a resumed one's)."""
        names = Names.from_view(view, self.lang, self.tr)
        for event, receipt in self.book.add(tuple(events)):
            self.say(utterance(event, names, receipt))

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            number, text = item
            stem = self.folder / f"{number:04d}"
            started = time.perf_counter()
            try:
                stem.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")
                self.voice.synth(text, stem.with_suffix(".wav"))
                self.written += 1
                if self.sink is not None:
                    self.sink.done(number, text, stem.with_suffix(".wav"))
            except (OSError, SpeechError, subprocess.SubprocessError) as exc:
                self.failures += 1
                self.on_error(f"utterance {number}: {exc}")
            self.busy_s += time.perf_counter() - started

    def close(self, timeout_s: float = 120.0) -> bool:
        """Say what is queued, then stop the worker; False if it did not finish within ``timeout_s``."""
        self._queue.put(None)
        self._worker.join(timeout_s)
        return not self._worker.is_alive()


def voices() -> dict[str, str]:
    """Language -> the voice the unit has for it (``espeak-ng ru``, ``piper MODEL``), ``""`` for none."""
    found: dict[str, str] = {lang: "" for lang in ("en", "ru", "ro", "ja")}
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
    for lang, model in piper_models().items():
        if lang in found:
            found[lang] = f"piper {model.name}" + (f"; {found[lang]}" if found[lang] else "")
    return found


def piper_models(folder: Path | None = None) -> dict[str, Path]:
    """Language -> a Piper voice model (``.onnx`` with its ``.onnx.json``, named ``LANG_...``) in
    ``$BOARDBANK_VOICES``, else ``voices/`` in the data directory, when the ``piper-tts`` package is
    installed; nothing is ever downloaded."""
    import importlib.util
    import os

    if importlib.util.find_spec("piper") is None:
        return {}
    from ui.paths import data_dir

    where = folder or Path(os.environ.get("BOARDBANK_VOICES", "") or data_dir() / "voices")
    out: dict[str, Path] = {}
    for model in sorted(where.glob("*.onnx")) if where.is_dir() else []:
        if model.with_suffix(".onnx.json").exists():
            out.setdefault(model.name.split("_")[0].split("-")[0], model)
    return out
