"""Sounds, fonts, the screen router and the controller, without a window."""

from __future__ import annotations

import wave
from pathlib import Path
from typing import Any

import pytest

from engine.banker.viewmodel import AuctionView, DebtView, EventCardView, Prompt, StandingView, ViewModel
from reader.events import CardPresented, ReaderConnected, ReaderLost
from ui.touch import fonts
from ui.touch.screens.router import Controller, screen_for
from ui.touch.sounds import CUES, MELODIES, RATE, SoundBoard, SoundError, synthesize


def test_the_cues_are_synthesized_as_short_clean_wavs(tmp_path: Path) -> None:
    paths = synthesize(tmp_path)
    assert sorted(p.stem for p in paths) == sorted(CUES)
    for path in paths:
        with wave.open(str(path)) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, RATE)
            seconds = w.getnframes() / RATE
            frames = w.readframes(w.getnframes())
        assert 0.04 < seconds < 0.6, (path.name, seconds)
        samples = [int.from_bytes(frames[i:i + 2], "little", signed=True) for i in range(0, len(frames), 2)]
        peak = max(abs(s) for s in samples)
        assert 18000 < peak < 32767, (path.name, peak)  # loud enough, never clipped
        assert abs(samples[-1]) < 2000, path.name  # fades out, no click at the end


def test_the_committed_sounds_are_what_the_code_makes(tmp_path: Path) -> None:
    synthesize(tmp_path)
    committed = Path(__file__).resolve().parents[2] / "ui" / "touch" / "sounds"
    for cue in MELODIES:
        assert (committed / f"{cue}.wav").read_bytes() == (tmp_path / f"{cue}.wav").read_bytes(), cue


def test_volume_and_mute() -> None:
    board = SoundBoard(muted=True)
    board.play("go")
    assert board.played == ["go"]
    with pytest.raises(SoundError, match=r"between 0\.0 and 1\.0"):
        board.volume = 1.5
    with pytest.raises(SoundError, match="a cue among"):
        board.play("boom")
    board.volume = 0.0
    board.muted = False
    board.play("ok")  # silent at volume 0: nothing is loaded
    assert not board._loaded


def test_the_cjk_font_is_found_or_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "cjk.ttf"
    fake.write_bytes(b"\0")
    monkeypatch.delenv("BOARDBANK_CJK_FONT", raising=False)
    assert fonts.find_cjk_font((str(tmp_path / "none.ttf"), str(fake))) == fake
    monkeypatch.setattr(fonts, "CJK_CANDIDATES", (str(tmp_path / "none.ttf"),))
    message = fonts.missing_font_message("ja")
    assert message is not None and "fonts-ipafont-gothic" in message
    assert fonts.missing_font_message("ru") is None
    monkeypatch.setenv("BOARDBANK_CJK_FONT", str(fake))
    assert fonts.missing_font_message("ja") is None


def test_text_picks_its_font() -> None:
    assert fonts.has_cjk("山田 太郎") and fonts.has_cjk("ＡＢ")
    assert not fonts.has_cjk("Екатерина Română M1,500")


def _view(**kw: Any) -> ViewModel:
    base: dict[str, Any] = {"state": "idle", "edition": "ultimate-uk", "currency": "M", "phase": "play"}
    base.update(kw)
    return ViewModel(**base)


def test_the_router_follows_the_view() -> None:
    assert screen_for(_view(state="setup", phase="setup")) == "setup"
    assert screen_for(_view()) == "table"
    assert screen_for(_view(state="deed")) == "table"
    assert screen_for(_view(state="auction", auction=AuctionView(16, 0, None, (), 10.0))) == "auction"
    assert screen_for(_view(state="debt", debt=DebtView("p1", None, 100))) == "debt"
    assert screen_for(_view(state="event", event_card=EventCardView(1, "event.x", "event.x.text"))) == "event"
    assert screen_for(_view(state="over", phase="over", standings=(StandingView(1, "p1", 1, 0, 1),))) == "standings"


class FakeBanker:
    """Records inputs; its view changes on every input."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []
        self._view = _view()

    def _react(self, name: str, value: object) -> Any:
        self.calls.append((name, value))
        self._view = _view(seq=len(self.calls), prompt=Prompt(f"prompt.{name}"))
        return type("R", (), {"view": self._view, "cues": (), "error": None})()

    def tap(self, uid: str) -> Any:
        return self._react("tap", uid)

    def press(self, button: str, value: str | None = None) -> Any:
        return self._react("press", (button, value))

    def choose(self, value: str) -> Any:
        return self._react("choose", value)

    def tick(self) -> Any:
        return type("R", (), {"view": self._view, "cues": (), "error": None})()

    def may(self, trigger: str) -> bool:
        if trigger == "press_boom":
            raise ValueError("no such trigger")
        return trigger == "press_go"

    @property
    def view(self) -> ViewModel:
        return self._view


def test_the_controller_hands_reader_events_to_the_main_thread() -> None:
    banker = FakeBanker()
    queued: list[Any] = []
    reactions: list[Any] = []
    c = Controller(banker, reactions.append, queued.append)
    c.reader_sink(CardPresented("04A22B1C", "mock://", 0.0))
    c.reader_sink(ReaderLost("mock://", 0.0, "unplugged"))
    assert banker.calls == [] and len(queued) == 2  # nothing runs on the reader's thread
    for fn in queued:
        fn()
    assert banker.calls == [("tap", "04A22B1C")]
    assert c.handled == 1 and len(c.latencies) == 1
    assert c.readers.connected == {"mock://": False} and c.readers.reasons["mock://"] == "unplugged"
    c.on_reader_event(ReaderConnected("mock://", 0.0))
    assert c.readers.all_connected
    assert c.may("press_go") and not c.may("press_jail") and not c.may("press_boom")
    c.tick()
    assert len(reactions) == 1  # an unchanged tick is not reported
    c.intercept = lambda uid: uid == "AAAAAAAA"
    c.on_reader_event(CardPresented("AAAAAAAA", "mock://", 0.0))
    assert banker.calls == [("tap", "04A22B1C")]
