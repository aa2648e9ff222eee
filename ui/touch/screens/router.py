"""The bridge between the banker and the screens: which screen shows a view-model, and the controller
that sends the screens' actions to the banker and hands reader events to the Kivy main thread.

Nothing here decides a rule: :func:`screen_for` only looks at which parts of the view-model are set,
and :class:`Controller` only forwards taps, presses and choices and reports what came back.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.banker.viewmodel import ViewModel
from reader.events import CardPresented, ReaderConnected, ReaderEvent, ReaderLost

log = logging.getLogger(__name__)

SWALLOW_S = 0.6
"""Seconds after the clock changed the screen (a timeout, the auction's end) during which a button press is
dropped: it was meant for the screen that just closed, never for the one underneath."""

SETUP_STATES: frozenset[str] = frozenset({"setup", "register", "registering"})
"""Banker state names that mean "no game running yet" (the setup screen)."""


class BankerLike(Protocol):
    """What the UI needs of ``engine.banker.Banker``."""

    def tap(self, uid: str) -> Any: ...
    def press(self, button: str, value: str | None = None) -> Any: ...
    def choose(self, value: str) -> Any: ...
    def tick(self) -> Any: ...
    def may(self, trigger: str) -> bool: ...
    @property
    def view(self) -> ViewModel: ...


CLASSIC_SCREENS: tuple[tuple[str, str], ...] = (
    ("building", "build"), ("mortgage", "mortgage"), ("trade", "trade"), ("tax", "tax"))
"""The classic game's gesture views (view-model field, screen), before the debt (a debtor sells and
mortgages through them); the card drawn comes after it."""


def screen_for(view: ViewModel) -> str:
    """The screen that shows ``view``: standings, auction, the classic gestures, debt, card, event, setup or
    table."""
    state = view.state.lower()
    phase = getattr(view, "phase", "") or ""
    if view.standings or state == "over" or phase == "over":
        return "standings"
    if getattr(view, "question", None) is not None:  # count it: before the payment it holds back
        return "question"
    if view.auction is not None:
        return "auction"
    for name, screen in CLASSIC_SCREENS:
        if getattr(view, name, None) is not None:
            return screen
    if state == "dice":  # the classic game: a utility's dice total
        return "dice"
    if view.debt is not None:
        return "debt"
    if getattr(view, "card", None) is not None:
        return "card"
    if view.event_card is not None:
        return "event"
    if state in SETUP_STATES or phase == "setup":
        return "setup"
    return "table"


@dataclass
class ReaderStatus:
    """The readers the UI has heard of: name -> connected, and the last reason a reader was lost."""

    connected: dict[str, bool] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)

    def apply(self, event: ReaderEvent) -> None:
        """Record a ReaderConnected / ReaderLost."""
        if isinstance(event, ReaderConnected):
            self.connected[event.reader] = True
            self.reasons.pop(event.reader, None)
        elif isinstance(event, ReaderLost):
            self.connected[event.reader] = False
            self.reasons[event.reader] = event.reason

    @property
    def all_connected(self) -> bool:
        return bool(self.connected) and all(self.connected.values())


class Controller:
    """Sends actions to the banker on the main thread and passes every reaction to ``on_reaction``.

    ``schedule`` runs a callable on the main thread (Kivy: ``Clock.schedule_once``); reader threads call
    :meth:`reader_sink`, never the banker. ``latencies`` keeps the last 1,024 (reader event time -> view
    rendered) delays in seconds, bounded so a long game does not grow it.
    """

    def __init__(self, banker: BankerLike, on_reaction: Callable[[Any], None],
                 schedule: Callable[[Callable[[], None]], None]) -> None:
        self.banker = banker
        self.on_reaction = on_reaction
        self.schedule = schedule
        self.readers = ReaderStatus()
        self.on_readers: Callable[[ReaderStatus], None] | None = None
        self.handled = 0  # reader card events handled on the main thread (the script runner waits on it)
        self.latencies: deque[float] = deque(maxlen=1024)
        self.last_reaction: Any = None
        self.intercept: Callable[[str], bool] | None = None
        """Called with a tapped UID before the banker; True means the tap was used (card enrolment)."""
        self.resolve: Callable[[CardPresented], Any] | None = None
        """Called with a card before the banker: a refusal Reaction (its record contradicts the registry,
        ui/cardrecord.py) or None to go on; a card known only by its record is enrolled by it."""
        self.changed_by_clock = -SWALLOW_S  # time.monotonic() when a tick last changed the screen
        self.last_input = time.monotonic()  # when an input (not a tick) was last handed to the banker

    @property
    def view(self) -> ViewModel:
        return self.banker.view

    # -- from reader threads ----------------------------------------------------------------------
    def reader_sink(self, event: ReaderEvent) -> None:
        """The reader callback: thread-safe, returns at once, the work happens on the main thread."""
        self.schedule(lambda: self.on_reader_event(event))

    # -- on the main thread -----------------------------------------------------------------------
    def on_reader_event(self, event: ReaderEvent) -> None:
        """Handle one reader event on the main thread."""
        if isinstance(event, CardPresented):
            refusal = self.resolve(event) if self.resolve is not None else None
            if refusal is not None:
                self._react(refusal)
            elif self.intercept is None or not self.intercept(event.uid):
                self.tap(event.uid)
            self.latencies.append(max(0.0, time.monotonic() - event.t))
            self.handled += 1
        elif isinstance(event, ReaderConnected | ReaderLost):
            self.readers.apply(event)
            if self.on_readers is not None:
                self.on_readers(self.readers)
        else:
            self.handled += 1

    def tap(self, uid: str) -> Any:
        """A card was tapped."""
        return self._react(self.banker.tap(uid))

    def press(self, button: str, value: str | None = None) -> Any:
        """A context button was pressed (``value`` for buttons that carry one); dropped (None) right after
        the clock changed the screen (:data:`SWALLOW_S`)."""
        return None if self.swallowed() else self._react(self.banker.press(button, value))

    def choose(self, value: str) -> Any:
        """An answer to an event card or a question (dropped like :meth:`press`)."""
        return None if self.swallowed() else self._react(self.banker.choose(value))

    def touch(self) -> None:
        """The screen was touched (a keypad key too): the banker's gesture timeout restarts."""
        touch = getattr(self.banker, "touch", None)
        if touch is not None:
            before = self.banker.view
            reaction = touch()
            if reaction.view != before:  # the long silence's question went away
                self.on_reaction(reaction)

    def swallowed(self) -> bool:
        """Whether a button now is a touch meant for the screen the clock just closed."""
        return time.monotonic() - self.changed_by_clock < SWALLOW_S

    def tick(self) -> Any:
        """The clock tick (timeouts, auction countdown); reported only when something changed."""
        before = self.banker.view
        reaction = self.banker.tick()
        if reaction.view != before or reaction.cues or reaction.error:
            if screen_for(reaction.view) != screen_for(before):
                self.changed_by_clock = time.monotonic()
            self.on_reaction(reaction)
        return reaction

    def may(self, trigger: str) -> bool:
        """Whether the banker allows ``trigger`` now (buttons are enabled by it)."""
        try:
            return bool(self.banker.may(trigger))
        except (ValueError, KeyError, AttributeError) as exc:
            log.debug("may(%r) refused: %s", trigger, exc)
            return False

    def _react(self, reaction: Any) -> Any:
        self.last_reaction, self.last_input = reaction, time.monotonic()
        self.on_reaction(reaction)
        return reaction
