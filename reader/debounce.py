"""Debouncing: exactly one tap per presentation of a card.

Readers report sightings of a card, often more than once per presentation: a bridge that repeats a
report (a duplicate frame), a chip polled every few milliseconds, a reader that re-reports after a
reconnect. :class:`Debouncer` turns sightings into presentations in one of two modes:

* **removal sensed** (``senses_removal=True``): a presentation lasts from the first sighting of a UID
  to :meth:`Debouncer.gone`; sightings of the card on the reader in between are duplicates. A sighting
  of a different UID ends the previous presentation (the card was swapped).
* **suppression window** (``senses_removal=False``, readers that cannot sense removal): a sighting of
  the same UID within ``window_s`` seconds of its previous sighting is the same presentation; every
  sighting restarts the window, so a card left on a polled reader never repeats, while the same card
  lifted and presented again after ``window_s`` counts again. A different UID always counts.

Times are seconds on one monotonic clock (the caller passes them; this module never reads a clock).
"""

from __future__ import annotations

import threading

DEFAULT_WINDOW_S = 1.0
"""Seconds: the default same-UID suppression window for readers that cannot sense removal."""


class Debouncer:
    """Turns card sightings into presentations; thread-safe."""

    def __init__(self, senses_removal: bool, window_s: float = DEFAULT_WINDOW_S) -> None:
        if window_s < 0:
            raise ValueError(f"the suppression window is a non-negative number of seconds, got {window_s!r}")
        self.senses_removal = senses_removal
        self.window_s = window_s
        self._lock = threading.Lock()
        self._present: str | None = None
        self._last_seen = 0.0  # seconds, the caller's clock
        self.suppressed = 0
        """How many sightings were duplicates of a presentation already reported."""

    @property
    def present(self) -> str | None:
        """The UID of the card currently on the reader as far as this debouncer knows, or None."""
        with self._lock:
            return self._present

    def seen(self, uid: str, t: float) -> bool:
        """Record a sighting of ``uid`` at time ``t`` (seconds); True if it starts a new presentation."""
        with self._lock:
            if self.senses_removal:
                if uid == self._present:
                    self.suppressed += 1
                    return False
                self._present, self._last_seen = uid, t
                return True
            same = uid == self._present and t - self._last_seen < self.window_s
            self._present, self._last_seen = uid, t
            if same:
                self.suppressed += 1
            return not same

    def gone(self, uid: str | None, t: float) -> str | None:
        """The reader says a card left at time ``t``; return the UID whose presentation ended, if any.

        ``uid`` None means "whatever card was there". A report for a card that is not the one present
        (a stale or duplicate removal) ends nothing and returns None. In window mode removal is not
        sensed: this only returns the UID and leaves the window running.
        """
        with self._lock:
            if self._present is None or (uid is not None and uid != self._present):
                return None
            ended = self._present
            if self.senses_removal:
                self._present = None
            return ended

    def reset(self) -> None:
        """Forget the card on the reader (the reader was lost; its next report is a new presentation)."""
        with self._lock:
            self._present = None
            self._last_seen = 0.0
