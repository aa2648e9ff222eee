"""The banker: the unit's interaction state machine, between the card reader / buttons and the engine.

Inputs are a card presented (by its registered role), a button, a choice and the passing of time (an
injected clock). Outputs are engine commands (exactly one per completed gesture), a prompt, cues and a
:class:`~engine.banker.viewmodel.ViewModel` snapshot, returned together as a :class:`Reaction`. The banker
holds no money and decides no rule: ``Game.check`` says whether a command is allowed; the machine only
knows which card or button comes next. The states and the one transition table are in
:mod:`engine.banker.table`; the conditions and callbacks it names are methods of
:mod:`engine.banker.context` (core) and :mod:`engine.banker.gestures` (gestures).
The flows at the table are described in ``docs/flows.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from transitions import EventData, Machine, MachineError

from engine.banker.context import Refusal, refusal_params
from engine.banker.gestures import BankerCallbacks
from engine.banker.table import BUTTONS, GESTURE_STATES, MACHINE_KWARGS, BankerState
from engine.banker.view import build_view, phase_state, wealth_history
from engine.banker.viewmodel import Cue, Prompt, ViewModel
from engine.errors import EngineError, IllegalCommand
from engine.events import Event
from engine.store.gamestore import GameStore

CardLookup = Callable[[str], "tuple[str, int | None] | None"]
"""``cards(uid)``: the registered role of a card, or None for an unknown card."""


class BankerError(EngineError, ValueError):
    """A bad call to the banker itself (not a mistake at the table, which is a refused :class:`Reaction`)."""


@dataclass(frozen=True)
class Reaction:
    """What one input produced: durable events, cues, the next prompt, a refusal key and the new view."""

    events: tuple[Event, ...]  # durable engine events produced by this input (already on disk)
    cues: tuple[Cue, ...]  # sounds / reader beeps
    prompt: Prompt  # what to do next
    error: str | None  # a translation key when the input was refused, else None
    view: ViewModel  # the new snapshot
    params: dict[str, str | int] = field(default_factory=dict)  # details of the refusal, e.g. "reason"


_TAP_KINDS = ("player", "deed", "event", "banker")
_BUSY_FROM_IDLE = frozenset({"tap_player", "tap_deed", "tap_event"})


class Banker(BankerCallbacks):
    """The banker state machine over a :class:`GameStore` (see the module docstring).

    ``timeout_s`` is how long (seconds of the injected ``clock``) a half-done gesture waits before it
    returns to idle with nothing changed; ``auction_s`` the auction countdown, restarted by every bid;
    ``pin`` guards the banker menu. ``on_settings``, if given, is called with the new ``timeout_s``,
    ``auction_s`` (seconds) and ``pin`` when the settings are confirmed (✓) in the menu; the banker does no
    I/O itself, the caller may save them and pass them back through the arguments above at the next start.
    """

    state: BankerState

    def __init__(
        self,
        store: GameStore,
        cards: Callable[[str], tuple[str, int | None] | None],
        clock: Callable[[], float],
        *,
        seed_source: Callable[[], int],
        timeout_s: float = 10.0,
        auction_s: float = 10.0,
        pin: str = "1234",
        on_settings: Callable[[Mapping[str, str | float]], None] | None = None,
    ) -> None:
        if timeout_s <= 0 or auction_s <= 0:
            raise BankerError(f"timeouts must be positive seconds, got timeout_s={timeout_s}, auction_s={auction_s}")
        if not pin.isdigit():
            raise BankerError(f"the PIN must be digits, got {pin!r}")
        super().__init__(store, clock, seed_source, timeout_s, auction_s, pin, on_settings)
        self._cards = cards
        self.machine = Machine(model=self, after_state_change="mark_fired", **MACHINE_KWARGS)
        # (state, trigger) -> the machine's own State, Event, and each row with its conditions resolved to
        # bound methods and their targets: may() evaluates them as Condition.check does (send_event=True)
        self._rows: dict[tuple[BankerState, str], tuple[Any, Any, list[tuple[Any, list[tuple[Any, bool]]]]]] = {
            (member, name): (
                self.machine.get_state(member),
                event,
                [(row, [(getattr(self, cond.func) if isinstance(cond.func, str) else cond.func, cond.target)
                        for cond in row.conditions])
                 for row in event.transitions[member.name]],
            )
            for name, event in self.machine.events.items()
            for member in BankerState
            if event.transitions.get(member.name)
        }
        self._durable = store.resume()
        if self._durable is not None:
            past = store.events(self._durable)
            self._history = wealth_history(self._durable.game.edition, past)
            self._note(past)
            self.restore(phase_state(self._durable.game.state.phase))

    # -- restoring -----------------------------------------------------------------------------------
    def restore(self, state: BankerState | str) -> None:
        """Put the machine in ``state`` (e.g. after a restart), checked against the machine's states."""
        name = state.name if isinstance(state, BankerState) else str(state)
        if name not in self.machine.states:
            raise BankerError(f"unknown banker state {state!r}; expected one of {list(self.machine.states)}")
        self.machine.set_state(BankerState[name])
        self.forget_gesture(None)
        if self.state is BankerState.AUCTION:
            self._deadline = self._clock() + self.auction_s

    # -- inputs ----------------------------------------------------------------------------------------
    def tap(self, uid: str) -> Reaction:
        """A card was presented: its registered role decides the trigger (``tap_player`` ...)."""
        role = self._cards(uid)
        if role is None or role[0] not in _TAP_KINDS:
            return self._refused(Refusal("error.unknown_card", {"uid": uid}))
        kind, value = role
        return self._fire(f"tap_{kind}", value, cue=Cue.TAP)

    def press(self, button: str, value: str | None = None) -> Reaction:
        """A button (see :data:`engine.banker.table.BUTTONS`); ``value`` e.g. the bid raise ``"100"``."""
        if button == "roll" and value in ("doubles", "no_doubles"):
            button, value = f"roll_{value}", None
        if button not in BUTTONS:
            return self._refused(Refusal("error.unknown_button", {"button": button}))
        return self._fire(f"press_{button}", value)

    def choose(self, value: str) -> Reaction:
        """An answer: an event card's choice, a PIN digit (or the whole PIN), a ``name=value`` setting."""
        return self._fire("answer", value)

    def tick(self) -> Reaction:
        """Time passed (read from the injected clock): gesture timeouts and the auction countdown."""
        now = self._clock()
        if self.state in GESTURE_STATES and now - self._since >= self.timeout_s:
            return self._fire("timeout", None)
        if self.state is BankerState.AUCTION and self._deadline is not None and now >= self._deadline:
            return self._fire("countdown", None)
        self._begin()
        return self._reaction(None)

    def may(self, trigger: str) -> bool:
        """Whether ``trigger`` (e.g. ``"press_go"``) would be accepted now: the machine's ``may_<trigger>``.

        Evaluated like transitions' ``may_<trigger>()`` (the rows of the current state for that trigger,
        their conditions in order, nothing changed), without its scan of every trigger of the machine.
        """
        found = self._rows.get((self.state, trigger))
        if found is None:
            return False
        state, event, rows = found
        data = EventData(state, event, self.machine, self, (), {})
        self._probing = True
        saved = self._refusal
        try:
            for row, conditions in rows:
                data.transition = row
                if all(method(data) == target for method, target in conditions):
                    return True
            return False
        finally:
            self._probing = False
            self._refusal = saved

    @property
    def view(self) -> ViewModel:
        """The current snapshot of everything the screen shows."""
        return build_view(self)

    @property
    def state_name(self) -> str:
        """The current state's name as shown in views and scripts (e.g. ``"idle"``)."""
        return self.state.value

    # -- machinery -------------------------------------------------------------------------------------
    def _begin(self) -> None:
        self._events: list[Event] = []
        self._cues: list[Cue] = []
        self._refusal = None
        self._fired = False

    def _fire(self, trigger: str, value: str | int | None, cue: Cue | None = None) -> Reaction:
        self._begin()
        if cue is not None:
            self._cues.append(cue)
        kwargs: dict[str, Any] = {"value": value}
        try:
            self.trigger(trigger, **kwargs)
        except MachineError:
            return self._refused(self._classify(trigger))
        except EngineError as exc:
            # a command refused at apply time, or the journal failed: the durable game has rebuilt itself
            # from disk, so the machine goes back to the state its phase implies and reports the failure
            key = "error.rule" if isinstance(exc, ValueError) else "error.storage"
            self._resync()
            params: dict[str, str | int] = (
                refusal_params(exc, "") if isinstance(exc, IllegalCommand) else {"reason": str(exc)})
            return self._refused(Refusal(key, params), moved=True)
        if not self._fired:
            refusal = self._refusal or Refusal("error.not_now", {"trigger": trigger})
            if refusal.key == "error.bad_pin":
                self._gesture.pin = ""
            return self._refused(refusal)
        if trigger not in ("countdown", "settle"):
            self._since = self._clock()
        return self._reaction(None)

    def _classify(self, trigger: str) -> Refusal:
        state = self.state.value
        if trigger.startswith("tap_"):
            if self.state in GESTURE_STATES and trigger in _BUSY_FROM_IDLE:
                return Refusal("error.busy", {"state": state})
            return Refusal("error.wrong_card", {"card": trigger[4:], "state": state})
        return Refusal("error.not_now", {"trigger": trigger, "state": state})

    def _refused(self, refusal: Refusal, *, moved: bool = False) -> Reaction:
        """An error reaction: only the ``err`` cue; no events unless ``moved`` (a failure after a command)."""
        self._cues = [Cue.ERROR]
        if not moved:
            self._events = []
        return self._reaction(refusal)

    def _resync(self) -> None:
        """Back to the state that mirrors the engine's phase (after a failure inside a transition)."""
        phase = self._durable.game.state.phase if self._durable is not None else "setup"
        self.restore(phase_state(phase))

    def _reaction(self, refusal: Refusal | None) -> Reaction:
        view = build_view(self, refusal)
        return Reaction(
            events=tuple(self._events),
            cues=tuple(self._cues),
            prompt=view.prompt,
            error=None if refusal is None else refusal.key,
            view=view,
            params=dict(refusal.params) if refusal else {},
        )

    def mark_fired(self, event: Any) -> None:
        """``after_state_change``: some transition ran for this input."""
        self._fired = True
