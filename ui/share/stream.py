"""The live pages' side of the share: the game's events and view as Server-Sent Events, per language.

A :class:`Hub` lives on the server's loop (one thread: no locks). It keeps the current game's events (the
engine's frozen event objects, seq order, each kept once), the latest view-model and the token, and one
:class:`Subscriber` per live page. Each journal event goes out as ``id: SEQ`` / ``event: ev`` (so a page
that reconnects sends ``Last-Event-ID`` and gets exactly the events after it); each view as ``event:
view`` without an id. Messages are encoded once per language and shared by the phones of that language.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from typing import Any

from ui.share.render import event_message, view_message


def _sse(kind: str, data: dict[str, Any], seq: int | None = None) -> bytes:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    head = f"id: {seq}\n" if seq is not None else ""
    return f"{head}event: {kind}\ndata: {text}\n\n".encode()


class Subscriber:
    """One live page: its language and the chunks waiting to be written (at most ``backlog``: a phone
    that reads nothing is dropped and catches up after its reconnect)."""

    def __init__(self, lang: str, backlog: int) -> None:
        self.lang = lang
        self.backlog = backlog
        self._chunks: deque[bytes | None] = deque()
        self._ready = asyncio.Event()

    def push(self, chunk: bytes | None) -> None:
        if len(self._chunks) >= self.backlog:
            self._chunks.clear()
            chunk = None  # too far behind: end the stream
        self._chunks.append(chunk)
        self._ready.set()

    async def next_chunk(self) -> bytes | None:
        """Everything waiting, as one chunk; None when the stream ends."""
        while not self._chunks:
            self._ready.clear()
            await self._ready.wait()
        parts: list[bytes] = []
        while self._chunks:
            chunk = self._chunks.popleft()
            if chunk is None:
                self._chunks.appendleft(None)
                break
            parts.append(chunk)
        return b"".join(parts) if parts else None


class Hub:
    """The game as the phones see it, and the pages watching it."""

    def __init__(self) -> None:
        self.token = ""
        self.game: int | None = None
        self.events: list[Any] = []
        self.view: Any = None
        self.subscribers: set[Subscriber] = set()
        self._event_bytes: dict[tuple[int, str], bytes] = {}
        self._view_bytes: dict[str, bytes] = {}
        self._last_sent: dict[str, bytes] = {}  # per language, the view pushed last since the last events

    @property
    def last_seq(self) -> int:
        return int(self.events[-1].seq) if self.events else 0

    def update(self, game: int | None, token: str, events: tuple[Any, ...], view: Any, send_view: bool = True) -> None:
        """A new snapshot from the banker: a new token ends every page of the old one. ``send_view`` False:
        only the events go out (a later update of the same batch brings the view)."""
        if token != self.token or (game is not None and self.game is not None and game != self.game):
            self.close_all()
            self.events = []
            self._event_bytes.clear()
            self.token = token
        if game is not None and game != self.game:
            self.events = []
            self._event_bytes.clear()
        self.game = game
        fresh = [e for e in events if int(e.seq) > self.last_seq]
        fresh.sort(key=lambda e: int(e.seq))
        self.events.extend(fresh)
        self.view = view
        self._view_bytes = {}
        for sub in self.subscribers:
            for event in fresh:
                sub.push(self._event_chunk(event, sub.lang))
        if fresh:
            self._last_sent = {}  # after new events every page gets the view again
        if not send_view:
            return
        sent: dict[str, bytes] = {}
        for sub in self.subscribers:
            chunk = sent.get(sub.lang) or self._view_chunk(sub.lang)
            sent[sub.lang] = chunk
            if chunk != self._last_sent.get(sub.lang):  # the same table again (a gesture's step) is not sent
                sub.push(chunk)
        self._last_sent.update(sent)

    def join(self, sub: Subscriber, since: int) -> bytes:
        """Add a page that has seen the events up to ``since``; returns what it must get first: the
        events after ``since`` and the current view."""
        self.subscribers.add(sub)
        parts = [self._event_chunk(e, sub.lang) for e in self.events if int(e.seq) > since]
        if self.view is not None:
            parts.append(self._view_chunk(sub.lang))
        return b"".join(parts)

    def leave(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)

    def close_all(self) -> None:
        for sub in list(self.subscribers):
            sub.push(None)
        self.subscribers.clear()

    def _event_chunk(self, event: Any, lang: str) -> bytes:
        key = (int(event.seq), lang)
        chunk = self._event_bytes.get(key)
        if chunk is None:
            chunk = self._event_bytes[key] = _sse("ev", event_message(event, self.view, lang, self.events),
                                                     int(event.seq))
        return chunk

    def _view_chunk(self, lang: str) -> bytes:
        chunk = self._view_bytes.get(lang)
        if chunk is None:
            chunk = self._view_bytes[lang] = _sse("view", view_message(self.view, lang))
        return chunk
