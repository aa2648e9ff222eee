"""espeak-ng's voices: in-process through Debian's libespeak-ng (ctypes), else one ``espeak-ng`` process per
utterance.

The library is loaded and its voice data read once, as the speaker starts (on its worker thread, beside
the game's start-up); each utterance is then synthesised in the process into one WAV (22,050 Hz, mono, 16-bit,
as ``espeak-ng -w`` writes). ctypes releases the GIL while espeak-ng works, so the banker's thread runs
beside it. A process per utterance cost ~30 ms of start-up and voice loading each (2.4-3x a silent game's
run, bench/bench_speech.py); the library takes ~2 ms a sentence, and a text said lately (whose turn it is)
is given its samples again (:data:`RECENT_BYTES` of them kept). Japanese is read from kana only (a kanji is
said as "Chinese letter"), so its texts are given readings first (:func:`kana_reading`, pykakasi when
installed). ``BOARDBANK_ESPEAK=process`` forces the process voice.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import threading
import wave
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any

ESPEAK = "espeak-ng"
SYNTH_TIMEOUT_S = 30.0  # one utterance's synthesis at most (espeak-ng takes ~0.1 s a sentence)
LIBRARY_NAMES = ("libespeak-ng.so.1", "libespeak-ng.so", "libespeak-ng.dylib")
BUFFER_MS = 1000  # the library hands samples over in chunks of this many milliseconds of sound
RECENT_BYTES = 2 << 20  # samples of the texts said lately kept for a repeat, in bytes (~48 s of speech)

_AUDIO_OUTPUT_SYNCHRONOUS = 2
_POS_CHARACTER = 1
_CHARS_UTF8 = 1
_ENDPAUSE = 0x1000  # a pause at the end of the text, as the espeak-ng command adds
_INITIALIZE_DONT_EXIT = 0x8000
_RATE, _RATE_NORMAL = 1, 175  # espeakRATE, words a minute: espeak-ng's default, as the command speaks


class SpeechError(RuntimeError):
    """No voice for a language, or a voice that failed."""


def espeak_path() -> str | None:
    """Where the espeak-ng command is installed (None when it is not)."""
    return shutil.which(ESPEAK)


@cache
def _kakasi() -> Any:
    import pykakasi  # type: ignore[import-not-found,unused-ignore]

    return pykakasi.kakasi()  # type: ignore[no-untyped-call,unused-ignore]


def kana_reading(text: str) -> str:
    """``text`` with its kanji given as hiragana (espeak-ng's Japanese voice reads kana only; it names a
    kanji as a "Chinese letter"); unchanged when pykakasi is not installed."""
    try:
        kakasi = _kakasi()
    except ImportError:
        return text
    return "".join(part["hira"] if part["orig"] != part["hira"] and any(
        "\u4e00" <= ch <= "\u9fff" for ch in part["orig"]) else part["orig"] for part in kakasi.convert(text))


def write_wav(path: Path, samples: bytes, rate: int) -> None:
    """``samples`` (16-bit mono PCM at ``rate`` Hz) as a WAV file at ``path``."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples)


_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p)


class _Library:
    """The process's one libespeak-ng engine (its state is global: one utterance at a time, under a lock)."""

    def __init__(self, lib: Any) -> None:
        self.lib = lib
        self.lock = threading.Lock()
        lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.espeak_Initialize.restype = ctypes.c_int
        lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        lib.espeak_SetVoiceByName.restype = ctypes.c_int
        lib.espeak_SetSynthCallback.argtypes = [_CALLBACK]
        lib.espeak_SetSynthCallback.restype = None
        lib.espeak_Synth.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_int, ctypes.c_uint,
                                     ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]
        lib.espeak_Synth.restype = ctypes.c_int
        lib.espeak_SetParameter.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
        lib.espeak_SetParameter.restype = ctypes.c_int
        self.voice = ""
        self.rate = 0
        self._chunks: list[bytes] = []
        self._recent: OrderedDict[tuple[str, str], bytes] = OrderedDict()  # (lang, text) -> samples
        self._recent_bytes = 0
        self._callback = _CALLBACK(self._collect)  # kept referenced: the library calls it
        self._start()

    def _start(self) -> None:
        self.rate = int(self.lib.espeak_Initialize(_AUDIO_OUTPUT_SYNCHRONOUS, BUFFER_MS, None, _INITIALIZE_DONT_EXIT))
        if self.rate <= 0:
            raise SpeechError(f"libespeak-ng did not start ({self.rate}): its voice data is missing?")
        self.lib.espeak_SetSynthCallback(self._callback)

    def _collect(self, wav: Any, count: int, _events: Any) -> int:
        if wav and count > 0:
            self._chunks.append(ctypes.string_at(wav, count * 2))
        return 0

    def select(self, lang: str) -> None:
        """Make ``lang``'s voice the current one (its dictionary is read now); call under :attr:`lock`."""
        if self.voice != lang:
            if self.lib.espeak_SetVoiceByName(lang.encode()) != 0:
                raise SpeechError(f"libespeak-ng has no voice {lang!r}")
            self.lib.espeak_SetParameter(_RATE, _RATE_NORMAL, 0)  # else the previous voice's pace stays
            self.voice = lang

    def synth(self, lang: str, text: str) -> bytes:
        """``text`` said in ``lang``'s voice: 16-bit mono PCM samples at :attr:`rate`. A text said lately
        (whose turn it is comes back every turn) is given the same samples again, not synthesised anew."""
        key = (lang, text)
        with self.lock:
            if key in self._recent:
                self._recent.move_to_end(key)
                return self._recent[key]
            samples = self._synth(lang, text)
            self._recent[key] = samples
            self._recent_bytes += len(samples)
            while self._recent_bytes > RECENT_BYTES and len(self._recent) > 1:
                self._recent_bytes -= len(self._recent.popitem(last=False)[1])
            return samples

    def _synth(self, lang: str, text: str) -> bytes:
        """``text`` synthesised now; call under :attr:`lock`."""
        self.select(lang)
        data = text.encode("utf-8")
        self._chunks = []
        failed = self.lib.espeak_Synth(data, len(data) + 1, 0, _POS_CHARACTER, 0, _CHARS_UTF8 | _ENDPAUSE,
                                       None, None)
        chunks, self._chunks = self._chunks, []
        if failed:
            raise SpeechError(f"libespeak-ng -v {lang} failed ({failed})")
        return b"".join(chunks)


_library_lock = threading.Lock()
_library: list[_Library | None] = []  # [] not tried yet; [None] not available here


@cache
def library_path() -> str | None:
    """The libespeak-ng shared library to load (None when none is installed); looked for once (a dlopen of
    its usual names, ~3 ms, then ``ctypes.util.find_library``, which runs ``ldconfig``)."""
    for name in LIBRARY_NAMES:
        try:
            ctypes.CDLL(name)
        except OSError:
            continue
        return name
    return ctypes.util.find_library("espeak-ng")


def espeak_library() -> _Library | None:
    """The in-process engine, started on first use; None when libespeak-ng is not installed, cannot start,
    or ``BOARDBANK_ESPEAK=process``."""
    if os.environ.get("BOARDBANK_ESPEAK", "").lower() == "process":
        return None
    with _library_lock:
        if not _library:
            path = library_path()
            try:
                _library.append(_Library(ctypes.CDLL(path)) if path else None)
            except (OSError, AttributeError, SpeechError):
                _library.append(None)
        return _library[0]


def espeak_installed() -> bool:
    """Whether espeak-ng can speak here (its command or its library)."""
    return espeak_path() is not None or library_path() is not None


class EspeakVoice:
    """espeak-ng's voice of ``lang`` (Japanese given its kana reading): in-process through libespeak-ng when
    it is installed, else ``espeak-ng -v LANG -w FILE TEXT`` (``program``: that command, which forces it)."""

    def __init__(self, lang: str, program: str | None = None) -> None:
        self.program = program or espeak_path()
        if self.program is None and library_path() is None:
            raise SpeechError("espeak-ng is not installed (scripts/install-system-deps.sh installs it)")
        self.lang = lang
        self.in_process = program is None

    @property
    def name(self) -> str:
        """What doctor and the logs call this voice."""
        return f"espeak-ng {self.lang}"

    def warm(self) -> None:
        """Load what the first utterance would (the library, the language's voice, Japanese readings), so
        that it comes as fast as the others; the speaker's worker calls it before its first text."""
        library = espeak_library() if self.in_process else None
        if library is not None:
            with library.lock:
                library.select(self.lang)
        if self.lang == "ja":
            kana_reading("")

    def synth(self, text: str, path: Path) -> None:
        said = kana_reading(text) if self.lang == "ja" else text
        library = espeak_library() if self.in_process else None
        if library is not None:
            try:
                write_wav(path, library.synth(self.lang, said), library.rate)
                return
            except SpeechError:
                if self.program is None:  # else the command says this one
                    raise
        if self.program is None:
            raise SpeechError("libespeak-ng did not start and the espeak-ng command is not installed")
        done = subprocess.run([self.program, "-v", self.lang, "-w", str(path), "--", said], capture_output=True,
                              timeout=SYNTH_TIMEOUT_S, check=False)
        if done.returncode != 0 or not path.exists():
            raise SpeechError(f"espeak-ng -v {self.lang} failed ({done.returncode}): "
                              f"{done.stderr.decode(errors='replace').strip()[:200]}")
