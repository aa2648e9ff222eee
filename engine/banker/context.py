"""The banker's core: its state, helpers, and the menu and phase callbacks of the transition table.

Conditions ``can_*`` build the one command a gesture would issue and ask ``Game.check``; when the engine
refuses, they record a :class:`Refusal` (translation key + the engine's reason) that the banker reports.
Routing conditions (``deed_unowned``, ``phase_*``...) record nothing. Callbacks ``do_*`` apply exactly one
command through the durable game, so its events are on disk before they are reported. Every callback
receives the transitions ``EventData`` (``send_event=True``); the input's value is ``event.kwargs["value"]``
(a seat, deed or card number for taps, a string for buttons and answers, None when probing ``may_*``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import commands as c
from engine.banker.view import BoardCache, last_transaction, player_id
from engine.banker.viewmodel import Cue, TransactionView
from engine.editions import Edition
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import Game
from engine.rulesets.ultimate.state import GameState
from engine.store.durable import DurableGame
from engine.store.gamestore import GameStore

_MONEY_EVENTS = frozenset({"RentPaid", "MoneyTransferred", "DeedBought", "AuctionWon", "LocationUsed",
                           "DeedReturned", "DebtSettled", "PlayerBankrupt"})


@dataclass(frozen=True)
class Refusal:
    """Why an input was refused: a translation key (``error.*``) and its parameters."""

    key: str
    params: dict[str, str | int] = field(default_factory=dict)


def refusal_params(reason: str | IllegalCommand, command: str) -> dict[str, str | int]:
    """The parameters of an ``error.rule`` refusal: the engine's English ``reason``, the ``command``, and,
    when the engine gave one, ``reason_key`` (the translation key ``reason.<key>``) plus the engine's own
    parameters (deed numbers, player ids, amounts in money units), so a screen can say it in any language."""
    params: dict[str, str | int] = {"reason": str(reason)}
    if command:
        params["command"] = command
    key = getattr(reason, "key", None)
    if isinstance(key, str):
        params["reason_key"] = f"reason.{key}"
        for name, value in getattr(reason, "params", {}).items():
            params.setdefault(name, value)
    return params


@dataclass
class Gesture:
    """What the gesture under way has collected so far (all reset when it completes or is abandoned)."""

    deed: int | None = None  # deed number tapped
    player: str | None = None  # player id tapped
    action: str | None = None  # a button waiting for its player card
    event_card: int | None = None  # a physical event card waiting for its drawer
    choices: list[str | int] = field(default_factory=list)  # partial answer to an event card
    pin: str = ""  # PIN digits typed so far
    settings: dict[str, str | float] = field(default_factory=dict)  # settings chosen, in force only after ✓


def input_value(event: Any) -> Any:
    """The input's value carried by a trigger (a seat, deed or card number, a string, or None)."""
    return event.kwargs.get("value")


class BankerCore:
    """The banker's state, its helpers, and the menu and phase callbacks (setup is in
    :class:`engine.banker.setup.BankerSetup`, the gestures in :class:`engine.banker.gestures.BankerCallbacks`;
    :class:`engine.banker.Banker` adds inputs and the machine)."""

    state: Any
    trigger: Callable[..., bool]  # bound by the transitions machine

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        seed_source: Callable[[], int],
        timeout_s: float,
        auction_s: float,
        pin: str,
        on_settings: Callable[[Mapping[str, str | float]], None] | None = None,
    ) -> None:
        self._store = store
        self._on_settings = on_settings
        self._clock = clock
        self._seed_source = seed_source
        self.timeout_s = timeout_s
        self.auction_s = auction_s
        self._pin = pin
        self._durable: DurableGame | None = None
        self._seats: list[int] = []
        self._names: dict[int, str] = {}  # seat -> name chosen at the table
        self._tokens: dict[int, str] = {}  # seat -> token colour (a default when seated, or chosen)
        self._options: dict[str, object] = dict(store.options)  # rule options of the next game
        self._edition_id: str = store.edition.id  # edition of the next game
        self._edition_cache: Edition | None = None
        self._gesture = Gesture()
        self._landing: tuple[str, int] | None = None
        self._since = clock()
        self._deadline: float | None = None
        self._history: dict[str, list[int]] = {}
        self._events: list[Event] = []
        self._cues: list[Cue] = []
        self._refusal: Refusal | None = None
        self._fired = False
        self._probing = False
        self._last_tx: TransactionView | None = None
        self._last_seq = 0
        self.board_cache = BoardCache()

    # -- helpers ---------------------------------------------------------------------------------------
    @property
    def store(self) -> GameStore:
        """Where games are started and resumed."""
        return self._store

    @property
    def durable(self) -> DurableGame | None:
        """The durable game being banked (None while registering the first players)."""
        return self._durable

    @property
    def game(self) -> Game | None:
        """The engine game (read-only use), or None."""
        return None if self._durable is None else self._durable.game

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats registered so far in setup."""
        return tuple(self._seats)

    @property
    def gesture(self) -> Gesture:
        """The gesture under way."""
        return self._gesture

    @property
    def history(self) -> dict[str, list[int]]:
        """Player id -> wealth (money units) after each command, for the end chart."""
        return self._history

    @property
    def last_tx(self) -> TransactionView | None:
        """The latest money movement of the game (kept until another one happens), or None."""
        return self._last_tx

    @property
    def last_seq(self) -> int:
        """Sequence number of the last durable event of the game (0 before any)."""
        return self._last_seq

    def may(self, trigger: str) -> bool:
        """Whether ``trigger`` would be accepted now (overridden by the banker)."""
        return False

    @property
    def deadline(self) -> float | None:
        """When the auction countdown ends (injected clock seconds), or None."""
        return self._deadline

    @property
    def since(self) -> float:
        """When the last accepted input happened (injected clock seconds)."""
        return self._since

    def _st(self) -> GameState:
        assert self._durable is not None
        state: GameState = self._durable.game.state
        return state

    def _allowed(self, cmd: c.Command, key: str = "error.rule") -> bool:
        if self._durable is None:
            self._refusal = Refusal("error.no_game")
            return False
        reason = self._durable.game.check(cmd)
        if reason is not None:
            self._refusal = Refusal(key, refusal_params(reason, type(cmd).__name__))
            return False
        return True

    def _apply(self, cmd: c.Command) -> None:
        assert self._durable is not None
        events = self._durable.apply(cmd)
        self._events.extend(events)
        self._note(events)
        self._cues.append(Cue.OK)
        names = {type(e).__name__ for e in events}
        if "SalaryPaid" in names:
            self._cues.append(Cue.GO)
        if names & _MONEY_EVENTS:
            self._cues.append(Cue.CASH)
        state = self._durable.game.state
        for pid in state.order:
            self._history.setdefault(pid, []).append(state.wealth(pid))

    def _note(self, events: Sequence[Event]) -> None:
        if events:
            self._last_tx = last_transaction(events) or self._last_tx
            self._last_seq = max(e.seq for e in events)

    def _input_player(self, event: Any) -> str | None:
        if event.event.name == "tap_player":
            value = input_value(event)
            return None if value is None else player_id(int(value))
        return self._gesture.player

    def _input_deed(self, event: Any) -> int | None:
        if event.event.name == "tap_deed":
            value = input_value(event)
            return None if value is None else int(value)
        return self._gesture.deed

    def _owner(self, deed: int | None) -> str | None:
        if deed is None or self._durable is None:
            return None
        return self._st().owner.get(deed)

    # -- menu ----------------------------------------------------------------------------------------------
    def open_pin(self, event: Any) -> None:
        self.forget_gesture(event)

    def pin_matches(self, event: Any) -> bool:
        value = input_value(event)
        return value is not None and self._gesture.pin + str(value) == self._pin

    def pin_partial(self, event: Any) -> bool:
        value = input_value(event)
        typed = self._gesture.pin + str(value or "")
        if value is not None and str(value).isdigit() and len(typed) < len(self._pin) \
                and self._pin.startswith(typed):
            return True
        self._refusal = Refusal("error.bad_pin")
        return False

    def add_pin_digit(self, event: Any) -> None:
        self._gesture.pin += str(input_value(event))

    def can_undo(self, event: Any) -> bool:
        return self._allowed(c.Undo())

    def do_undo(self, event: Any) -> None:
        self._apply(c.Undo())

    def setting_valid(self, event: Any) -> bool:
        name, sep, raw = str(input_value(event) or "").partition("=")
        ok = bool(sep) and (
            (name in ("timeout_s", "auction_s") and raw.replace(".", "", 1).isdigit() and float(raw) > 0)
            or (name == "pin" and raw.isdigit() and 4 <= len(raw) <= 8)
        )
        if not ok:
            self._refusal = Refusal("error.bad_setting", {"setting": str(input_value(event))})
        return ok

    def do_setting(self, event: Any) -> None:
        """Stage a setting: it takes effect only with ✓; X or the timeout leave the settings as they were."""
        name, _, raw = str(input_value(event)).partition("=")
        self._gesture.settings[name] = raw if name == "pin" else float(raw)

    def setting_shown(self, name: str) -> str | float:
        """A setting as the settings page shows it: the staged value, else the one in force."""
        if name in self._gesture.settings:
            return self._gesture.settings[name]
        return self._pin if name == "pin" else float(getattr(self, name))

    def confirm_settings(self, event: Any) -> None:
        """✓ in the settings: the staged settings take effect, and the injected ``on_settings`` gets the
        settings in force (it may save them)."""
        for name, value in self._gesture.settings.items():
            if name == "pin":
                self._pin = str(value)
            else:
                setattr(self, name, float(value))
        self._gesture.settings = {}
        if self._on_settings is not None:
            self._on_settings({"timeout_s": self.timeout_s, "auction_s": self.auction_s, "pin": self._pin})

    # -- common -------------------------------------------------------------------------------------------
    def forget_gesture(self, event: Any) -> None:
        self._gesture = Gesture()
        if self._durable is None or self._st().phase != "auction":
            self._deadline = None

    def then_settle(self, event: Any) -> None:
        self.trigger("settle")

    def phase_setup(self, event: Any) -> bool:
        return self._durable is None or self._st().phase == "setup"

    def _phase_is(self, phase: str) -> bool:
        return self._durable is not None and self._st().phase == phase

    def phase_play(self, event: Any) -> bool:
        return self._phase_is("play")

    def phase_auction(self, event: Any) -> bool:
        return self._phase_is("auction")

    def phase_event(self, event: Any) -> bool:
        return self._phase_is("event")

    def phase_debt(self, event: Any) -> bool:
        return self._phase_is("debt")

    def phase_over(self, event: Any) -> bool:
        return self._phase_is("over")
