"""``stdin://``: taps typed (or piped) as lines, for a terminal or a script.

Lines::

    tap 04A22B1C     a card is put on the reader (any form normalize_uid accepts)
    04A22B1C         the same, shorter
    remove           the card is lifted
    # comment        ignored, as are blank lines

``stdin://`` reads standard input; ``stdin://?fd=N`` reads file descriptor N (a pipe in tests); the
constructor also takes any text stream. Like the mock, a ``tap`` while a card is down lifts the old one
first, so every ``tap`` line is one presentation. A malformed line is reported on ``errors`` (stderr)
and skipped. End of input gives :class:`~reader.events.ReaderLost`.
"""

from __future__ import annotations

import os
import select
import sys
import threading
import time
from typing import TextIO
from urllib.parse import parse_qs, urlsplit

from reader.base import EventSink, ProbeResult, Reader, ReaderError
from reader.events import (
    CardPresented,
    CardRemoved,
    ReaderConnected,
    ReaderEvent,
    ReaderLost,
    UidError,
    normalize_uid,
)

_POLL_S = 0.05  # seconds between checks of the stop flag while waiting for input


class StdinReader(Reader):
    """Reads ``tap UID`` / ``remove`` lines in a background thread."""

    def __init__(self, url: str = "stdin://", stream: TextIO | None = None, errors: TextIO | None = None) -> None:
        super().__init__(url)
        query = parse_qs(urlsplit(url).query)
        fd_text = query.get("fd", [""])[0]
        if fd_text and not fd_text.isdigit():
            raise ReaderError(f"stdin://?fd=N needs a file descriptor number, got {url!r}")
        self._fd: int | None = int(fd_text) if fd_text else None
        self._stream = stream
        self._errors = errors
        self._sink: EventSink | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._present: str | None = None
        self.bad_lines = 0
        """How many lines were not understood."""

    def start(self, sink: EventSink) -> None:
        """Start the reading thread; emits ReaderConnected at once."""
        if self._thread is not None:
            raise ReaderError(f"reader {self.url!r} is already started")
        self._sink = sink
        self._emit(ReaderConnected(self.name, time.monotonic(), info="stdin"))
        self._thread = threading.Thread(target=self._run, name=f"reader-{self.url}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop reading and delivering; idempotent (a thread blocked in a stream's readline is abandoned)."""
        self._stop.set()
        with self._lock:
            self._sink = None
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2 * _POLL_S)

    # -------------------------------------------------------------------------------- input

    def _run(self) -> None:
        fd = self._fd
        if fd is None and self._stream is None:
            fd = sys.stdin.fileno() if sys.stdin is not None else None
        if fd is not None:
            self._run_fd(fd)
        elif self._stream is not None:
            for line in self._stream:
                if self._stop.is_set():
                    return
                self.handle_line(line)
        if not self._stop.is_set():
            self._emit(ReaderLost(self.name, time.monotonic(), reason="end of input"))

    def _run_fd(self, fd: int) -> None:
        pending = b""
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([fd], [], [], _POLL_S)
                if not ready:
                    continue
                chunk = os.read(fd, 4096)
            except OSError:
                return
            if not chunk:
                if pending:
                    self.handle_line(pending.decode("utf-8", "replace"))
                return
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                self.handle_line(raw.decode("utf-8", "replace"))

    def handle_line(self, line: str) -> None:
        """Act on one input line (public so a UI console can feed lines directly)."""
        words = line.split()
        if not words or words[0].startswith("#"):
            return
        verb = words[0].lower()
        try:
            if verb == "remove" and len(words) == 1:
                self._remove()
            elif verb == "tap" and len(words) >= 2:
                self._tap(normalize_uid("".join(words[1:])))
            elif len(words) == 1 and verb not in ("tap", "remove"):
                self._tap(normalize_uid(words[0]))
            else:
                raise UidError(f"expected 'tap UID' or 'remove', got {line.strip()!r}")
        except UidError as exc:
            self.bad_lines += 1
            print(f"stdin reader: {exc}", file=self._errors if self._errors is not None else sys.stderr)

    def _tap(self, uid: str) -> None:
        with self._lock:
            old, self._present = self._present, uid
        now = time.monotonic()
        if old is not None:
            self._emit(CardRemoved(old, self.name, now))
        self._emit(CardPresented(uid, self.name, now))

    def _remove(self) -> None:
        with self._lock:
            old, self._present = self._present, None
        if old is not None:
            self._emit(CardRemoved(old, self.name, time.monotonic()))

    def _emit(self, event: ReaderEvent) -> None:
        with self._lock:
            sink = self._sink
        if sink is not None and not self._stop.is_set():
            sink(event)

    @classmethod
    def list_devices(cls) -> list[str]:
        """Standard input is always there."""
        return ["stdin://"]

    @classmethod
    def probe(cls, url: str, timeout_s: float = 1.0) -> ProbeResult:
        """Standard input (or the file descriptor in the URL) needs no probing."""
        return ProbeResult(True, "card UIDs typed on standard input")
