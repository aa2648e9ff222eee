"""The banker's conditions and callbacks: the methods named in :data:`engine.banker_table.TRANSITIONS`.

Conditions ``can_*`` build the one command a gesture would issue and ask ``Game.check``; when the engine
refuses, they record a :class:`Refusal` (translation key + the engine's reason) that the banker reports.
Routing conditions (``deed_unowned``, ``phase_*``...) record nothing. Callbacks ``do_*`` apply exactly one
command through the durable game, so its events are on disk before they are reported. Every callback
receives the transitions ``EventData`` (``send_event=True``); the input's value is ``event.kwargs["value"]``
(a seat, deed or card number for taps, a string for buttons and answers, None when probing ``may_*``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import commands as c
from engine.banker_store import GameStore
from engine.banker_view import TOKENS, BoardCache, choices_needed, event_card, player_id, seat_of
from engine.durable import DurableGame
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import Game
from engine.options import Options
from engine.state import GameState
from engine.viewmodel import Cue

_MONEY_EVENTS = frozenset({"RentPaid", "MoneyTransferred", "DeedBought", "AuctionWon", "LocationUsed",
                           "DeedReturned", "DebtSettled", "PlayerBankrupt"})


@dataclass(frozen=True)
class Refusal:
    """Why an input was refused: a translation key (``error.*``) and its parameters."""

    key: str
    params: dict[str, str | int] = field(default_factory=dict)


@dataclass
class Gesture:
    """What the gesture under way has collected so far (all reset when it completes or is abandoned)."""

    deed: int | None = None  # deed number tapped
    player: str | None = None  # player id tapped
    action: str | None = None  # a button waiting for its player card
    event_card: int | None = None  # a physical event card waiting for its drawer
    choices: list[str | int] = field(default_factory=list)  # partial answer to an event card
    pin: str = ""  # PIN digits typed so far


def _value(event: Any) -> Any:
    return event.kwargs.get("value")


class BankerCallbacks:
    """State and callbacks shared by :class:`engine.banker.Banker` (which adds the inputs and the machine)."""

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
    ) -> None:
        self._store = store
        self._clock = clock
        self._seed_source = seed_source
        self.timeout_s = timeout_s
        self.auction_s = auction_s
        self._pin = pin
        self._durable: DurableGame | None = None
        self._seats: list[int] = []
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
        self._recent: list[Event] = []
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
    def recent_events(self) -> list[Event]:
        """The durable events of the last command (the journal's tail after a resume)."""
        return self._recent

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
        return self._durable.game.state

    def _allowed(self, cmd: c.Command, key: str = "error.rule") -> bool:
        if self._durable is None:
            self._refusal = Refusal("error.no_game")
            return False
        reason = self._durable.game.check(cmd)
        if reason is not None:
            self._refusal = Refusal(key, {"reason": reason, "command": type(cmd).__name__})
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
            self._recent = list(events)
            self._last_seq = max(e.seq for e in events)

    def _input_player(self, event: Any) -> str | None:
        if event.event.name == "tap_player":
            value = _value(event)
            return None if value is None else player_id(int(value))
        return self._gesture.player

    def _input_deed(self, event: Any) -> int | None:
        if event.event.name == "tap_deed":
            value = _value(event)
            return None if value is None else int(value)
        return self._gesture.deed

    def _owner(self, deed: int | None) -> str | None:
        if deed is None or self._durable is None:
            return None
        return self._st().owner.get(deed)

    # -- setup -------------------------------------------------------------------------------------------
    def can_seat(self, event: Any) -> bool:
        seat = _value(event)
        limit = Options.from_mapping(dict(self._store.options)).max_players
        if seat is not None and int(seat) in self._seats:
            self._refusal = Refusal("error.already_seated", {"seat": int(seat)})
            return False
        if len(self._seats) >= limit:
            self._refusal = Refusal("error.too_many_players", {"max": limit})
            return False
        return True

    def do_seat(self, event: Any) -> None:
        self._seats.append(int(_value(event)))

    def do_clear_seats(self, event: Any) -> None:
        self._seats.clear()

    def _start_command(self) -> c.StartGame:
        specs = tuple(
            c.PlayerSpec(player_id(s), f"Player {s}", TOKENS[(s - 1) % len(TOKENS)]) for s in sorted(self._seats)
        )
        return c.StartGame(specs, dict(self._store.options), 0)

    def can_start(self, event: Any) -> bool:
        if len(self._seats) < 2:
            self._refusal = Refusal("error.need_players", {"min": 2, "seated": len(self._seats)})
            return False
        reason = Game(self._store.edition).check(self._start_command())
        if reason is not None:
            self._refusal = Refusal("error.rule", {"reason": reason, "command": "StartGame"})
            return False
        return True

    def do_start(self, event: Any) -> None:
        cmd = self._start_command()
        self._durable = self._store.new_game(self._store.edition.id, cmd.players, cmd.options,
                                             self._seed_source())
        started = self._store.events(self._durable)
        self._events.extend(started)
        self._note(started)
        self._cues.append(Cue.OK)
        self._seats.clear()
        self._history = {}
        state = self._durable.game.state
        for pid in state.order:
            self._history[pid] = [state.wealth(pid)]

    def do_new_game(self, event: Any) -> None:
        self._durable = None
        self._recent = []
        self._last_seq = 0
        self._seats.clear()
        self._history = {}
        self.forget_gesture(event)

    # -- deeds and landings ---------------------------------------------------------------------------
    def pick_deed(self, event: Any) -> None:
        self._gesture.deed = int(_value(event))

    def pick_player(self, event: Any) -> None:
        self._gesture.player = player_id(int(_value(event)))

    def known_player(self, event: Any) -> bool:
        pid = self._input_player(event)
        if self._durable is None or (pid is not None and pid not in self._st().specs):
            self._refusal = Refusal("error.not_playing", {"seat": seat_of(pid)})
            return False
        return True

    def in_play(self, event: Any) -> bool:
        return self._durable is not None and self._st().phase == "play"

    def deed_unowned(self, event: Any) -> bool:
        deed = self._input_deed(event)
        return deed is not None and self._durable is not None and self._owner(deed) is None

    def deed_own(self, event: Any) -> bool:
        owner = self._owner(self._input_deed(event))
        return owner is not None and owner == self._input_player(event)

    def deed_other(self, event: Any) -> bool:
        owner = self._owner(self._input_deed(event))
        player = self._input_player(event)
        return owner is not None and (player is None or owner != player)

    def _pair(self, event: Any) -> tuple[str, int] | None:
        player, deed = self._input_player(event), self._input_deed(event)
        if self._probing and (player is None or deed is None):
            return None
        if player is None or deed is None:
            self._refusal = Refusal("error.incomplete")
            return None
        return player, deed

    def can_consider_buy(self, event: Any) -> bool:
        pair = self._pair(event)
        if pair is None:
            return self._probing
        if self._durable is not None and self._durable.game.check(c.DeclineDeed(*pair)) is None:
            return True
        return self._allowed(c.BuyDeed(*pair))

    def can_buy(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(c.BuyDeed(*pair))

    def do_buy(self, event: Any) -> None:
        self._apply(c.BuyDeed(*self._require_pair(event)))

    def can_decline(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(c.DeclineDeed(*pair))

    def do_decline(self, event: Any) -> None:
        self._apply(c.DeclineDeed(*self._require_pair(event)))

    def can_land_own(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(c.LandOnOwn(*pair))

    def do_land_own(self, event: Any) -> None:
        self._apply(c.LandOnOwn(*self._require_pair(event)))

    def can_pay_rent(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(c.PayRent(*pair))

    def do_pay_rent(self, event: Any) -> None:
        self._apply(c.PayRent(*self._require_pair(event)))

    def _require_pair(self, event: Any) -> tuple[str, int]:
        pair = self._pair(event)
        if pair is None:
            raise IllegalCommand("a deed gesture needs both a player card and a deed card")
        return pair

    def landing_unowned(self, event: Any) -> bool:
        return self._landing is not None and self._owner(self._landing[1]) is None

    def landing_owned(self, event: Any) -> bool:
        return self._landing is not None and self._owner(self._landing[1]) is not None

    def start_landing(self, event: Any) -> None:
        assert self._landing is not None
        self._gesture = Gesture(player=self._landing[0], deed=self._landing[1])
        self._landing = None

    # -- player actions (card then button, or button then card) -----------------------------------------
    def pick_action(self, event: Any) -> None:
        self._gesture.action = event.event.name.removeprefix("press_")

    def action_is_location(self, event: Any) -> bool:
        return self._gesture.action == "location" and self.known_player(event)

    def _action_command(self, event: Any) -> c.Command | None:
        name = event.event.name
        action = name.removeprefix("press_") if name.startswith("press_") else self._gesture.action
        player = self._input_player(event)
        if player is None or action is None:
            return None
        table: dict[str, Callable[[str], c.Command]] = {
            "go": c.PassGo, "jail": c.GoToJail, "pay_fee": c.PayJailFee, "end_turn": c.EndTurn,
            "roll_doubles": lambda p: c.JailRoll(p, True), "roll_no_doubles": lambda p: c.JailRoll(p, False),
            "draw": lambda p: c.DrawEvent(p, None),
        }
        return table[action](player) if action in table else None

    def can_act(self, event: Any) -> bool:
        cmd = self._action_command(event)
        return self._probing if cmd is None else self._allowed(cmd)

    def do_act(self, event: Any) -> None:
        cmd = self._action_command(event)
        assert cmd is not None
        self._apply(cmd)

    def can_locate(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(c.UseLocation(*pair))

    def do_locate(self, event: Any) -> None:
        pair = self._require_pair(event)
        self._apply(c.UseLocation(*pair))
        self._landing = pair

    # -- event cards --------------------------------------------------------------------------------------
    def pick_event(self, event: Any) -> None:
        self._gesture.event_card = int(_value(event))

    def _draw_command(self, event: Any) -> c.DrawEvent | None:
        player = self._input_player(event)
        card = int(_value(event)) if event.event.name == "tap_event" and _value(event) is not None \
            else self._gesture.event_card
        return None if player is None else c.DrawEvent(player, card)

    def can_draw_card(self, event: Any) -> bool:
        cmd = self._draw_command(event)
        return self._probing if cmd is None else self._allowed(cmd)

    def do_draw(self, event: Any) -> None:
        cmd = self._draw_command(event)
        assert cmd is not None
        self._apply(cmd)

    def _answer(self, event: Any) -> tuple[str | int, ...] | None:
        name, value = event.event.name, _value(event)
        if name == "press_ok":
            return tuple(self._gesture.choices)
        if value is None:
            return None
        item: str | int
        if name == "tap_player":
            item = player_id(int(value))
        elif name == "tap_deed" or (isinstance(value, str) and value.isdigit()):
            item = int(value)
        else:
            item = str(value)
        return (*self._gesture.choices, item)

    def choice_completes(self, event: Any) -> bool:
        if self._durable is None or self._st().pending is None:
            return False
        pending = self._st().pending
        assert pending is not None
        answer = self._answer(event)
        if answer is None:
            return self._probing
        if len(answer) != choices_needed(self._durable.game.edition, pending.card):
            return False
        return self._allowed(c.ResolveEvent(pending.player, answer), "error.bad_choice")

    def choice_partial(self, event: Any) -> bool:
        if self._durable is None or self._st().pending is None:
            return False
        pending = self._st().pending
        assert pending is not None
        answer = self._answer(event)
        if answer is None or len(answer) >= choices_needed(self._durable.game.edition, pending.card):
            return False
        last = answer[-1]
        if not isinstance(last, int) or self._st().owner.get(last) != pending.player:
            self._refusal = Refusal("error.bad_choice", {"reason": f"first choose one of your own deeds, not {last!r}"})
            return False
        return True

    def add_choice(self, event: Any) -> None:
        answer = self._answer(event)
        assert answer is not None
        self._gesture.choices = list(answer)

    def do_resolve(self, event: Any) -> None:
        pending = self._st().pending
        answer = self._answer(event)
        assert pending is not None and answer is not None
        assert self._durable is not None
        card = event_card(self._durable.game.edition, pending.card)
        self._apply(c.ResolveEvent(pending.player, answer))
        if card.effect == "move_to_deed" and answer and isinstance(answer[0], int):
            self._landing = (pending.player, answer[0])

    # -- auction ----------------------------------------------------------------------------------------
    def _bid_amount(self, event: Any) -> int:
        st = self._st()
        raise_by = _value(event)
        step = int(raise_by) if isinstance(raise_by, str) and raise_by.isdigit() else st.options.auction_step
        return (st.auction.high_bid if st.auction else 0) + step

    def can_join_auction(self, event: Any) -> bool:
        pid = self._input_player(event)
        if pid is None:
            return self._probing
        return self._allowed(c.PlaceBid(pid, self._bid_amount(event)), "error.not_bidder")

    def can_bid(self, event: Any) -> bool:
        if self._gesture.player is None:
            if not self._probing:
                self._refusal = Refusal("error.tap_bidder_first")
            return self._probing
        return self._allowed(c.PlaceBid(self._gesture.player, self._bid_amount(event)))

    def do_bid(self, event: Any) -> None:
        assert self._gesture.player is not None
        self._apply(c.PlaceBid(self._gesture.player, self._bid_amount(event)))

    def has_high_bid(self, event: Any) -> bool:
        auction = self._st().auction if self._durable else None
        return auction is not None and auction.high_bidder is not None

    def is_winner(self, event: Any) -> bool:
        auction = self._st().auction if self._durable else None
        pid = self._input_player(event)
        if auction is None or (pid is not None and pid != auction.high_bidder):
            self._refusal = Refusal("error.not_winner", {"winner": seat_of(auction.high_bidder if auction else None)})
            return False
        return True

    def can_close_auction(self, event: Any) -> bool:
        return self._allowed(c.CloseAuction())

    def do_close_auction(self, event: Any) -> None:
        self._apply(c.CloseAuction())

    def start_countdown(self, event: Any) -> None:
        if event.transition.source != self.state.AUCTION.name:
            self.forget_gesture(event)
        self._deadline = self._clock() + self.auction_s

    # -- debt, turn, menu -----------------------------------------------------------------------------------
    def _return_command(self, event: Any) -> c.ReturnDeed | None:
        debt = self._st().debt if self._durable else None
        deed = self._input_deed(event)
        return None if debt is None or deed is None else c.ReturnDeed(debt.debtor, deed)

    def can_return(self, event: Any) -> bool:
        cmd = self._return_command(event)
        return self._probing if cmd is None else self._allowed(cmd)

    def do_return(self, event: Any) -> None:
        cmd = self._return_command(event)
        assert cmd is not None
        self._apply(cmd)

    def can_end_current_turn(self, event: Any) -> bool:
        turn = self._st().turn if self._durable else None
        if turn is None:
            self._refusal = Refusal("error.no_game")
            return False
        return self._allowed(c.EndTurn(turn))

    def do_end_current_turn(self, event: Any) -> None:
        turn = self._st().turn
        assert turn is not None
        self._apply(c.EndTurn(turn))

    def open_pin(self, event: Any) -> None:
        self.forget_gesture(event)

    def pin_matches(self, event: Any) -> bool:
        value = _value(event)
        return value is not None and self._gesture.pin + str(value) == self._pin

    def pin_partial(self, event: Any) -> bool:
        value = _value(event)
        typed = self._gesture.pin + str(value or "")
        if value is not None and str(value).isdigit() and len(typed) < len(self._pin) \
                and self._pin.startswith(typed):
            return True
        self._refusal = Refusal("error.bad_pin")
        return False

    def add_pin_digit(self, event: Any) -> None:
        self._gesture.pin += str(_value(event))

    def can_undo(self, event: Any) -> bool:
        return self._allowed(c.Undo())

    def do_undo(self, event: Any) -> None:
        self._apply(c.Undo())

    def setting_valid(self, event: Any) -> bool:
        name, sep, raw = str(_value(event) or "").partition("=")
        ok = bool(sep) and (
            (name in ("timeout_s", "auction_s") and raw.replace(".", "", 1).isdigit() and float(raw) > 0)
            or (name == "pin" and raw.isdigit() and 4 <= len(raw) <= 8)
        )
        if not ok:
            self._refusal = Refusal("error.bad_setting", {"setting": str(_value(event))})
        return ok

    def do_setting(self, event: Any) -> None:
        name, _, raw = str(_value(event)).partition("=")
        if name == "pin":
            self._pin = raw
        else:
            setattr(self, name, float(raw))

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
