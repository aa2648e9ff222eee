"""The live voice (``boardbank run --speak``): a new entry cuts off a stale one (the playing one stopped, the
queued ones dropped, one made stale while synthesised never played), the voice turned off says nothing more,
what is said unasked follows the settings, the balances are said on request, and the table's story keeps
each payment's receipt (ui/touch/voice.py, ui/story/speech.py)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from engine import events as ev
from engine.banker.viewmodel import PlayerView, ViewModel
from tests.speakers import Said
from ui.settings import SettingsStore
from ui.story.names import Names
from ui.story.speech import Speaker
from ui.touch.voice import TableStory, TableVoice


class GatedVoice:
    """Blocks on its first utterance until ``gate`` is set (a voice still busy when new entries come)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.busy = threading.Event()
        self.said: list[str] = []

    def synth(self, text: str, path: Path) -> None:
        self.busy.set()
        self.gate.wait(10)
        self.said.append(text)
        path.write_bytes(b"RIFF")


class Sink:
    def __init__(self) -> None:
        self.done_numbers: list[int] = []
        self.stops = 0

    def done(self, number: int, text: str, wav: Path) -> None:
        self.done_numbers.append(number)

    def stop(self) -> None:
        self.stops += 1


def test_a_new_entry_cuts_off_the_playing_one_and_drops_the_queued_ones(tmp_path: Path) -> None:
    voice, sink = GatedVoice(), Sink()
    speaker = Speaker(tmp_path, "en", voice=voice, sink=sink, cut_off=True)
    speaker.say("Rent: Ann pays Bob M80")
    assert voice.busy.wait(10)  # the worker is synthesising the first one
    speaker.say("Bob's turn")
    speaker.say("Purchase: Bob buys Mayfair for M400")
    assert sink.stops == 3  # each new entry stopped whatever was playing
    voice.gate.set()
    assert speaker.close(timeout_s=30)
    assert voice.said == ["Rent: Ann pays Bob M80", "Purchase: Bob buys Mayfair for M400"]  # the middle one dropped
    assert sink.done_numbers == [3]  # the first one was stale once written: never played
    assert speaker.dropped == 2


def test_without_cut_off_every_entry_is_written_in_order(tmp_path: Path) -> None:
    voice, sink = GatedVoice(), Sink()
    speaker = Speaker(tmp_path, "en", voice=voice, sink=sink)
    for text in ("one", "two", "three"):
        speaker.say(text)
    voice.gate.set()
    assert speaker.close(timeout_s=30)
    assert voice.said == ["one", "two", "three"] and sink.done_numbers == [1, 2, 3] and sink.stops == 0


def test_the_voice_turned_off_says_nothing_more_of_what_was_queued(tmp_path: Path) -> None:
    voice, sink = GatedVoice(), Sink()
    speaker = Speaker(tmp_path, "en", voice=voice, sink=sink, cut_off=True)
    speaker.say("one")
    assert voice.busy.wait(10)
    speaker.hush()
    voice.gate.set()
    assert speaker.close(timeout_s=30)
    assert sink.done_numbers == [] and sink.stops == 2  # at the entry, and as the voice went off


def view() -> ViewModel:
    players = (PlayerView("p1", "Ann", "red", 1480, 1480), PlayerView("p2", "Bob", "green", 1150, 1150))
    return ViewModel(state="idle", edition="ultimate-uk", currency="M", players=players)


def entries() -> list[tuple[Any, Any]]:
    return [(ev.MoneyTransferred(seq=5, command=3, payer="p1", payee="p2", amount=80, reason="fine"), None),
            (ev.TurnEnded(seq=6, command=4, player="p1", next_player="p2"), None)]


def test_what_is_said_unasked_follows_the_topics() -> None:
    names = Names.from_view(view(), "en")
    for topics, count in (((), 0), (("payments",), 1), (("turns",), 1), (("payments", "turns"), 2)):
        said = Said()
        TableVoice(said, True, topics).tell(entries(), names)
        assert len(said.texts) == count, topics
    said = Said()
    TableVoice(said, False).tell(entries(), names)
    assert said.texts == []  # the voice off: nothing


def test_the_balances_are_said_on_request_in_the_tables_language() -> None:
    said = Said()
    text = TableVoice(said).balances(view(), Names.from_view(view(), "ru"))
    assert said.texts == [text]
    assert text == "Балансы: Ann: M1\u00a0480, Bob: M1\u00a0150"
    assert TableVoice(None).balances(view(), Names.from_view(view(), "en")) == ""  # no voice: nothing said


def test_the_speech_settings_are_kept(tmp_path: Path) -> None:
    store = SettingsStore.open(tmp_path / "s.sqlite3")
    assert store.speech() == (True, ("payments", "turns"))
    store.save({"speech": False, "speech_topics": ["turns"]})
    assert store.speech() == (False, ("turns",))
    store.save({"speech_topics": ["gossip"]})  # not a topic: ignored
    assert store.speech()[1] == ("payments", "turns")
    store.close()


def test_the_story_keeps_the_last_payment_with_its_receipt() -> None:
    from engine.commands import PayRent, PlayerSpec, StartGame
    from engine.editions import load_edition
    from engine.game import Game
    from engine.receipts import walk

    classic = load_edition("classic-us")
    game = Game(classic)
    game.apply(StartGame((PlayerSpec("p1", "Ann"), PlayerSpec("p2", "Bob")), {"start_money": 100_000}, seed=1))
    game.state.owner[1] = "p2"
    game.apply(PayRent("p1", 1))
    story = TableStory()
    told = story.add(game.events)
    assert story.last is not None
    event, receipt = story.last
    assert isinstance(event, ev.RentPaid) and receipt is not None and receipt.amount == event.amount
    assert story.told(event.seq) == story.last and story.told(event.seq - 1) is None
    assert told == list(walk(classic, game.events))


def test_a_scratch_folder_keeps_no_stale_utterance(tmp_path: Path) -> None:
    voice, sink = GatedVoice(), Sink()
    speaker = Speaker(tmp_path, "en", voice=voice, sink=sink, cut_off=True, keep_stale=False)
    speaker.say("one")
    assert voice.busy.wait(10)
    speaker.say("two")
    voice.gate.set()
    assert speaker.close(timeout_s=30)
    assert not (tmp_path / "0001.wav").exists() and not (tmp_path / "0001.txt").exists()
    assert (tmp_path / "0002.wav").exists() and sink.done_numbers == [2]


def test_the_player_never_starts_an_utterance_cut_off_since_and_forgets_its_file(tmp_path: Path) -> None:
    from ui.touch.voice import KivyPlayer

    wav = tmp_path / "0001.wav"
    wav.write_bytes(b"RIFF")
    wav.with_suffix(".txt").write_text("one\n")
    player = KivyPlayer(lambda: 0.8, keep=False, schedule=lambda fn: fn())
    player.latest = lambda: 2
    player.done(1, "one", wav)
    assert player.played == [] and not wav.exists() and not wav.with_suffix(".txt").exists()


def test_the_player_plays_at_the_volume_and_a_new_utterance_stops_the_playing_one(
        tmp_path: Path, monkeypatch: Any) -> None:
    from kivy.core import audio

    from ui.touch.voice import KivyPlayer

    class FakeSound:
        length = 1.5

        def __init__(self) -> None:
            self.volume, self.events = 1.0, []

        def play(self) -> None:
            self.events.append("play")

        def stop(self) -> None:
            self.events.append("stop")

        def unload(self) -> None:
            self.events.append("unload")

    sounds: list[FakeSound] = []
    monkeypatch.setattr(audio.SoundLoader, "load", staticmethod(lambda path: sounds.append(FakeSound()) or sounds[-1]))
    player = KivyPlayer(lambda: 0.3, schedule=lambda fn: fn())
    player.latest = lambda: 1
    player.done(1, "one", tmp_path / "0001.wav")
    player.latest = lambda: 2
    player.stop()  # what the speaker does as the next entry comes
    player.done(2, "two", tmp_path / "0002.wav")
    assert player.played == [1, 2] and sounds[0].volume == 0.3
    assert sounds[0].events == ["play", "stop", "unload"] and sounds[1].events == ["play"]


def test_a_player_without_a_sound_device_logs_one_line_and_the_voice_goes_on(
        tmp_path: Path, monkeypatch: Any, caplog: Any) -> None:
    """SDL without a device: Kivy's SoundLoader gives no sound (as on this machine) or raises; the player says
    so once and plays nothing more, the speaker writes every file, and a sink that raises stops nothing."""
    import logging

    from kivy.core import audio

    from ui.touch.voice import KivyPlayer

    loads: list[str] = []

    def load(path: str) -> None:
        loads.append(path)
        if len(loads) == 1:
            return None  # what SoundLoader gives when the mixer could not be opened
        raise RuntimeError("Audio device hasn't been opened")

    monkeypatch.setattr(audio.SoundLoader, "load", staticmethod(load))
    player = KivyPlayer(lambda: 0.8, schedule=lambda fn: fn())
    speaker = Speaker(tmp_path, "en", voice=GatedVoice(), sink=player, cut_off=False)
    player.latest = speaker.latest
    speaker.voice.gate.set()  # type: ignore[attr-defined]
    with caplog.at_level(logging.INFO, logger="ui.touch.voice"):
        for text in ("one", "two", "three"):
            speaker.say(text)
        assert speaker.close(timeout_s=30)
    warned = [r for r in caplog.records if r.name == "ui.touch.voice" and r.levelno >= logging.WARNING]
    assert len(warned) == 1 and "speech silent" in warned[0].getMessage()
    assert len(loads) == 1 and not player.available and player.played == []
    assert speaker.written == 3 and speaker.failures == 0

    class Broken(Sink):
        def done(self, number: int, text: str, wav: Path) -> None:
            raise RuntimeError("the mixer vanished")

    errors: list[str] = []
    speaker = Speaker(tmp_path / "b", "en", voice=GatedVoice(), sink=Broken(), on_error=errors.append)
    speaker.voice.gate.set()  # type: ignore[attr-defined]
    for text in ("one", "two"):
        speaker.say(text)
    assert speaker.close(timeout_s=30) and speaker.written == 2
    assert len(errors) == 2 and "not played" in errors[0]
