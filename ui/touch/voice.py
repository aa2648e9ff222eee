"""The table tells what happened: the last payment's story sentence and receipt, and the unit's voice.

:class:`TableStory` keeps the game's :class:`engine.receipts.ReceiptBook` (started with a resumed game's
events) and the last entry that moved money with its receipt; the presenter says it as the transaction
line and the table shows its receipt when the line is touched. :class:`TableVoice` says each payment, whose
turn it is and the standings through a :class:`ui.story.speech.Speaker` (a worker thread: a tap never waits
for a voice) with ``cut_off``: a new entry stops the one playing and drops the queued ones.
:class:`KivyPlayer` plays each WAV with Kivy's SoundLoader (SDL's audio, as the cues are played) on the main
thread. Volume is 0.0-1.0.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine import events as ev
from engine.receipts import Receipt, ReceiptBook, money_of
from ui.story.names import Names
from ui.story.sentences import sentence

log = logging.getLogger(__name__)

TOPICS: tuple[str, ...] = ("payments", "turns")
"""What the unit says unasked (each a setting): each payment's sentence, whose turn it is. The standings at
the end are always said, the balances when asked (the table's "Say balances" button)."""


class TableStory:
    """The receipts of the game on the table and its last money entry (event, receipt)."""

    def __init__(self) -> None:
        self.book = ReceiptBook()
        self.last: tuple[Any, Receipt | None] | None = None

    def start(self, banker: Any) -> None:
        """Start afresh for ``banker``'s game (a resumed one: its events so far; else at its GameStarted)."""
        durable = getattr(banker, "durable", None)
        self.last = None
        if durable is None:
            self.book = ReceiptBook()
            return
        self.book = ReceiptBook(durable.game.edition)
        self.add(durable.game.events)

    def add(self, events: Iterable[Any]) -> list[tuple[Any, Receipt | None]]:
        """Take the new durable events (whole commands, in order); returns each with its receipt."""
        told = self.book.add(tuple(events))
        for event, receipt in told:
            if money_of(event) is not None:
                self.last = (event, receipt)
        return told

    def told(self, seq: int) -> tuple[Any, Receipt | None] | None:
        """The last money entry when it is the one numbered ``seq`` (the view's last transaction), else None."""
        return self.last if self.last is not None and self.last[0].seq == seq else None


class KivyPlayer:
    """A :class:`ui.story.speech.Sink` that plays each WAV with Kivy's SoundLoader on the main thread.

    ``volume`` (0.0-1.0) is read when a WAV starts; ``keep=False`` deletes each file once loaded (``--speak``
    alone: nothing piles up in the temporary folder). Without an audio device it goes silent after one log
    line. ``latest`` gives the newest utterance number: an older one is not started (cut off)."""

    def __init__(self, volume: Callable[[], float], keep: bool = True,
                 schedule: Callable[[Callable[[], None]], None] | None = None) -> None:
        self.volume = volume
        self.keep = keep
        self.latest: Callable[[], int] = lambda: 0
        self.available = True
        self.played: list[int] = []  # utterance numbers started (tests read it)
        self._sound: Any = None
        self._schedule = schedule or _main_thread

    def done(self, number: int, text: str, wav: Path) -> None:
        self._schedule(lambda: self._play(number, wav))

    def _play(self, number: int, wav: Path) -> None:
        if number < self.latest():
            self._forget(wav)
            return
        self.stop()
        if not self.available or self.volume() <= 0.0:
            self._forget(wav)
            return
        try:
            from kivy.core.audio import SoundLoader

            sound = SoundLoader.load(str(wav))
            if sound is None or not sound.length:
                raise OSError("no audio provider could play the voice")
            sound.volume = self.volume()
            sound.play()
            self._sound = sound
            self.played.append(number)
        except Exception as exc:  # any audio back-end failure: the voice goes silent, the game goes on
            self.available = False
            log.warning("speech silent (no usable audio device): %s", exc)
        self._forget(wav)

    def _forget(self, wav: Path) -> None:
        if not self.keep:
            for path in (wav, wav.with_suffix(".txt")):
                path.unlink(missing_ok=True)

    def stop(self) -> None:
        """Stop the utterance playing (a newer one cuts it off)."""
        sound, self._sound = self._sound, None
        if sound is not None:
            try:
                sound.stop()
                sound.unload()
            except Exception as exc:  # a device that vanished: nothing more to stop
                log.info("could not stop the voice: %s", exc)


def _main_thread(fn: Callable[[], None]) -> None:
    from kivy.clock import Clock

    Clock.schedule_once(lambda _dt: fn(), 0)


class TableVoice:
    """What the unit says aloud, and whether: ``on``, the :data:`TOPICS` said unasked, the language.

    ``speaker`` is a :class:`ui.story.speech.Speaker` (None: this unit has no voice: ``boardbank run`` without
    ``--speak`` or ``--speak-to``)."""

    def __init__(self, speaker: Any = None, on: bool = True, topics: Iterable[str] = TOPICS) -> None:
        self.speaker = speaker
        self.on = on
        self.topics = set(topics) & set(TOPICS)
        self.scratch: Path | None = None  # the temporary folder of --speak alone, removed at close

    @property
    def available(self) -> bool:
        """The unit has a voice."""
        return self.speaker is not None

    def set_language(self, lang: str) -> None:
        """Speak ``lang`` from the next utterance (its Piper model's voice where one is installed, else
        espeak-ng's)."""
        if self.speaker is None or self.speaker.lang == lang:
            return
        from ui.story.speech import SpeechError, voice_for

        try:
            self.speaker.voice = voice_for(lang, getattr(self.speaker, "on_error", None))
            self.speaker.lang = lang
        except SpeechError as exc:
            log.warning("the voice stays %s: %s", self.speaker.lang, exc)

    def tell(self, told: Iterable[tuple[Any, Receipt | None]], names: Names) -> None:
        """Say what is said of the new entries (payments, turns, the standings), when the voice is on."""
        if self.speaker is None or not self.on:
            return
        for event, receipt in told:
            said = ((isinstance(event, ev.GameEnded))
                    or (isinstance(event, ev.TurnEnded) and "turns" in self.topics)
                    or (money_of(event) is not None and "payments" in self.topics))
            if said:
                self.speaker.say(sentence(event, names, receipt))

    def balances(self, view: Any, names: Names) -> str:
        """Say every player's balance now (the "Say balances" button); returns the text ("" without a voice)."""
        players = [p for p in view.players if not getattr(p, "bankrupt", False)]
        if self.speaker is None or not players:
            return ""
        each = names.text("story.sep").join(
            names.text("speech.balance", player=names.player(p.id), amount=names.money(p.balance)) for p in players)
        text = names.text("speech.balances", list=each)
        self.speaker.say(text)
        return text

    def close(self, timeout_s: float = 30.0) -> None:
        """Stop the voice (what is queued is written first, at most ``timeout_s``)."""
        if self.speaker is not None:
            self.speaker.close(timeout_s)
            stop = getattr(self.speaker.sink, "stop", None)
            if stop is not None:
                stop()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


def make_voice(args: Any, lang: str, settings: Any, volume: Callable[[], float],
               on_error: Callable[[str], None]) -> TableVoice:
    """The voice of ``boardbank run``: ``--speak`` plays through the sound output (cutting off stale
    entries), ``--speak-to DIR`` also keeps every utterance in DIR (``NNNN.wav`` + ``NNNN.txt``); neither: no
    voice. On/off and the topics come from the installation's settings. The speech module is imported only
    for a voice (the kiosk's memory, bench/bench_memory.py)."""
    speak, folder = bool(getattr(args, "speak", False)), getattr(args, "speak_to", None)
    on, topics = (settings.speech() if settings is not None else (True, TOPICS))
    if not speak and not folder:
        return TableVoice(None, on, topics)
    from ui.story.speech import Speaker

    where = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="boardbank-voice-"))
    player = KivyPlayer(volume, keep=bool(folder)) if speak else None
    speaker = Speaker(where, lang, sink=player, on_error=on_error, cut_off=speak, keep_stale=bool(folder))
    if player is not None:
        player.latest = speaker.latest
    voice = TableVoice(speaker, on, topics)
    voice.scratch = None if folder else where
    return voice
