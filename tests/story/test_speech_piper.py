"""Piper where a voice model is installed (ui/story/speech_piper.py): a language with a model (``ru_RU-*.onnx``
with its ``.onnx.json``) speaks through Piper, the others through espeak-ng; models are found in
``$BOARDBANK_VOICES``, the data directory's ``voices/`` and the system's; nothing is downloaded; an utterance
Piper fails on is said by espeak-ng; ``doctor`` names each language's voice. Piper itself is a fake
``piper`` command on PATH that writes a valid WAV and logs what it was asked (docs/story.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import wave
from pathlib import Path

import pytest

from ui.story import speech_piper
from ui.story.speech import EspeakVoice, PiperVoice, Speaker, voice_for, voices

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")

FAKE_PIPER = f"""#!{sys.executable}
import json, math, os, struct, sys, wave
args = sys.argv[1:]
model, config, out = (args[args.index(flag) + 1] for flag in ("-m", "-c", "-f"))
text = sys.stdin.read().strip()
if "FAIL" in text:
    sys.exit("piper: the model choked")
with open(os.environ["FAKE_PIPER_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps({{"model": model, "config": config, "text": text}}, ensure_ascii=False) + "\\n")
with wave.open(out, "wb") as wav:
    wav.setnchannels(1); wav.setsampwidth(2); wav.setframerate(22050)
    wav.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(n / 10))) for n in range(4410)))
"""


@pytest.fixture
def fake_piper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake ``piper`` on PATH, a Russian model in ``$BOARDBANK_VOICES``; returns the fake's log."""
    bin_dir, voices_dir = tmp_path / "bin", tmp_path / "voices"
    bin_dir.mkdir()
    voices_dir.mkdir()
    piper = bin_dir / "piper"
    piper.write_text(FAKE_PIPER)
    piper.chmod(0o755)
    (voices_dir / "ru_RU-irina-medium.onnx").write_bytes(b"onnx")
    (voices_dir / "ru_RU-irina-medium.onnx.json").write_text("{}")
    (voices_dir / "ro_RO-mihai-medium.onnx").write_bytes(b"onnx")  # no .onnx.json beside it: not usable
    log = tmp_path / "piper.log"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("BOARDBANK_VOICES", str(voices_dir))
    monkeypatch.setenv("FAKE_PIPER_LOG", str(log))
    monkeypatch.setenv("BOARDBANK_PIPER", "command")  # the command, even where piper-tts is installed
    return log


def said_by_piper(log: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []


def test_a_model_s_language_is_read_from_its_file_name() -> None:
    assert speech_piper.model_language(Path("ru_RU-irina-medium.onnx")) == "ru"
    assert speech_piper.model_language(Path("ja_JP-test-medium.onnx")) == "ja"
    assert speech_piper.model_language(Path("en-custom.onnx")) == "en"


def test_models_are_found_in_order_env_then_data_dir_then_system(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for folder, name in ((first, "ru_RU-a-low"), (second, "ru_RU-b-high"), (second, "en_US-joe-medium")):
        folder.mkdir(exist_ok=True)
        (folder / f"{name}.onnx").write_bytes(b"")
        (folder / f"{name}.onnx.json").write_text("{}")
    assert speech_piper.installed_models([first, second]) == {"ru": first / "ru_RU-a-low.onnx",
                                                              "en": second / "en_US-joe-medium.onnx"}
    monkeypatch.setenv("BOARDBANK_VOICES", f"{first}{os.pathsep}{second}")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_DIRS", str(tmp_path / "site"))
    assert speech_piper.voice_folders() == [first, second, tmp_path / "home" / "boardbank" / "voices",
                                            tmp_path / "site" / "boardbank" / "voices"]


@needs_espeak
def test_a_language_with_a_model_speaks_through_piper_the_others_through_espeak(
        fake_piper: Path, tmp_path: Path) -> None:
    ru, en, ro = voice_for("ru"), voice_for("en"), voice_for("ro")
    assert isinstance(ru, PiperVoice) and ru.model.name == "ru_RU-irina-medium.onnx" and ru.engine == "command"
    assert isinstance(en, EspeakVoice) and isinstance(ro, EspeakVoice)  # ro's model has no .onnx.json
    ru.synth("Ходит Boris\nсейчас\n", tmp_path / "ru.wav")
    en.synth("Boris's turn", tmp_path / "en.wav")
    assert said_by_piper(fake_piper) == [{"model": str(ru.model), "config": str(ru.model) + ".json",
                                          "text": "Ходит Boris сейчас"}]
    for wav in ("ru.wav", "en.wav"):
        with wave.open(str(tmp_path / wav)) as read:
            assert read.getnframes() > 4000 and read.getframerate() == 22050


@needs_espeak
def test_an_utterance_piper_fails_on_is_said_by_espeak_and_reported_once(fake_piper: Path, tmp_path: Path) -> None:
    errors: list[str] = []
    speaker = Speaker(tmp_path / "said", "ru", on_error=errors.append)
    for text in ("Ходит Ann", "FAIL here", "Ходит Boris"):
        speaker.say(text)
    assert speaker.close(timeout_s=60)
    assert speaker.written == 3 and speaker.failures == 0
    assert [x["text"] for x in said_by_piper(fake_piper)] == ["Ходит Ann"]  # espeak-ng from the failure on
    assert len(errors) == 1 and "espeak-ng speaks ru instead" in errors[0] and "choked" in errors[0]
    assert all((tmp_path / "said" / f"{n:04d}.wav").stat().st_size > 1000 for n in (1, 2, 3))


@needs_espeak
def test_the_doctor_names_piper_for_the_language_with_a_model_and_espeak_for_the_others(fake_piper: Path) -> None:
    from ui.cli.doctor import check_voices

    checks = {c.name: c for c in check_voices()}
    assert checks["voice ru"].status == "OK"
    assert checks["voice ru"].detail == "piper ru_RU-irina-medium.onnx (the piper command); else espeak-ng ru"
    assert checks["voice en"].detail == "espeak-ng en" and checks["voice ro"].detail == "espeak-ng ro"


@needs_espeak
def test_a_model_without_piper_is_named_and_warned_about(fake_piper: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.cli.doctor import check_voices

    monkeypatch.setattr(speech_piper, "piper_command", lambda: None)
    assert isinstance(voice_for("ru"), EspeakVoice)
    said = voices()["ru"]
    assert said.startswith("espeak-ng ru (Piper's ru_RU-irina-medium.onnx is in ") and "not installed" in said
    check = {c.name: c for c in check_voices()}["voice ru"]
    assert check.status == "WARN" and "boardbank[piper]" in check.fix


@needs_espeak
def test_a_whole_game_said_to_files_uses_piper_for_russian(fake_piper: Path, tmp_path: Path) -> None:
    tap = Path(__file__).parents[1] / "engine" / "taps" / "whole_game.tap"
    folder = tmp_path / "said"
    proc = subprocess.run([str(Path(sys.executable).with_name("boardbank")), "headless", "--db",
                           str(tmp_path / "bb.sqlite3"), "--edition", "ultimate-uk", "--lang", "ru", "--speak-to",
                           str(folder)], input=tap.read_text(), capture_output=True, text=True, timeout=120,
                          check=False, env={**os.environ, "BOARDBANK_DB": ""})
    assert proc.returncode == 0, proc.stderr[-2000:]
    texts = [p.read_text(encoding="utf-8").strip() for p in sorted(folder.glob("*.txt"))]
    assert len(texts) >= 20 and len(list(folder.glob("*.wav"))) == len(texts)
    assert [x["text"] for x in said_by_piper(fake_piper)] == texts  # every one through Piper, in order


def test_the_piper_module_s_model_runs_on_one_thread_that_never_spins(monkeypatch: pytest.MonkeyPatch) -> None:
    """onnxruntime's default takes a thread per core (spinning) from the table's screen; a fake onnxruntime
    records the session the voice is given."""
    import types

    class Options:
        def __init__(self) -> None:
            self.entries: dict[str, str] = {}
            self.intra_op_num_threads = 0
            self.inter_op_num_threads = 0

        def add_session_config_entry(self, key: str, value: str) -> None:
            self.entries[key] = value

    made: list[tuple[str, Options, list[str]]] = []
    fake = types.ModuleType("onnxruntime")
    fake.SessionOptions = Options  # type: ignore[attr-defined]
    fake.InferenceSession = lambda path, sess_options, providers: made.append(  # type: ignore[attr-defined]
        (path, sess_options, providers)) or "one-thread session"
    monkeypatch.setitem(sys.modules, "onnxruntime", fake)
    voice = types.SimpleNamespace(session="default session")
    speech_piper._one_thread(voice, Path("ru_RU-x.onnx"))
    assert voice.session == "one-thread session" and made[0][0] == "ru_RU-x.onnx"
    options = made[0][1]
    assert (options.intra_op_num_threads, options.inter_op_num_threads) == (1, 1)
    assert options.entries == {"session.intra_op.allow_spinning": "0"} and made[0][2] == ["CPUExecutionProvider"]
    other = types.SimpleNamespace()  # a piper-tts without a session attribute: left as it is
    speech_piper._one_thread(other, Path("ru_RU-x.onnx"))
    assert not hasattr(other, "session") and len(made) == 1
