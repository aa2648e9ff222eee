"""Piper's neural voices, where a voice model is installed on the unit; nothing is ever downloaded.

A model is a ``.onnx`` file with its ``.onnx.json`` beside it, named as Piper's voices are
(``ru_RU-irina-medium.onnx``): the name's first letters are its language. The places looked in, in order
(the first model of a language wins, by file name within a folder):

1. ``$BOARDBANK_VOICES`` (one folder, or several separated by ``:``);
2. ``voices/`` in the installation's data directory (``~/.local/share/boardbank/voices``);
3. ``boardbank/voices/`` in the system's data directories (``/usr/local/share``, ``/usr/share``).

Piper speaks through the ``piper`` Python module when the ``piper-tts`` package is installed in boardbank's
environment (the ``piper`` extra: the model is loaded once, on the first utterance, on the speaker's worker
thread), else through the ``piper`` command (``piper -m MODEL -c MODEL.json -f FILE``, the text on its
standard input: one process per utterance); ``BOARDBANK_PIPER=command``, ``=module`` or ``=off`` chooses. A language without a model speaks with espeak-ng; an utterance
Piper fails on is said by espeak-ng, and so is the rest of the game.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import threading
import wave
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ui.story.speech_espeak import EspeakVoice, SpeechError

PIPER = "piper"
PIPER_TIMEOUT_S = 120.0  # one utterance at most through the command (it loads its model every time)
LANGS = ("en", "ru", "ro", "ja")


def voice_folders() -> list[Path]:
    """Where Piper models are looked for, in order (see the module's docstring)."""
    import platformdirs

    from ui.paths import APP_NAME, data_dir

    env = os.environ.get("BOARDBANK_VOICES", "")
    folders = [Path(part) for part in env.split(os.pathsep) if part]
    folders.append(data_dir() / "voices")
    site = platformdirs.site_data_dir(APP_NAME, appauthor=False, multipath=True)
    folders += [Path(part) / "voices" for part in str(site).split(os.pathsep) if part]
    return folders


def model_language(model: Path) -> str:
    """The language of a Piper model by its file name: ``ru_RU-irina-medium.onnx`` -> ``ru``."""
    return model.name.split("_")[0].split("-")[0].split(".")[0].lower()


def installed_models(folders: list[Path] | None = None) -> dict[str, Path]:
    """Language -> the Piper model found for it (``.onnx`` with its ``.onnx.json``), whether or not Piper
    itself is installed."""
    out: dict[str, Path] = {}
    for folder in voice_folders() if folders is None else folders:
        for model in sorted(folder.glob("*.onnx")) if folder.is_dir() else []:
            if model.with_suffix(".onnx.json").is_file():
                out.setdefault(model_language(model), model)
    return out


def piper_module_installed() -> bool:
    """Whether piper-tts's ``piper`` module is installed here: found, not imported (onnxruntime is heavy; a
    ``piper`` package without ``voice.py`` is another project's)."""
    try:
        spec = importlib.util.find_spec("piper")
    except (ImportError, ValueError):
        return False
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    return any((Path(place) / "voice.py").is_file() for place in places)


def piper_command() -> str | None:
    """The ``piper`` command: on ``PATH``, else beside this Python (a virtual environment's ``bin``)."""
    found = shutil.which(PIPER)
    if found:
        return found
    beside = Path(sys.executable).with_name(PIPER)
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None


def piper_engine() -> str:
    """How Piper speaks here: ``module``, ``command`` or ``""`` (not installed); ``BOARDBANK_PIPER=command``
    (or ``=module``) chooses when both are installed, ``=off`` turns Piper off."""
    wanted = os.environ.get("BOARDBANK_PIPER", "").lower()
    if wanted == "off":
        return ""
    if wanted != "command" and piper_module_installed():
        return "module"
    return "command" if wanted != "module" and piper_command() else ""


_loaded: dict[Path, Any] = {}
_load_lock = threading.Lock()


def _module_voice(model: Path) -> Any:
    with _load_lock:
        if model not in _loaded:
            from piper import PiperVoice  # type: ignore[import-not-found,unused-ignore]

            voice = PiperVoice.load(str(model), config_path=str(model.with_suffix(".onnx.json")))
            _one_thread(voice, model)
            _loaded[model] = voice
        return _loaded[model]


def _one_thread(voice: Any, model: Path) -> None:
    """Run ``voice``'s model on one thread that never spins while it waits: onnxruntime's default (a thread
    per core, spinning) takes every core from the table's screen, and was no faster here (a sentence 0.35-0.39 s
    against 0.42-0.77 s, 0.2 s of CPU against 0.3 s). The model is loaded a second time for it (~0.5 s, once);
    a piper-tts whose voice has no ``session`` keeps its own."""
    try:
        import onnxruntime  # type: ignore[import-not-found,unused-ignore]

        if getattr(voice, "session", None) is None:
            return
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        voice.session = onnxruntime.InferenceSession(str(model), sess_options=options,
                                                     providers=["CPUExecutionProvider"])
    except Exception:  # the voice keeps onnxruntime's default session, which works
        return


class PiperVoice:
    """Piper's voice of ``lang`` from ``model``; an utterance it fails on (and every later one) is said by
    ``fallback`` (espeak-ng's), the failure reported once through ``on_error``."""

    def __init__(self, lang: str, model: Path, engine: str, fallback: EspeakVoice | None = None,
                 on_error: Callable[[str], None] | None = None) -> None:
        if engine not in ("module", "command"):
            raise SpeechError("piper is not installed (pip install 'boardbank[piper]')")
        self.lang = lang
        self.model = model
        self.engine = engine
        self.fallback = fallback
        self.on_error = on_error or (lambda message: None)
        self.broken = ""  # why Piper is no longer used (its first failure)

    @property
    def name(self) -> str:
        """What doctor and the logs call this voice."""
        return f"piper {self.model.name}"

    def warm(self) -> None:
        """Load the model now (the module: once per process) rather than at the first utterance."""
        if self.engine == "module":
            _module_voice(self.model)

    def synth(self, text: str, path: Path) -> None:
        if not self.broken:
            try:
                self._piper(" ".join(text.splitlines()).strip(), path)  # one line: piper reads lines
                return
            except Exception as exc:  # onnxruntime's and piper's own errors too: espeak-ng says it
                self.broken = str(exc) or type(exc).__name__
                path.unlink(missing_ok=True)
                if self.fallback is None:
                    raise SpeechError(f"piper {self.model.name} failed: {self.broken}") from None
                self.on_error(f"piper {self.model.name} failed, espeak-ng speaks {self.lang} instead: "
                              f"{self.broken[:200]}")
        if self.fallback is None:
            raise SpeechError(f"piper {self.model.name} failed: {self.broken}")
        self.fallback.synth(text, path)

    def _piper(self, text: str, path: Path) -> None:
        if self.engine == "module":
            voice = _module_voice(self.model)
            with wave.open(str(path), "wb") as out:
                say = getattr(voice, "synthesize_wav", None) or voice.synthesize  # piper-tts >= 1.3, else 1.2
                say(text, out)
            return
        program = piper_command()
        if program is None:
            raise SpeechError("the piper command is gone")
        done = subprocess.run([program, "-m", str(self.model), "-c", str(self.model.with_suffix(".onnx.json")),
                               "-f", str(path)], input=(text + "\n").encode("utf-8"), capture_output=True,
                              timeout=PIPER_TIMEOUT_S, check=False)
        if done.returncode != 0 or not path.is_file() or path.stat().st_size <= 44:
            raise SpeechError(f"the piper command failed ({done.returncode}): "
                              f"{done.stderr.decode(errors='replace').strip()[-200:]}")
