"""How the banker waits for the family, so that nothing they are doing is taken from under their hands.

- **Bounces**: the same card presented again within :data:`REPEAT_S` seconds of its previous tap, with no
  other input between, is ignored silently in every state (no cue, no error, nothing changed): a reader
  that reads one card twice (~120 ms apart) must neither say "finish or cancel the current action first"
  nor open a card-first gesture that would charge rent on the owner's next look at the deed. Each ignored
  read restarts the window, as a reader's suppression window does (reader/debounce.py).
- **Entries under way** (a deal, the banker's settings, buildings tapped, a moving card's question of where
  the token stands): the gesture timeout never drops them (a card drawn must be settled by the rules: dropped,
  the same card would come up at the next draw). Every input restarts the count, and so does a touch that is no input for the banker (a keypad key:
  :meth:`engine.banker.machine.Banker.touch`); after :data:`ENTRY_S` seconds of silence the prompt asks
  whether the family is still there (``prompt.still_there``) and keeps the entry: a touch goes on, X drops it.

Times are seconds of the banker's injected clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.banker.context import Gesture
from engine.banker.table import BankerState
from engine.banker.viewmodel import Prompt, ViewModel

ENTRY_S = 60.0
"""Seconds of silence after which a screen with an entry under way asks instead of dropping it."""
ENTRY_STATES = frozenset({BankerState.TRADE, BankerState.TRADE_OPEN, BankerState.SETTINGS,
                          BankerState.CARD_SPACE})
"""States that are an entry under way from the start (building is one once a deed is tapped)."""
REPEAT_S = 1.5
"""Seconds after a card's tap during which the same card again (no other input between) is a bounce."""


def entry_under_way(state: BankerState, gesture: Gesture) -> bool:
    """Whether ``state`` holds an entry the family is making (a deal, the settings, buildings tapped)."""
    return state in ENTRY_STATES or (state is BankerState.BUILD and bool(gesture.steps))


@dataclass
class Patience:
    """The bounce of the last finishing tap and the long silence's question (see the module docstring)."""

    last_tap: tuple[str, float] | None = None  # (uid, when) of the last tap, handled or ignored
    asking: bool = False  # the question of a long silence is on the screen

    def on_input(self, kind: str) -> None:
        """A new input of ``kind``: ``"tap"``, ``"tick"`` or another ``"input"`` (a button, an answer)."""
        if kind != "tick":  # a touch answers the question
            self.asking = False
        if kind == "input":  # a button or an answer between two taps: the second is no bounce
            self.last_tap = None

    def bounce(self, uid: str, now: float) -> bool:
        """Whether a tap of ``uid`` now is a second read of the last tap (same card, within :data:`REPEAT_S`);
        either way the window restarts from now."""
        last = self.last_tap
        self.last_tap = (uid, now)
        return last is not None and last[0] == uid and 0 <= now - last[1] < REPEAT_S

    def waits(self, state: BankerState, gesture: Gesture, silent_s: float, timeout_s: float) -> bool:
        """On a tick after ``silent_s`` seconds without input: True when an entry is under way (the timeout
        must not fire), asking once the silence reaches :data:`ENTRY_S` (or the timeout, if longer)."""
        if not entry_under_way(state, gesture):
            return False
        if silent_s >= max(ENTRY_S, timeout_s):
            self.asking = True
        return True

    def shown(self, view: ViewModel, state: BankerState) -> ViewModel:
        """``view`` with the question as its prompt while it is asked."""
        if not self.asking:
            return view
        return replace(view, prompt=Prompt("prompt.still_there", (("state", state.value),)))
