"""The unit's sounds (tap, ok, error, GO, cash), synthesised by our own code and played with Kivy.

:func:`synthesize` writes 16-bit mono WAV files with the ``wave`` module: sums of sine partials under an
attack/decay envelope, one short melody per cue. They are committed in ``ui/touch/sounds/`` and regenerated on
first run if missing. :class:`SoundBoard` loads them with Kivy's ``SoundLoader``; with no audio device
it degrades to silence after one log line. Volume is 0.0-1.0; mute silences without forgetting it.
"""

from __future__ import annotations

import logging
import math
import struct
import wave
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SOUND_DIR = Path(__file__).with_name("sounds")
RATE = 22050  # samples per second
CUES: tuple[str, ...] = ("tap", "ok", "err", "go", "cash")
"""Cue names, as in ``engine.banker.viewmodel.Cue`` and ``reader.base.CUES``."""


@dataclass(frozen=True)
class Note:
    """One tone: ``freq`` in Hz, ``start`` and ``length`` in seconds, ``gain`` 0-1."""

    freq: float
    start: float
    length: float
    gain: float = 0.6


# Each cue is a few notes; frequencies are equal-tempered pitches (A4 = 440 Hz).
MELODIES: dict[str, tuple[Note, ...]] = {
    "tap": (Note(1760.0, 0.0, 0.05, 0.5),),
    "ok": (Note(880.0, 0.0, 0.08), Note(1318.5, 0.07, 0.12)),
    "err": (Note(220.0, 0.0, 0.18, 0.7), Note(207.7, 0.16, 0.22, 0.7)),
    "go": (Note(523.3, 0.0, 0.10), Note(659.3, 0.09, 0.10), Note(784.0, 0.18, 0.10), Note(1046.5, 0.27, 0.25)),
    "cash": (Note(1568.0, 0.0, 0.06, 0.5), Note(2093.0, 0.05, 0.06, 0.5), Note(2637.0, 0.10, 0.18, 0.45)),
}


LEVELS: dict[str, float] = {"tap": 0.6}
"""Peak level of a cue (0-1 of full scale) when it is not 0.9: the tap is a quiet click."""


class SoundError(ValueError):
    """An unknown cue name or a volume outside 0.0-1.0."""


def sound_servers(env: Mapping[str, str]) -> list[str]:
    """The sockets of the sound servers running for this user (PulseAudio's, PipeWire's), from
    ``XDG_RUNTIME_DIR`` in ``env``."""
    runtime = env.get("XDG_RUNTIME_DIR", "")
    return [p for p in (f"{runtime}/pulse/native", f"{runtime}/pipewire-0") if runtime and Path(p).exists()]


def audio_driver(env: Mapping[str, str]) -> str | None:
    """SDL's audio driver for the app when ``SDL_AUDIODRIVER`` is unset: ALSA when no sound server runs
    (the kiosk: SDL would end there after loading PulseAudio's client libraries for nothing, ~2.5 MiB of
    resident memory, bench/bench_memory.py), else None (SDL chooses: the server's)."""
    if env.get("SDL_AUDIODRIVER") or sound_servers(env):
        return None
    return "alsa"


def _envelope(t: float, length: float) -> float:
    """A 5 ms attack, then an exponential decay to silence at ``length`` seconds."""
    attack = 0.005
    if t < attack:
        return t / attack
    return math.exp(-4.0 * (t - attack) / max(length - attack, 1e-3)) * (1.0 - t / length)


def render(notes: tuple[Note, ...], rate: int = RATE, level: float = 0.9) -> bytes:
    """16-bit little-endian mono PCM of ``notes`` (sine + a soft octave partial), peak at ``level`` of full
    scale (0-1)."""
    total = max(n.start + n.length for n in notes)
    samples = [0.0] * (int(total * rate) + 1)
    for note in notes:
        first = int(note.start * rate)
        for i in range(int(note.length * rate)):
            t = i / rate
            phase = 2.0 * math.pi * note.freq * t
            value = math.sin(phase) + 0.25 * math.sin(2.0 * phase)
            samples[first + i] += note.gain * 0.8 * value * _envelope(t, note.length)
    peak = max(abs(s) for s in samples) or 1.0
    return b"".join(struct.pack("<h", int(32767 * level * s / peak)) for s in samples)


def synthesize(directory: Path = SOUND_DIR, overwrite: bool = False) -> list[Path]:
    """Write ``<cue>.wav`` for every cue into ``directory``; return the paths (existing ones kept)."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for cue, notes in MELODIES.items():
        path = directory / f"{cue}.wav"
        if overwrite or not path.exists():
            with wave.open(str(path), "wb") as out:
                out.setnchannels(1)
                out.setsampwidth(2)
                out.setframerate(RATE)
                out.writeframes(render(notes, level=LEVELS.get(cue, 0.9)))
        paths.append(path)
    return paths


class SoundBoard:
    """Plays cues with Kivy's SoundLoader; silent (one log line) when there is no audio device."""

    def __init__(self, directory: Path = SOUND_DIR, volume: float = 0.8, muted: bool = False) -> None:
        self.directory = directory
        self._volume = 0.8
        self.volume = volume
        self.muted = muted
        self._sounds: dict[str, Any] = {}
        self._loaded = False
        self.available = True
        self.played: list[str] = []  # the cues asked for, in order (tests and the bench read it)

    @property
    def volume(self) -> float:
        """Loudness, 0.0 (silent) to 1.0."""
        return self._volume

    @volume.setter
    def volume(self, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise SoundError(f"expected a volume between 0.0 and 1.0, got {value!r}")
        self._volume = float(value)

    def _load(self) -> None:
        self._loaded = True
        try:
            synthesize(self.directory)
        except OSError as exc:  # read-only install: the committed files are used as they are
            log.info("cannot write sounds into %s: %s", self.directory, exc)
        try:
            from kivy.core.audio import SoundLoader

            for cue in CUES:
                sound = SoundLoader.load(str(self.directory / f"{cue}.wav"))
                if sound is None or not sound.length:  # SDL2 returns an empty sound without a device
                    raise OSError(f"no audio provider could load {cue}.wav")
                self._sounds[cue] = sound
        except Exception as exc:  # any audio back-end failure means: play nothing
            self.available = False
            self._sounds.clear()
            log.warning("sound disabled (no usable audio device): %s", exc)

    def play(self, cue: str) -> None:
        """Play ``cue`` (one of :data:`CUES`) at the current volume unless muted."""
        if cue not in CUES:
            raise SoundError(f"expected a cue among {CUES}, got {cue!r}")
        self.played.append(cue)
        if self.muted or self._volume == 0.0:
            return
        if not self._loaded:
            self._load()
        sound = self._sounds.get(cue)
        if sound is None:
            return
        try:
            sound.volume = self._volume
            sound.stop()
            sound.play()
        except Exception as exc:  # a device that vanished mid-game: go silent once
            self.available = False
            self._sounds.clear()
            log.warning("sound disabled after a playback error: %s", exc)
