"""The banker's context: everything its gesture handlers read and change, and the helpers they share.

The :class:`~engine.banker.machine.Banker` owns one :class:`Context` and hands it to every handler of the
transition table (the plain functions of :mod:`engine.banker.gestures`), which receive it first and the
transitions ``EventData`` second (``send_event=True``); the input's value is ``event.kwargs["value"]``
(a seat, deed or card number for taps, a string for buttons and answers, None when probing ``may_*``).

Conditions ``can_*`` build the one command a gesture would issue and ask ``Game.check`` through
:meth:`Context.allowed`; when the engine refuses, it records a :class:`Refusal` (translation key + the
engine's reason) that the banker reports. Routing conditions (``deed_unowned``, ``phase_*``...) record
nothing. Callbacks ``do_*`` apply exactly one command through :meth:`Context.apply` (the durable game), so
its events are on disk before they are reported. Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import commands as c
from engine.banker.board import BoardCache, last_transaction
from engine.banker.counting import Counting
from engine.banker.inputs import InputIds
from engine.banker.pin import PinGuard
from engine.banker.plugins import view_part, wealth_of
from engine.banker.setup import TOKEN_PALETTE, default_name, player_id
from engine.banker.viewmodel import Cue, Prompt, TransactionView
from engine.editions import Edition, load_edition
from engine.errors import IllegalCommand
from engine.errors import Refusal as EngineRefusal
from engine.events import CommandUndone, Event
from engine.game import Game
from engine.options import RuleOptions
from engine.rulesets.registry import ruleset_of
from engine.store.durable import DurableGame
from engine.store.gamestore import GameStore

CardLookup = Callable[[str], "tuple[str, int | None] | None"]
"""``cards(uid)``: the registered role of a card, or None for an unknown card."""

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
    pin: str = ""  # unused since the PIN is checked as a whole entry; kept for the view's shape
    settings: dict[str, str | float] = field(default_factory=dict)  # settings chosen, in force only after ✓
    # -- the classic game's gestures ---------------------------------------------------------------------
    steps: list[int] = field(default_factory=list)  # build / sell: the deeds tapped, one building each
    total: int = 0  # build / sell: money units paid or received so far in this gesture
    partner: str | None = None  # a deal: the second side's player id (``player`` is the first)
    deal_deeds: list[int] = field(default_factory=list)  # a deal: deeds tapped (each goes from its owner)
    deal_cards: list[int] = field(default_factory=list)  # a deal: jail card ids (each goes from its holder)
    deal_cash: dict[str, int] = field(default_factory=dict)  # a deal: player id -> cash it hands over
    position: int | None = None  # a tax or card space's board position
    due: dict[str, str | int] = field(default_factory=dict)  # a payment this gesture leads to: X and the
    # timeout never drop it (``error.payment_due`` with these params: the payer's player id, the amount in money units)
    undo: int = 0  # commands this gesture applied before it is complete (a Location's fee and jump): X
    # undoes them all (one ``Undo`` each), the timeout waits (docs/flows.md, "Money moved before a gesture ends")
    undo_seq: int = 0  # the journal's last seq right after them: X undoes them only while nothing came after
    finish: str = ""  # a landing the rules oblige (a card's move, a roll): X is refused with this error key,
    # the timeout waits
    confirm: str = ""  # the menu's question on the screen (``undo``, ``new_game``): ✓ does it, X drops it


def input_value(event: Any) -> Any:
    """The input's value carried by a trigger (a seat, deed or card number, a string, or None)."""
    return event.kwargs.get("value")


class Context:
    """The banker's state apart from the machine's own: the store and the durable game, the injected
    clock, card lookup and seed source, the settings (timeouts, PIN), the table's setup choices, the
    gesture under way, the wealth history and last transaction, and what the current input produced
    (events, cues, refusal). Handlers change it; the view is built from it."""

    def __init__(
        self,
        store: GameStore,
        cards: CardLookup,
        clock: Callable[[], float],
        seed_source: Callable[[], int],
        timeout_s: float,
        auction_s: float,
        pin: PinGuard,
        on_settings: Callable[[Mapping[str, object]], None] | None = None,
    ) -> None:
        self.store = store
        self.cards = cards
        self.clock = clock
        self.seed_source = seed_source
        self.timeout_s = timeout_s
        self.auction_s = auction_s
        self.pin = pin  # the PIN record in force, its failures and lock (engine/banker/pin.py)
        self.on_settings = on_settings
        self.durable: DurableGame | None = None
        self.seats: list[int] = []
        self.names: dict[int, str] = {}  # seat -> name chosen at the table
        self.remembered: dict[int, str] = {}  # seat (its bank card) -> the name it had in the last game
        self.tokens: dict[int, str] = {}  # seat -> token colour (a default when seated, or chosen)
        self.options: dict[str, object] = dict(store.options)  # rule options of the next game
        self.edition_id: str = store.edition.id  # edition of the next game (while registering: the table's choice)
        self.next_edition: str = store.edition.id  # the edition New game lights (``--edition``, else the last started)
        self._edition_cache: Edition | None = None
        self.gesture = Gesture()
        self.landing: tuple[str, int] | None = None  # (player, deed) to resolve after a jump
        self.since = clock()  # when the last accepted input happened
        self.deadline: float | None = None  # when the auction countdown ends
        self.history: dict[str, list[int]] = {}  # player id -> wealth after each command
        self.events: list[Event] = []  # the current input's durable events
        self.cues: list[Cue] = []  # the current input's cues
        self.refusal: Refusal | None = None  # why the current input was refused
        self.probing = False  # conditions are being evaluated by ``may()``: record nothing
        self.last_tx: TransactionView | None = None
        self.last_seq = 0
        self.board_cache = BoardCache()
        self.ids = InputIds()  # input ids known (engine/banker/inputs.py)
        self.input_id: str | None = None  # the id of the input being handled, if the driver gave one
        self.latest_game: int | None = None  # the journal's latest game (the banker's record names it)
        self.menu_mark: int | None = None  # the input count when the PIN prompt opened (resume.py)
        self.clock_origin: tuple[int, float] | None = None  # (game id, clock reading at its minute 0)
        self.drawn: tuple[int, str, int | None] | None = None  # classic: (card id, drawer, moved to) shown
        self.undo_group: tuple[int, int] | None = None  # (last seq, n): the last n commands, one step for Undo
        self.question: Prompt | None = None  # the menu's question on the screen (``gesture.confirm``)
        self.relanding: tuple[str, int] | None = None  # (player, deed): an auction undone, asked again (one input)
        self.counting = Counting()  # count it: counters, scores, the question (engine/banker/counting.py)
        self.previous: DurableGame | None = None  # the game New game left: resumable from setup until the next starts
        self.previous_label: tuple[str, int] | None = None  # its players' names (one a line) and its turn
        self._history_shown: tuple[object, tuple[tuple[str, tuple[int, ...]], ...]] = (None, ())
        self._checked: tuple[object, int] = (None, -1)  # (game, command count) ``_answers`` were given at
        self._answers: dict[c.Command, EngineRefusal | None] = {}  # command -> Game.check's answer then

    # -- the game --------------------------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The engine game (read-only use), or None."""
        return None if self.durable is None else self.durable.game

    def st(self) -> Any:
        """The engine's state, its ruleset's own class (a game must be under way)."""
        assert self.durable is not None
        return self.durable.game.state

    def phase_is(self, phase: str) -> bool:
        """Whether a game is under way in the engine's ``phase``."""
        return self.durable is not None and self.durable.game.state.phase == phase

    def check(self, cmd: c.Command) -> EngineRefusal | None:
        """``Game.check(cmd)`` of the game under way (which must exist), each command's answer asked of the
        engine once per game state: the view asks the same ones for every button, input after input of a
        gesture, and the input that fires asks one of them again. The state changes only by a command (or
        Undo) applied, so the answers are kept with the game object and its command count, as the board is
        (a failed command leaves the count and the state as they were; a game rebuilt is another object)."""
        assert self.durable is not None
        game = self.durable.game
        if self._checked[0] is not game or self._checked[1] != game.commands_applied:
            self._checked, self._answers = (game, game.commands_applied), {}
        try:
            return self._answers[cmd]
        except KeyError:
            answer = self._answers[cmd] = game.check(cmd)
            return answer
        except TypeError:  # a command with an unhashable field (e.g. a list): asked every time
            return game.check(cmd)

    def allowed(self, cmd: c.Command, key: str = "error.rule") -> bool:
        """Whether the engine accepts ``cmd`` now; if not, the refusal (``key``) says why."""
        if self.durable is None:
            self.refusal = Refusal("error.no_game")
            return False
        reason = self.check(cmd)
        if reason is not None:  # (while probing, ``may()`` drops the refusal: its parameters are not made)
            self.refusal = Refusal(key) if self.probing else Refusal(key, refusal_params(reason, type(cmd).__name__))
            return False
        return True

    def may_apply(self, cmd: c.Command | None) -> bool:
        """A condition's answer for ``cmd``, the command a gesture makes: whether the engine accepts it now
        (:meth:`allowed`); without one (the gesture lacks a card or an answer: None), whether ``may()`` is
        probing (a refusal, if any, was set where the gesture came up short)."""
        return self.probing if cmd is None else self.allowed(cmd)

    def pair_command(self, cls: Callable[[str, int], c.Command], event: Any) -> c.Command | None:
        """``cls(player, deed)`` of a deed gesture (:meth:`pair`), or None when one of them lacks."""
        pair = self.pair(event)
        return None if pair is None else cls(*pair)

    def apply(self, cmd: c.Command) -> None:
        """Apply ``cmd`` through the durable game: its events, cues and the wealth history."""
        assert self.durable is not None
        if self.counting.players and not self.probing:  # count it: may ask first (raises AskFirst)
            self.counting.gate(self.durable.game, cmd, bool(self.events))
        self.drawn = None  # a card drawn is shown until the next command
        input_id = self.input_id  # journaled with the command (only given when there is one)
        events = self.durable.apply(cmd) if input_id is None else self.durable.apply(cmd, input_id=input_id)
        if self.input_id is not None and events:
            self.ids.remember(self.input_id, self.durable.game_id, events[0].command)
        self.events.extend(events)
        self.note(events)
        self.cues.append(Cue.OK)
        names = {type(e).__name__ for e in events}
        if "SalaryPaid" in names:
            self.cues.append(Cue.GO)
        if names & _MONEY_EVENTS or any(hasattr(e, "money") for e in events):  # (a ruleset's own money event)
            self.cues.append(Cue.CASH)
        game = self.durable.game
        for pid in game.state.order:
            self.history.setdefault(pid, []).append(wealth_of(game, pid))

    def history_view(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The wealth history as the view shows it, copied only when it grew (it grows by one point per
        player and command, so copying it for every screen update would cost more as the game goes on)."""
        key = (id(self.history), tuple(len(v) for v in self.history.values()))
        if self._history_shown[0] != key:
            self._history_shown = (key, tuple((pid, tuple(v)) for pid, v in self.history.items()))
        return self._history_shown[1]

    def note(self, events: Sequence[Event]) -> None:
        """Remember the last transaction and sequence number among ``events``."""
        if events:
            money = view_part(self.durable.game.edition.ruleset).money if self.durable is not None else None
            self.last_tx = last_transaction(events, money) or self.last_tx
            tx = self.last_tx
            if tx is not None and any(isinstance(e, CommandUndone) and e.undone == tx.command
                                      for e in events):  # its command taken back: the line says so
                self.last_tx = replace(tx, undone=True)
            self.last_seq = max(e.seq for e in events)

    def begin(self) -> None:
        """A new input: nothing produced or refused yet."""
        self.events = []
        self.cues = []
        self.refusal = None
        self.relanding = None

    def forget_gesture(self) -> None:
        """Abandon the gesture under way (the auction's countdown survives while an auction runs)."""
        self.gesture = Gesture()
        self.question = None
        if self.durable is None or self.durable.game.state.phase != "auction":
            self.deadline = None

    # -- the input -------------------------------------------------------------------------------------
    def input_player(self, event: Any) -> str | None:
        """The player of this input: the card tapped now, else the one the gesture holds."""
        if event.event.name == "tap_player":
            value = input_value(event)
            return None if value is None else player_id(int(value))
        return self.gesture.player

    def input_deed(self, event: Any) -> int | None:
        """The deed of this input: the card tapped now, else the one the gesture holds."""
        if event.event.name == "tap_deed":
            value = input_value(event)
            return None if value is None else int(value)
        return self.gesture.deed

    def owner(self, deed: int | None) -> str | None:
        """Who owns ``deed`` (None: nobody, no deed or no game)."""
        if deed is None or self.durable is None:
            return None
        owner: str | None = self.durable.game.state.owner.get(deed)
        return owner

    def pair(self, event: Any) -> tuple[str, int] | None:
        """(player, deed) of a deed gesture; None, with ``error.incomplete`` unless probing, when one lacks."""
        player, deed = self.input_player(event), self.input_deed(event)
        if self.probing and (player is None or deed is None):
            return None
        if player is None or deed is None:
            self.refusal = Refusal("error.incomplete")
            return None
        return player, deed

    def require_pair(self, event: Any) -> tuple[str, int]:
        """(player, deed) of a deed gesture that must have both."""
        pair = self.pair(event)
        if pair is None:
            raise IllegalCommand("a deed gesture needs both a player card and a deed card")
        return pair

    def role_of(self, uid: str) -> tuple[str, int | None] | None:
        """The registered role of ``uid``; None for an unknown card and for a deed or event card whose
        number the edition in play lacks (the registry takes every edition's numbers: a classic box's deed
        25 or event 30 is no card of Ultimate Banking)."""
        role = self.cards(uid)
        if role is None:
            return None
        edition = self.game.edition if self.game is not None else self.setup_edition
        kind, value = role
        if kind == "deed" and value not in edition.deeds:
            return None
        if kind == "event" and all(card.id != value for card in edition.events):
            return None
        return role

    # -- what the table has chosen so far ------------------------------------------------------------
    @property
    def setup_edition(self) -> Edition:
        """The edition the next game will use (``--edition`` until the table chooses another)."""
        chosen = self.edition_id
        if chosen == self.store.edition.id:
            return self.store.edition
        if self._edition_cache is None or self._edition_cache.id != chosen:
            self._edition_cache = load_edition(chosen)
        return self._edition_cache

    def setup_options(self) -> RuleOptions:
        """The options in force for the next game: defaults, the edition's, then the chosen ones."""
        return ruleset_of(self.setup_edition).options.from_mapping({**self.setup_edition.options, **self.options})

    def seat_name(self, seat: int) -> str:
        """The name of a seated player (the default ``Player N`` until the table names them)."""
        return self.names.get(seat) or self.remembered.get(seat) or default_name(seat)

    def seat_token(self, seat: int) -> str:
        """The token colour of a seated player."""
        return self.tokens.get(seat, TOKEN_PALETTE[(seat - 1) % len(TOKEN_PALETTE)])

    def setting_shown(self, name: str) -> str | float:
        """A setting as the settings page shows it: the staged value, else the one in force."""
        if name in self.gesture.settings and name != "pin":
            return self.gesture.settings[name]
        if name == "pin":
            return "****" if self.pin.record or self.gesture.settings.get("pin") else ""
        return float(getattr(self, name))
