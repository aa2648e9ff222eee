"""The app's part in telling the table what happened: every reaction's new entries go to the table's story
(the transaction line's sentence, the receipts) and to the voice; the language and the voice's settings
follow the UI's (ui/touch/voice.py)."""

from __future__ import annotations

from typing import Any

from engine import events as ev
from ui.touch.voice import TOPICS, TableStory, TableVoice


class TellingMixin:
    """Mixed into :class:`ui.touch.screens.root.BoardBankApp` (``voice=``: the unit's voice), which calls
    :meth:`start_story` as it attaches a session and :meth:`tell` with each reaction before it renders it."""

    presenter: Any
    sounds: Any

    def __init__(self, *args: Any, voice: TableVoice | None = None, **kwargs: Any) -> None:
        self.story = TableStory()
        self.voice = voice or TableVoice()
        super().__init__(*args, **kwargs)

    def start_story(self, session: Any) -> None:
        """A session is attached: the story starts with its game (a resumed one's events so far)."""
        self.story.start(getattr(session, "banker", None))
        self.presenter.story = self.story

    def tell(self, reaction: Any) -> None:
        """A reaction's new entries: into the story (the line, the receipts) and to the voice."""
        if not getattr(reaction, "duplicate", False):
            fresh = [e for e in getattr(reaction, "events", ()) if e.seq > self.story.book.seq or isinstance(e, ev.GameStarted)]
            told = self.story.add(fresh)
            if told:
                from ui.story.names import Names

                self.voice.tell(told, Names.from_view(reaction.view, self.presenter.tr.lang, self.presenter.tr))

    # -- the voice's settings (the menu's row) and the table's button ------------------------------------
    def say_balances(self) -> str:
        """The table's "Say balances" button: every player's balance said now; returns the text."""
        self.sounds.play("tap")
        return self.voice.balances(self.presenter.view, self.presenter.names())

    def toggle_speech(self, topic: str = "") -> None:
        """The voice on or off (``topic`` "": the whole voice; else a :data:`ui.touch.voice.TOPICS` item)."""
        if not topic:
            self.voice.on = not self.voice.on
            if not self.voice.on and self.voice.speaker is not None:
                self.voice.speaker.hush()
        elif topic in TOPICS:
            self.voice.topics ^= {topic}
        self.remember(speech=self.voice.on,  # type: ignore[attr-defined]
                      speech_topics=[t for t in TOPICS if t in self.voice.topics])
        self.render(self.presenter.view)  # type: ignore[attr-defined]
