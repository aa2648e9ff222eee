"""A whole classic and a whole Ultimate game through ``boardbank headless``, then told:
``export --format story --lang en|ru|ja`` has a line with the amount of every money entry of the journal,
in that language, no raw key, and leaves the file byte-identical; the same games with ``--lang ru
--speak-to DIR`` write one non-silent WAV per spoken entry with its Russian text (the entry's sentence of the
story), and the journal is the one the silent game wrote; said in Japanese, every text has a kana reading
(docs/story.md)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.events import GameEnded, TurnEnded
from engine.receipts import money_of
from engine.records import event_from_record
from ui.money import format_money

BOARDBANK = str(Path(sys.executable).with_name("boardbank"))
TAPS = Path(__file__).parents[1] / "engine" / "taps"
GAMES = {"ultimate": ("ultimate-uk", TAPS / "whole_game.tap"), "classic": ("classic-us", TAPS / "classic" / "whole_game.tap")}
ENV = {**os.environ, "BOARDBANK_DB": ""}
SCRIPT = {"ru": "[а-яё]", "ja": "[\u3040-\u30ff\u4e00-\u9fff]", "en": "[a-z]"}
RAW_KEY = re.compile(r"\b(story|receipt|word|event|colour|space)\.[a-z_]+")


def play(db: Path, game: str, *extra: str) -> tuple[list[dict[str, object]], float]:
    edition, tap = GAMES[game]
    started = time.perf_counter()
    proc = subprocess.run([BOARDBANK, "headless", "--db", str(db), "--edition", edition, *extra],
                          input=tap.read_text(), capture_output=True, text=True, timeout=300, check=False, env=ENV)
    took = time.perf_counter() - started
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert not [x for x in lines if x["type"] == "expect" and not x["ok"]]
    return [x for x in lines if x["type"] == "event"], took


def journal(db: Path) -> list[dict[str, object]]:
    """The exported journal without what a new game draws at random (its seed and shuffled deck)."""
    out = subprocess.run([BOARDBANK, "export", str(db)], capture_output=True, text=True, check=True, env=ENV).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    return [{k: v for k, v in row.items() if k not in ("seed", "deck")} for row in rows]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[dict[str, object]], float]]:
    out = {}
    for game in GAMES:
        db = tmp_path_factory.mktemp(game) / "bb.sqlite3"
        events, took = play(db, game)
        out[game] = (db, events, took)
    return out


@pytest.mark.parametrize("lang", ["en", "ru", "ja"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_story_has_every_money_entry_with_its_amount_and_leaves_the_file_untouched(
        played: dict[str, tuple[Path, list[dict[str, object]], float]], game: str, lang: str) -> None:
    db, events, _ = played[game]
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    proc = subprocess.run([BOARDBANK, "export", str(db), "--format", "story", "--lang", lang, "--receipts"],
                          capture_output=True, text=True, timeout=60, check=False, env=ENV)
    assert proc.returncode == 0, proc.stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    lines: dict[int, list[str]] = {}
    for line in proc.stdout.splitlines():
        seq, text = line.split("\t", 1)
        lines.setdefault(int(seq), []).append(text)
        assert not RAW_KEY.search(text), line
        assert re.search(SCRIPT[lang], text), line
    currency = "M"
    moving = 0
    for record in events:
        event = event_from_record(record["event"], game)  # type: ignore[arg-type]
        amount = money_of(event)
        if amount is None:
            continue
        moving += 1
        said = lines.get(event.seq, [])
        assert said and format_money(amount, currency, lang) in said[0] + "".join(said[1:]), (event, said)
        if amount:
            assert any(text.startswith("= ") for text in said), (event, said)  # its receipt
    assert moving >= 12


@pytest.mark.parametrize("game", list(GAMES))
def test_speech_to_files_in_russian_one_wav_per_spoken_entry_and_the_same_journal(
        played: dict[str, tuple[Path, list[dict[str, object]], float]], game: str, tmp_path: Path) -> None:
    if shutil.which("espeak-ng") is None or shutil.which("sox") is None:
        pytest.skip("espeak-ng and sox are needed (scripts/install-system-deps.sh)")
    silent_db, silent_events, silent_s = played[game]
    folder = tmp_path / "said"
    events, spoken_s = play(tmp_path / "bb.sqlite3", game, "--lang", "ru", "--speak-to", str(folder))
    assert journal(tmp_path / "bb.sqlite3") == journal(silent_db)
    assert [e["event"] for e in events if e["event"]["type"] not in ("GameStarted",)] == \
        [e["event"] for e in silent_events if e["event"]["type"] not in ("GameStarted",)]
    spoken = [e for e in (event_from_record(x["event"], game) for x in events)  # type: ignore[arg-type]
              if money_of(e) is not None or isinstance(e, TurnEnded | GameEnded)]
    wavs = sorted(folder.glob("*.wav"))
    assert len(wavs) == len(spoken) == len(list(folder.glob("*.txt")))
    assert [w.stem for w in wavs] == [f"{n:04d}" for n in range(1, len(wavs) + 1)]
    told = subprocess.run([BOARDBANK, "export", str(tmp_path / "bb.sqlite3"), "--format", "story", "--lang", "ru"],
                          capture_output=True, text=True, timeout=60, check=True, env=ENV).stdout
    first: dict[int, str] = {}
    for line in told.splitlines():
        seq, text = line.split("\t", 1)
        first.setdefault(int(seq), text)
    assert [w.with_suffix(".txt").read_text(encoding="utf-8") for w in wavs] == \
        [first[e.seq] + "\n" for e in spoken]  # each entry's own sentence, in the journal's order
    for wav in wavs:
        text = wav.with_suffix(".txt").read_text(encoding="utf-8")
        assert re.search("[а-яё]", text) and not RAW_KEY.search(text), text
        stat = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True, check=True).stderr
        rms = float(re.search(r"RMS\s+amplitude:\s+([0-9.]+)", stat).group(1))  # type: ignore[union-attr]
        assert rms > 0.01, (wav, stat)
    print(f"\n{game}: {len(wavs)} utterances; silent {silent_s:.2f} s, with speech {spoken_s:.2f} s")


def test_story_options_without_the_story_format_are_refused(
        played: dict[str, tuple[Path, list[dict[str, object]], float]]) -> None:
    db = played["classic"][0]
    proc = subprocess.run([BOARDBANK, "export", str(db), "--format", "csv", "--receipts"], capture_output=True,
                          text=True, timeout=60, check=False, env=ENV)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == "boardbank export: --lang and --receipts need --format story, got --format csv"


def test_japanese_speech_is_read_from_kana_one_wav_per_spoken_entry(tmp_path: Path) -> None:
    """espeak-ng's Japanese voice reads kana only: every text said in Japanese has a reading without kanji."""
    pytest.importorskip("pykakasi")
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is needed (scripts/install-system-deps.sh)")
    from ui.story.speech import kana_reading

    folder = tmp_path / "said"
    events, _ = play(tmp_path / "bb.sqlite3", "classic", "--lang", "ja", "--speak-to", str(folder))
    spoken = [e for e in (event_from_record(x["event"], "classic") for x in events)  # type: ignore[arg-type]
              if money_of(e) is not None or isinstance(e, TurnEnded | GameEnded)]
    texts = [t.read_text(encoding="utf-8").strip() for t in sorted(folder.glob("*.txt"))]
    assert len(texts) == len(spoken) == len(list(folder.glob("*.wav")))
    for text in texts:
        assert re.search(SCRIPT["ja"], text), text
        reading = kana_reading(text)
        assert not re.search("[\u4e00-\u9fff]", reading) and re.search("[\u3040-\u30ff]", reading), reading
    assert all(w.stat().st_size > 20_000 for w in folder.glob("*.wav"))
