"""``boardbank run --speak`` / ``--speak-to DIR``: a scripted game on the touch UI says each payment, whose
turn it is and the standings into DIR (``NNNN.wav`` + ``NNNN.txt``) while its screenshots are taken; a folder
that cannot be written is refused in one line before anything opens; the kiosk's ``BOARDBANK_SPEAK=1``
turns ``--speak`` on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_cli import ROOT, run

from ui.cli.console import build_parser

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


def test_the_kiosk_env_turns_speak_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOARDBANK_SPEAK", raising=False)
    assert build_parser().parse_args(["run"]).speak is False
    args = build_parser().parse_args(["run", "--speak", "--speak-to", "/tmp/x"])
    assert args.speak and args.speak_to == "/tmp/x"
    monkeypatch.setenv("BOARDBANK_SPEAK", "1")
    assert build_parser().parse_args(["run"]).speak is True
    assert "BOARDBANK_SPEAK=" in (ROOT / "hardware/kiosk/boardbank.env").read_text()


@needs_espeak
def test_a_speech_folder_that_cannot_be_written_is_refused_in_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    done = run(["run", "--script", "tests/ui/game.tap", "--speak-to", str(blocker / "voice")], tmp_path)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.startswith("boardbank run:")]
    assert len(lines) == 1 and "cannot write there" in lines[0]
    assert not (tmp_path / "bb.sqlite3").exists()  # nothing opened


@needs_espeak
def test_a_scripted_game_on_the_screen_speaks_russian_into_files(tmp_path: Path) -> None:
    voice, shots = tmp_path / "voice", tmp_path / "shots"
    done = run(["run", "--script", "tests/ui/game.tap", "--screenshots", str(shots), "--lang", "ru",
                "--speak-to", str(voice)], tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    texts = sorted(voice.glob("*.txt"))
    assert len(texts) >= 20 and len(list(voice.glob("*.wav"))) == len(texts)
    said = [t.read_text(encoding="utf-8").strip() for t in texts]
    assert said[0].startswith("Покупка: Ann покупает") and "Ходит Bob" in said
    assert any(s.startswith("Аренда: Cat платит M80") and s.endswith("(уровень 1)") for s in said)
    assert all((voice / f"{n:04d}.wav").stat().st_size > 1000 for n in range(1, len(texts) + 1))
    assert list(shots.glob("*.png"))
