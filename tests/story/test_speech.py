"""Speech to files: texts are numbered in the order said, written beside their WAV by a worker thread that
never holds the caller up; a failed utterance is counted and the rest go on; Japanese is given kana; the
doctor names each language's voice (docs/story.md)."""

from __future__ import annotations

import shutil
import struct
import threading
import time
import wave
from pathlib import Path

import pytest

from engine import events as ev
from engine.banker.viewmodel import PlayerView, ViewModel
from ui.story.names import Names
from ui.story.speech import EspeakVoice, Speaker, SpeechError, kana_reading, utterance, voices
from ui.story.speech_espeak import library_path


class SlowVoice:
    """Writes a stand-in WAV after waiting for ``gate`` (a voice slower than the game)."""

    def __init__(self, fail_on: str = "") -> None:
        self.gate = threading.Event()
        self.said: list[str] = []
        self.fail_on = fail_on

    def synth(self, text: str, path: Path) -> None:
        self.gate.wait(10)
        if self.fail_on and self.fail_on in text:
            raise SpeechError("the voice choked")
        self.said.append(text)
        path.write_bytes(b"RIFF")


def test_saying_never_waits_for_the_voice_and_keeps_the_order(tmp_path: Path) -> None:
    voice = SlowVoice()
    speaker = Speaker(tmp_path, "en", voice=voice)
    started = time.perf_counter()
    for n in range(20):
        speaker.say(f"line {n}")
    assert time.perf_counter() - started < 0.5  # the voice has not said a word yet: nothing waited for it
    assert not voice.said
    voice.gate.set()
    assert speaker.close(timeout_s=30)
    assert voice.said == [f"line {n}" for n in range(20)]
    assert [p.read_text(encoding="utf-8") for p in sorted(tmp_path.glob("*.txt"))] == [f"line {n}\n" for n in range(20)]
    assert sorted(p.name for p in tmp_path.glob("*.wav"))[:2] == ["0001.wav", "0002.wav"]


def test_a_failed_utterance_is_counted_and_the_rest_are_said(tmp_path: Path) -> None:
    voice = SlowVoice(fail_on="two")
    voice.gate.set()
    errors: list[str] = []
    speaker = Speaker(tmp_path, "en", voice=voice, on_error=errors.append)
    for text in ("one", "two", "three", "  "):
        speaker.say(text)
    assert speaker.close(timeout_s=30)
    assert voice.said == ["one", "three"] and speaker.failures == 1 and speaker.written == 2
    assert errors and "utterance 2" in errors[0]


def test_what_is_said_payments_turns_and_standings_only() -> None:
    view = ViewModel(state="idle", edition="classic-us", currency="M",
                     players=(PlayerView("p1", "Ann", "red", 0, 0), PlayerView("p2", "Boris", "blue", 0, 0)))
    n = Names.from_view(view, "ru")
    assert utterance(ev.RentPaid(1, 1, "p2", "p1", 2, 450), n) == "Аренда: Boris платит M450 за поле «Baltic Avenue», получает Ann"
    assert utterance(ev.TurnEnded(2, 2, "p1", "p2"), n) == "Ходит Boris"
    assert utterance(ev.JailEntered(3, 3, "p1"), n) == ""
    assert utterance(ev.BidPlaced(4, 4, "p1", 20), n) == ""


def test_japanese_is_given_kana_for_its_kanji() -> None:
    pytest.importorskip("pykakasi")
    said = kana_reading("家賃：AnnがBorisにM450を支払います")
    assert "やちん" in said and "しはらいます" in said and "Ann" in said and "M450" in said
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in said)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_writes_a_wav_in_russian(tmp_path: Path) -> None:
    EspeakVoice("ru").synth("Ходит Борис", tmp_path / "a.wav")
    data = (tmp_path / "a.wav").read_bytes()
    assert data[:4] == b"RIFF" and len(data) > 10_000


def test_without_espeak_there_is_no_voice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ui.story.speech_espeak.espeak_path", lambda: None)
    monkeypatch.setattr("ui.story.speech_espeak.library_path", lambda: None)
    monkeypatch.setattr("ui.story.speech.espeak_path", lambda: None)
    with pytest.raises(SpeechError, match="espeak-ng is not installed"):
        EspeakVoice("ru")
    assert voices() == {"en": "", "ru": "", "ro": "", "ja": ""}


needs_library = pytest.mark.skipif(shutil.which("espeak-ng") is None or library_path() is None,
                                   reason="espeak-ng and libespeak-ng are not installed")


def voiced(path: Path) -> tuple[tuple[int, int, int], float, float]:
    """A WAV's format, the seconds from its first to its last sample above 1 % of full scale, and its length."""
    with wave.open(str(path)) as wav:
        frames = wav.getnframes()
        samples = struct.unpack(f"<{frames}h", wav.readframes(frames))
        rate = wav.getframerate()
        shape = (wav.getnchannels(), wav.getsampwidth(), rate)
    loud = [n for n, x in enumerate(samples) if abs(x) > 327]
    return shape, (loud[-1] - loud[0]) / rate, frames / rate


@needs_library
@pytest.mark.parametrize("lang", ["ru", "ja"])
def test_the_in_process_voice_says_what_the_espeak_ng_command_says(lang: str, tmp_path: Path) -> None:
    """The same speech in the same format; the library's engine keeps some state from one utterance to the
    next, which changes the pause at the end by up to ~0.1 s (the speech itself is unchanged)."""
    texts = {"ru": ["Ходит Борис", "Аренда: Boris платит M450 за поле «Baltic Avenue», получает Ann", "Ходит Ann"],
             "ja": ["家賃：AnnがBorisにM450を支払います", "Borisの番です"]}[lang]
    for n, text in enumerate(texts):
        EspeakVoice(lang).synth(text, tmp_path / f"lib{n}.wav")
        EspeakVoice(lang, program=shutil.which("espeak-ng")).synth(text, tmp_path / f"cli{n}.wav")
        (lib_shape, lib_said, lib_s), (cli_shape, cli_said, cli_s) = voiced(tmp_path / f"lib{n}.wav"), \
            voiced(tmp_path / f"cli{n}.wav")
        assert lib_shape == cli_shape == (1, 2, 22050)
        assert abs(lib_said - cli_said) <= 0.01 * cli_said and cli_said > 0.5, (text, lib_said, cli_said)
        assert abs(lib_s - cli_s) <= 0.2, (text, lib_s, cli_s)


@needs_library
def test_the_in_process_voice_starts_no_process_and_the_env_forces_one(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    started: list[list[str]] = []
    real = subprocess.run

    def run(args: list[str], **kw: object) -> object:
        started.append(args)
        return real(args, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr("ui.story.speech_espeak.subprocess.run", run)
    speaker = Speaker(tmp_path / "a", "ro")
    for n in range(5):
        speaker.say(f"Rândul lui Ana, {n}")
    assert speaker.close(timeout_s=60) and speaker.written == 5 and started == []
    monkeypatch.setenv("BOARDBANK_ESPEAK", "process")
    EspeakVoice("ro").synth("Rândul lui Ana", tmp_path / "b.wav")
    assert started and started[0][1:3] == ["-v", "ro"]


@needs_library
def test_two_languages_in_turn_each_speak_with_their_own_voice(tmp_path: Path) -> None:
    texts = {"ru": "Ходит Борис", "en": "Boris's turn"}
    for n, lang in enumerate(("ru", "en", "ru")):
        EspeakVoice(lang).synth(texts[lang], tmp_path / f"{n}.wav")
        EspeakVoice(lang, program=shutil.which("espeak-ng")).synth(texts[lang], tmp_path / f"{n}-cli.wav")
        said, cli_said = voiced(tmp_path / f"{n}.wav")[1], voiced(tmp_path / f"{n}-cli.wav")[1]
        assert abs(said - cli_said) <= 0.05 * cli_said, (lang, said, cli_said)  # without the pace reset: 10 %


def test_the_texts_of_events_are_made_on_the_worker_in_the_order_queued(tmp_path: Path) -> None:
    view = ViewModel(state="idle", edition="classic-us", currency="M",
                     players=(PlayerView("p1", "Ann", "red", 0, 0), PlayerView("p2", "Boris", "blue", 0, 0)))
    voice = SlowVoice()
    speaker = Speaker(tmp_path, "en", voice=voice)
    speaker.events([ev.TurnEnded(1, 1, "p1", "p2")], view)
    speaker.say("Balances")
    speaker.events([ev.JailEntered(2, 2, "p2"), ev.TurnEnded(3, 2, "p2", "p1")], view)
    voice.gate.set()
    assert speaker.close(timeout_s=30)
    assert voice.said == ["Next turn: Boris", "Balances", "Next turn: Ann"]  # the jail entry is not said
    assert [p.read_text(encoding="utf-8") for p in sorted(tmp_path.glob("*.txt"))] == \
        ["Next turn: Boris\n", "Balances\n", "Next turn: Ann\n"]


def test_the_doctor_names_each_language_s_voice(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.cli.doctor import check_voices

    monkeypatch.setattr("ui.story.speech.voices", lambda: {"en": "espeak-ng en", "ru": "", "ro": "x", "ja": "y"})
    checks = {c.name: c for c in check_voices()}
    assert checks["voice en"].status == "OK" and checks["voice en"].detail == "espeak-ng en"
    assert checks["voice ru"].status == "WARN" and "espeak-ng" in checks["voice ru"].fix


def test_a_speech_folder_that_cannot_be_written_is_refused_before_the_game_opens(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    blocker = tmp_path / "file"
    blocker.write_text("")
    db = tmp_path / "bb.sqlite3"
    proc = subprocess.run([str(Path(sys.executable).with_name("boardbank")), "headless", "--db", str(db),
                           "--speak-to", str(blocker / "said")], input="", capture_output=True, text=True,
                          timeout=60, check=False, env={**os.environ, "BOARDBANK_DB": ""})
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"boardbank headless: --speak-to {blocker / 'said'}: cannot write there")
    assert len(proc.stderr.strip().splitlines()) == 1 and not db.exists()


def test_a_piper_model_on_disk_is_named_only_with_piper_installed(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.story import speech_piper
    from ui.story.speech import piper_models

    (tmp_path / "ru_RU-irina-medium.onnx").write_bytes(b"")
    (tmp_path / "ru_RU-irina-medium.onnx.json").write_text("{}")
    (tmp_path / "en_US-lone.onnx").write_bytes(b"")  # no .onnx.json beside it: not a usable model
    monkeypatch.setattr(speech_piper, "piper_engine", lambda: "")
    monkeypatch.setattr("ui.story.speech.piper_engine", lambda: "")
    assert piper_models([tmp_path]) == {}
    monkeypatch.setattr("ui.story.speech.piper_engine", lambda: "command")
    assert piper_models([tmp_path]) == {"ru": tmp_path / "ru_RU-irina-medium.onnx"}


@needs_library
def test_an_utterance_the_library_fails_on_is_said_by_the_command(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.story import speech_espeak

    library = speech_espeak.espeak_library()
    assert library is not None

    def fail(lang: str, text: str) -> bytes:
        raise SpeechError("libespeak-ng -v ru failed (1)")

    monkeypatch.setattr(library, "synth", fail)
    EspeakVoice("ru").synth("Ходит Борис", tmp_path / "a.wav")
    assert voiced(tmp_path / "a.wav")[1] > 0.5


@needs_library
def test_a_whole_game_is_said_to_files_without_starting_an_espeak_ng_process(tmp_path: Path) -> None:
    """The espeak-ng command is not on PATH: every utterance still comes, from the library in the process."""
    import os
    import subprocess
    import sys

    tap = Path(__file__).parents[1] / "engine" / "taps" / "whole_game.tap"
    folder = tmp_path / "said"
    proc = subprocess.run([str(Path(sys.executable).with_name("boardbank")), "headless", "--db",
                           str(tmp_path / "bb.sqlite3"), "--edition", "ultimate-uk", "--lang", "ru", "--speak-to",
                           str(folder)], input=tap.read_text(), capture_output=True, text=True, timeout=120,
                          check=False, env={**os.environ, "BOARDBANK_DB": "", "PATH": str(tmp_path / "empty")})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr[-2000:]
    wavs = sorted(folder.glob("*.wav"))
    assert len(wavs) >= 20 and len(wavs) == len(list(folder.glob("*.txt")))
    assert all(voiced(w)[1] > 0.5 for w in wavs)


@needs_library
def test_a_text_said_again_is_not_synthesised_again_and_the_kept_ones_stay_bounded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.story import speech_espeak

    library = speech_espeak.espeak_library()
    assert library is not None
    made: list[str] = []
    real = library._synth

    def synth(lang: str, text: str) -> bytes:
        made.append(text)
        return real(lang, text)

    monkeypatch.setattr(library, "_synth", synth)
    voice = EspeakVoice("ro")
    for n, text in enumerate(["Rândul lui Ana 7", "Rândul lui Dan 7", "Rândul lui Ana 7", "Rândul lui Ana 7"]):
        voice.synth(text, tmp_path / f"{n}.wav")
    assert made == ["Rândul lui Ana 7", "Rândul lui Dan 7"]
    assert (tmp_path / "0.wav").read_bytes() == (tmp_path / "2.wav").read_bytes() == (tmp_path / "3.wav").read_bytes()
    monkeypatch.setattr(speech_espeak, "RECENT_BYTES", 1)  # room for the last one only
    voice.synth("Rândul lui Eva 7", tmp_path / "4.wav")
    voice.synth("Rândul lui Ana 7", tmp_path / "5.wav")
    assert made[2:] == ["Rândul lui Eva 7", "Rândul lui Ana 7"] and len(library._recent) == 1


def test_a_voice_that_breaks_unexpectedly_is_counted_and_the_worker_goes_on(tmp_path: Path) -> None:
    class Broken:
        def synth(self, text: str, path: Path) -> None:
            if text == "two":
                raise ZeroDivisionError("a bug in a voice")
            path.write_bytes(b"RIFF")

    errors: list[str] = []
    speaker = Speaker(tmp_path, "en", voice=Broken(), on_error=errors.append)
    for text in ("one", "two", "three"):
        speaker.say(text)
    assert speaker.close(timeout_s=30)
    assert speaker.written == 2 and speaker.failures == 1 and (tmp_path / "0003.wav").exists()
    assert errors == ["utterance 2: a bug in a voice"]
