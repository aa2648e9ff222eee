"""SDL's audio driver when none is set: ALSA where no sound server runs (the kiosk: SDL would load
PulseAudio's client libraries, try them and end on ALSA anyway, ~2.5 MiB of resident memory kept for nothing,
bench/bench_memory.py), the server's choice where one runs, and a driver the user set is never changed."""

from __future__ import annotations

from pathlib import Path

from ui.touch.sounds import audio_driver, sound_servers


def test_no_sound_server_plays_through_alsa(tmp_path: Path) -> None:
    assert audio_driver({"XDG_RUNTIME_DIR": str(tmp_path)}) == "alsa"
    assert audio_driver({}) == "alsa"


def test_a_running_sound_server_is_left_to_sdl(tmp_path: Path) -> None:
    for socket in ("pulse/native", "pipewire-0"):
        runtime = tmp_path / socket.replace("/", "_")
        (runtime / socket).parent.mkdir(parents=True, exist_ok=True)
        (runtime / socket).touch()
        assert sound_servers({"XDG_RUNTIME_DIR": str(runtime)}) == [str(runtime / socket)]
        assert audio_driver({"XDG_RUNTIME_DIR": str(runtime)}) is None


def test_a_driver_the_user_chose_is_kept(tmp_path: Path) -> None:
    assert audio_driver({"SDL_AUDIODRIVER": "pulseaudio"}) is None
    assert audio_driver({"SDL_AUDIODRIVER": "dummy", "XDG_RUNTIME_DIR": str(tmp_path)}) is None
