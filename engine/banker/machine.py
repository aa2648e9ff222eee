"""The banker: the unit's interaction state machine, between the card reader / buttons and the engine.

Inputs are a card presented (by its registered role), a button, a choice and the passing of time (an
injected clock). Outputs are engine commands (exactly one per completed gesture), a prompt, cues and a
:class:`~engine.banker.viewmodel.ViewModel` snapshot, returned together as a :class:`Reaction`. The banker
holds no money and decides no rule: ``Game.check`` says whether a command is allowed; the machine only
knows which card or button comes next. The states and the one transition table are in
:mod:`engine.banker.table`; the conditions and callbacks it names are the functions of the handler
modules (:mod:`engine.banker.gestures`, and a ruleset's plug-in), each handed the banker's context
(:class:`~engine.banker.context.Context`). The flows at the table are described in ``docs/flows.md``.

Binding (:mod:`engine.banker.binding`): for every handler module, each public function defined in it
becomes an attribute of the banker (the machine's model) under its own name, ``functools.partial(fn,
context)``; transitions resolves the table's strings against the model. A name defined by two modules, one
that would hide an attribute of the banker, or a name of the table no module defines is a :class:`BankerError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any

from transitions import EventData, MachineError

from engine.banker import asking, commit, inputs, resume
from engine.banker.accessors import ContextViews
from engine.banker.assemble import Given, assemble
from engine.banker.binding import BankerError as BankerError
from engine.banker.binding import RowIndex
from engine.banker.context import CardLookup, Context, Refusal, refusal_params
from engine.banker.gestures.setup import choose_edition
from engine.banker.patience import Patience
from engine.banker.pin import make_guard
from engine.banker.reaction import Reaction as Reaction
from engine.banker.table import BUTTONS, GESTURE_STATES, BankerState, RulesetRows
from engine.banker.view import ACTION_TRIGGERS, build_view, phase_state
from engine.banker.viewmodel import Cue, ViewModel
from engine.errors import EngineError, IllegalCommand
from engine.store.gamestore import GameStore

__all__ = ["Banker", "BankerError", "CardLookup", "Reaction"]


_TAP_KINDS = ("player", "deed", "event", "banker")
_BUSY_FROM_IDLE = frozenset({"tap_player", "tap_deed", "tap_event"})


class Banker(ContextViews):
    """The banker state machine over a :class:`GameStore` (see the module docstring).

    ``timeout_s`` is how long (seconds of the injected ``clock``) a half-done gesture waits before it
    returns to idle with nothing changed; ``auction_s`` the auction countdown, restarted by every bid;
    The banker menu has no PIN until one is set in its settings; ``pin`` (4..8 digits, for tests) or
    ``pin_hash`` (a stored record of engine/banker/pin.py) sets one, and ``pin_failures`` / ``pin_locked_s``
    restore the wrong entries and the lock kept from before a restart. ``on_settings``, if given, is called
    with the new ``timeout_s``, ``auction_s`` (seconds) and ``pin_hash`` when the settings are confirmed (✓),
    and with ``pin_failures`` and ``pin_locked_s`` whenever a wrong entry changes them, each time at the end
    of the input, after its commit (a write of the caller's to the same file would wait for that transaction);
    the banker does no I/O itself; the caller may save them and pass them back (``pin_clock``, ``salt_source``: pin.make_guard).

    A ruleset passes its own ``rows`` (:class:`~engine.banker.table.RulesetRows`, put among the shared rows
    by :func:`~engine.banker.table.build_table`) and its ``handlers`` (modules of handler functions, bound
    with the shared ones); both default to those of the game's ruleset, loaded through its record
    (engine/banker/plugins.py): the resumed game's, else the next game's, swapped when the table chooses
    the other game in setup.

    ``edition_asked``: the store's edition was asked for at this start (``--edition``): a game being
    registered when the unit stopped is resumed with that edition lit (else with the table's choice).
    """

    state: BankerState
    trigger: Callable[..., bool]  # bound by the transitions machine

    def __init__(
        self,
        store: GameStore,
        cards: CardLookup,
        clock: Callable[[], float],
        *,
        seed_source: Callable[[], int],
        timeout_s: float = 10.0,
        auction_s: float = 10.0,
        pin: str | None = None,
        on_settings: Callable[[Mapping[str, object]], None] | None = None,
        pin_hash: str | None = None,
        pin_failures: int = 0,
        pin_locked_s: float = 0.0,
        names: Mapping[int, str] | None = None,
        rows: RulesetRows | None = None,
        handlers: Iterable[ModuleType] | None = None,
        pin_clock: Callable[[], float] | None = None, salt_source: Callable[[int], bytes] | None = None,
        edition_asked: bool = False) -> None:
        if timeout_s <= 0 or auction_s <= 0:
            raise BankerError(f"timeouts must be positive seconds, got timeout_s={timeout_s}, auction_s={auction_s}")
        try:
            guard = make_guard(pin, pin_hash, pin_failures, pin_locked_s, pin_clock or clock, salt_source)
        except ValueError as exc:
            raise BankerError(str(exc)) from None
        self._settings: list[Mapping[str, object]] = []  # handed to on_settings once the input committed
        self._on_settings = on_settings
        self.ctx = Context(store, cards, clock, seed_source, timeout_s, auction_s, guard,
                           None if on_settings is None else self._settings.append)
        self.ctx.remembered = dict(names or {})  # each bank card's name from the last game
        self._fired = False
        self.patience = Patience()  # bounces and entries under way (engine/banker/patience.py)
        self._fixed = rows is not None and handlers is not None  # a test's own table: never swapped
        self._given: Given = (rows, handlers)
        self._rows: RowIndex = {}
        self._bound: set[str] = set()
        self._ruleset = ""
        current, record = resume.resume_game(self.ctx)
        self._edition_asked = edition_asked
        self._build(self._wanted_ruleset())  # the resumed game's own ruleset, whatever the store's edition
        self._saved: dict[str, Any] | None = None
        self._resume(current, record)

    def _wanted_ruleset(self) -> str:
        """The ruleset the machine must be built for: the game's under way, else the next game's."""
        durable = self.ctx.durable
        return durable.game.edition.ruleset if durable is not None else self.ctx.setup_edition.ruleset

    def _build(self, ruleset: str) -> None:
        """(Re)build the machine for ``ruleset``: the whole table swapped at once (engine/banker/assemble.py)."""
        self.machine, self._rows, self._bound = assemble(self, self.ctx, ruleset, self._given, self._bound)
        self._ruleset = ruleset
        self._actions = {s: tuple(t for t in ACTION_TRIGGERS if (s, t) in self._rows) for s in BankerState}

    def _follow_ruleset(self) -> None:
        """After an input: swap the machine when the game chosen (or resumed) is another ruleset's."""
        wanted = self._wanted_ruleset()
        if self._fixed or wanted == self._ruleset:
            return
        state = self.state
        self._build(wanted)
        self.machine.set_state(state)

    def _resume(self, current: bool, record: dict[str, Any] | None) -> None:
        """Resume the latest game and what the players were in the middle of (engine/banker/resume.py)."""
        ctx = self.ctx
        if ctx.durable is not None:
            self.restore(phase_state(ctx.durable.game.state.phase))
        state = resume.apply_current(ctx, record if current else None)  # (count it's question too)
        if self._edition_asked and ctx.durable is None and ctx.edition_id != ctx.store.edition.id:
            choose_edition(ctx, ctx.store.edition.id)  # ``--edition`` given now: lit for the game being registered
        if state is None and ctx.durable is not None:
            state = resume.after_command(ctx, record, self.trigger)
        self._follow_ruleset()  # a game being registered may be another ruleset's
        if state is not None:
            self.machine.set_state(state)
        self._saved = record

    # -- restoring -----------------------------------------------------------------------------------
    def restore(self, state: BankerState | str) -> None:
        """Put the machine in ``state`` (e.g. after a restart), checked against the machine's states."""
        name = state.name if isinstance(state, BankerState) else str(state)
        if name not in self.machine.states:
            raise BankerError(f"unknown banker state {state!r}; expected one of {list(self.machine.states)}")
        self.machine.set_state(BankerState[name])
        self.ctx.forget_gesture()
        if self.state is BankerState.AUCTION:
            self.ctx.deadline = self.ctx.clock() + self.ctx.auction_s

    # -- inputs ----------------------------------------------------------------------------------------
    def tap(self, uid: str, input_id: str | None = None) -> Reaction:
        """A card was presented: its registered role decides the trigger (``tap_player`` ...). Every input
        takes an ``input_id``, the driver's: a known one is answered (:meth:`answer_known`), not applied.
        The same card read again right after its tap (no other input between) is ignored (patience.py)."""
        known = self._begin_input(input_id, "tap", ("tap", uid))
        if known is not None:
            return known
        if self.patience.bounce(uid, self.ctx.clock()):  # the same card read again at once: ignored, silently
            self._begin()
            return self._reaction(None)
        role = self.ctx.role_of(uid)  # None as well for a number the edition in play lacks
        if role is None or role[0] not in _TAP_KINDS:
            return self._refused(Refusal("error.unknown_card", {"uid": uid}))
        kind, value = role
        return self._fire(f"tap_{kind}", value, cue=Cue.TAP)

    def press(self, button: str, value: str | None = None, input_id: str | None = None) -> Reaction:
        """A button (see :data:`engine.banker.table.BUTTONS`); ``value`` e.g. the bid raise ``"100"``."""
        known = self._begin_input(input_id, "input", ("press", button, value))
        if known is not None:
            return known
        if button == "roll" and value in ("doubles", "no_doubles"):
            button, value = f"roll_{value}", None
        if button not in BUTTONS:
            return self._refused(Refusal("error.unknown_button", {"button": button}))
        return self._fire(f"press_{button}", value)

    def choose(self, value: str, input_id: str | None = None) -> Reaction:
        """An answer: an event card's choice, a PIN digit (or the whole PIN), a ``name=value`` setting."""
        known = self._begin_input(input_id, "input", ("choose", value))
        return known if known is not None else asking.setup_answer(self, value) or self._fire("answer", value)

    def tick(self, input_id: str | None = None) -> Reaction:
        """Time passed (read from the injected clock): gesture timeouts, the auction countdown, the game's clock."""
        known = self._begin_input(input_id, "tick", ("tick",))
        if known is not None:
            return known
        ctx = self.ctx
        now = ctx.clock()
        if self.patience.waits(self.state, ctx.gesture, now - ctx.since, ctx.timeout_s):
            self._begin()  # an entry under way is never dropped by the timeout (patience.py)
            return self._reaction(None)
        if now - ctx.since >= ctx.timeout_s and (self.state, "timeout") in self._rows and self.may("timeout"):
            return self._fire("timeout", None)  # (in IDLE: a first die held; never a payment due)
        if self.state is BankerState.AUCTION and ctx.deadline is not None and now >= ctx.deadline:
            return self._fire("countdown", None)
        if (self.state, "clock") in self._rows and self.may("clock"):  # the classic game's minutes
            return self._fire("clock", None)
        self._begin()
        return self._reaction(None)

    def touch(self) -> Reaction:
        """The screen was touched without an input for the banker (a keypad key, a tab): the gesture timeout
        restarts, and the question asked after a long silence is answered (the entry goes on)."""
        self.patience.asking = False
        self.ctx.since = self.ctx.clock()
        asking.touched(self.ctx)  # count it: a keypad key restarts the question's timeout
        self._begin()
        return self._reaction(None)

    def answer_known(self, input_id: str) -> Reaction | None:
        """The answer to an input whose id is known (None if it is new): the events of the command(s) it
        completed, from the journal, and the current prompt; nothing is applied (engine/banker/inputs.py)."""
        return inputs.answer_known(self.ctx, input_id, lambda: self.view)

    def _begin_input(self, input_id: str | None, kind: str = "input", what: tuple[Any, ...] = ()) -> Reaction | None:
        """A new input of ``kind`` (``"tap"``, ``"tick"`` or another ``"input"``): ``what`` it is, for a question
        asked (count it: engine/banker/asking.py answers it instead)."""
        self.ctx.input_id = input_id
        self.patience.on_input(kind)
        known = None if input_id is None else self.answer_known(input_id)
        begin = getattr(self.ctx.store, "begin_input", None)
        if known is None and begin is not None:  # its commands and the record: one transaction, ended by
            begin()                              # _reaction (engine/store/writes.py)
        return asking.on_input(self, what) if known is None and self.ctx.counting.pending else known

    def may(self, trigger: str) -> bool:
        """Whether ``trigger`` (e.g. ``"press_go"``) would be accepted now: the machine's ``may_<trigger>``.

        Evaluated like transitions' ``may_<trigger>()`` (the rows of the current state for that trigger,
        their conditions in order, nothing changed), without its scan of every trigger of the machine.
        """
        if self.ctx.counting.pending is not None:  # count it: a number or Skip (engine/banker/asking.py)
            return trigger in (*asking.ASKING_ACTIONS, "answer")
        return trigger in self._probe((trigger,))

    def actions(self) -> tuple[str, ...]:
        """The view's ``actions``: the triggers of :data:`~engine.banker.view.ACTION_TRIGGERS` that
        :meth:`may` accepts now, in that order (only those with rows in the current state are evaluated,
        all in one probe)."""
        return self._probe(self._actions[self.state])

    def _probe(self, triggers: tuple[str, ...]) -> tuple[str, ...]:
        """Those of ``triggers`` whose rows in the current state have a row whose conditions all hold (in
        order, as transitions' ``Condition.check`` with ``send_event=True``), with nothing recorded."""
        allowed: list[str] = []
        ctx = self.ctx
        source = self.state
        rows_of = self._rows
        ctx.probing = True
        saved = ctx.refusal
        try:
            for trigger in triggers:
                found = rows_of.get((source, trigger))
                if found is None:
                    continue
                state, event, rows = found
                ctx.refusal = saved  # each trigger probed as on its own (a condition may read the last refusal)
                data = EventData(state, event, self.machine, self, (), {})
                for row, conditions in rows:
                    data.transition = row
                    if all(method(data) == target for method, target in conditions):
                        allowed.append(trigger)
                        break
            return tuple(allowed)
        finally:
            ctx.probing = False
            ctx.refusal = saved

    @property
    def view(self) -> ViewModel:
        """The current snapshot of everything the screen shows."""
        return asking.decorate(self.patience.shown(build_view(self.ctx, self.state, self.actions), self.state), self)

    @property
    def state_name(self) -> str:
        """The current state's name as shown in views and scripts (e.g. ``"idle"``)."""
        return self.state.value

    # -- machinery -------------------------------------------------------------------------------------
    def _begin(self) -> None:
        self.ctx.begin()
        self._fired = False

    def _fire(self, trigger: str, value: str | int | None, cue: Cue | None = None) -> Reaction:
        self._begin()
        ctx = self.ctx
        if cue is not None:
            ctx.cues.append(cue)
        snap = asking.snapshot(self)
        try:  # a button of another ruleset has no event in this machine: the same refusal as a wrong state
            if trigger not in self.machine.events:
                raise MachineError(trigger)
            self.trigger(trigger, value=value)
        except asking.AskFirst as ask:  # count it: asked before the payment, the input kept (asking.py)
            return asking.ask(self, ask.question, snap, trigger, value)
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
            refusal = ctx.refusal or Refusal("error.not_now", {"trigger": trigger})
            if refusal.key == "error.bad_pin":
                ctx.gesture.pin = ""
            return self._refused(refusal)
        if trigger not in ("countdown", "settle", "clock"):
            ctx.since = ctx.clock()
        self._follow_ruleset()
        if trigger == "press_back" and ctx.durable is not None:  # back to the game New game left: its state
            self._back_in_game()
        return self._reaction(None)

    def _back_in_game(self) -> None:
        """The state the game gone back to is in: its phase's, or the landing its last command left."""
        ctx = self.ctx
        assert ctx.durable is not None
        self.restore(phase_state(ctx.durable.game.state.phase))
        landed = resume.landing_state(ctx)
        if landed is not None:
            self.machine.set_state(landed)

    def _classify(self, trigger: str) -> Refusal:
        state = self.state.value
        if trigger.startswith("tap_"):
            if self.state in GESTURE_STATES and trigger in _BUSY_FROM_IDLE:
                return Refusal("error.busy", {"state": state})
            return Refusal("error.wrong_card", {"card": trigger[4:], "state": state})
        return Refusal("error.not_now", {"trigger": trigger, "state": state})

    def _refused(self, refusal: Refusal, *, moved: bool = False) -> Reaction:
        """An error reaction: only the ``err`` cue; no events unless ``moved`` (a failure after a command)."""
        self.ctx.cues = [Cue.ERROR]
        if not moved:
            self.ctx.events = []
        return self._reaction(refusal)

    def _resync(self) -> None:
        """Back to the state that mirrors the engine's phase (after a failure inside a transition)."""
        durable = self.ctx.durable
        phase = durable.game.state.phase if durable is not None else "setup"
        self.restore(phase_state(phase))

    def _reaction(self, refusal: Refusal | None) -> Reaction:
        ctx = self.ctx
        stored = getattr(refusal, "key", "") != "error.storage"  # an input refused for storage is not done
        if ctx.input_id is not None and ctx.ids.known(ctx.input_id) is None and stored:
            ctx.ids.remember(ctx.input_id, ctx.durable.game_id if ctx.durable else None, None)
        asking.follow(ctx)
        refusal = self._save_record(refusal)
        while self._settings and self._on_settings is not None:  # after the commit: the caller's own writes
            self._on_settings(self._settings.pop(0))  # (its file's write lock is free again)
        view = asking.shown(self.patience.shown(build_view(ctx, self.state, self.actions, refusal), self.state), self)
        return Reaction(
            events=tuple(ctx.events),
            cues=tuple(ctx.cues),
            prompt=view.prompt,
            error=None if refusal is None else refusal.key,
            view=view,
            params=dict(refusal.params) if refusal else {},
            input_id=ctx.input_id,
        )

    def _save_record(self, refusal: Refusal | None) -> Refusal | None:
        """Commit the input with the banker's record (engine/banker/commit.py); a failed commit loses the whole
        input: back to what the disk holds (commit.rebuild), the input refused with ``error.storage``."""
        self._saved, lost = commit.finish_input(self.ctx, self.state, self._saved)
        if lost is None:
            return refusal
        state = commit.rebuild(self.ctx, self._saved)
        if state is None:
            self._resync()
        else:
            self.machine.set_state(state)
        self.ctx.cues = [Cue.ERROR]
        return Refusal("error.storage", {"reason": str(lost)})

    def mark_fired(self, event: Any) -> None:
        """``after_state_change``: some transition ran for this input."""
        self._fired = True
