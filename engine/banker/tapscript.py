"""The tap-script format: a readable list of card taps, button presses and expectations.

One step per line; ``#`` starts a comment; a ``# source: ...`` header names the rule source::

    # source: docs/rules.md 1.9 (rent, then level +1)
    card 04A22B01 player 1          # enroll a card: UID ROLE [VALUE]
    alias alice 04A22B01            # name a UID
    tap @alice                      # present a card (UID or @alias)
    press go                        # a button, optionally with a value: press bid 20
    choose red                      # answer a choice (the rest of the line: choose name=1:Ana María)
    wait 10.5                       # advance the injected clock by seconds, then let the banker tick
    expect balance 1 1700           # seat 1 has 1700 money units
    expect owner 16 2               # deed 16 is owned by seat 2 (or: none)
    expect level 16 3               # deed 16 is at rent level 3
    expect state idle               # the banker's state name
    expect phase play               # the engine's phase
    expect error error.wrong_card   # the last input was refused with this key (``none``: accepted)
    expect name 2 Ana María         # seat 2's player is called Ana María
    expect token 2 blue             # seat 2's token colour
    expect option start_money 2000  # a rule option in force (on/off for yes/no options)
    expect edition ultimate-us      # the edition shown (the next game's while registering)
    expect mortgaged 16 yes         # classic: deed 16 is mortgaged (yes/no)
    expect pot 150                  # classic: the Free Parking pot holds 150 money units
    expect cards 2 1                # classic: seat 2 holds 1 Get Out of Jail Free card

The parser returns typed steps. :class:`Interpreter` is the one interpreter of the steps: it plays one
step at a time into any :class:`Drivable` (the Banker's ``tap/press/choose/tick`` and ``view``) and says
what happened (:class:`Outcome`); its hooks let a caller adapt the I/O. ``boardbank headless`` (JSON lines)
and the UI's ``boardbank run --script`` (taps through the mock reader, screenshots) plug into it, and
:func:`run_script` (for tests) plays a whole script, raising :class:`ExpectationFailed` with the line number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.banker.tapparse import EXPECT_KINDS as EXPECT_KINDS
from engine.banker.tapparse import Alias as Alias
from engine.banker.tapparse import Card as Card
from engine.banker.tapparse import Choose as Choose
from engine.banker.tapparse import Expect as Expect
from engine.banker.tapparse import ExpectationFailed as ExpectationFailed
from engine.banker.tapparse import Press as Press
from engine.banker.tapparse import Script as Script
from engine.banker.tapparse import Step as Step
from engine.banker.tapparse import Tap as Tap
from engine.banker.tapparse import TapScriptError as TapScriptError
from engine.banker.tapparse import Wait as Wait
from engine.banker.tapparse import int_arg
from engine.banker.tapparse import parse as parse
from engine.banker.tapparse import parse_file as parse_file
from engine.banker.tapparse import parse_line as parse_line
from engine.banker.viewmodel import ViewModel
from engine.errors import OptionError
from engine.options import parse_option_text


class Drivable(Protocol):
    """What the runner drives: the Banker's input methods and its view."""

    def tap(self, uid: str, /, **input_id: str) -> object: ...
    def press(self, button: str, value: str | None = None, /, **input_id: str) -> object: ...
    def choose(self, value: str, /, **input_id: str) -> object: ...
    def tick(self, **input_id: str) -> object: ...
    @property
    def view(self) -> ViewModel: ...


@dataclass
class ManualClock:
    """An injected clock for scripts and tests: ``now`` in seconds, moved only by :meth:`advance`."""

    now: float = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``."""
        self.now += seconds


@dataclass
class CardTable:
    """An in-memory uid -> role table with the registry's lookup signature (the engine cannot import reader)."""

    roles: dict[str, tuple[str, int | None]] = field(default_factory=dict)

    def __call__(self, uid: str) -> tuple[str, int | None] | None:
        return self.roles.get(uid.replace(":", "").replace(" ", "").upper())

    def enroll(self, uid: str, kind: str, value: int | None) -> None:
        """Give ``uid`` a role (any previous role of that UID is replaced)."""
        self.roles[uid.replace(":", "").replace(" ", "").upper()] = (kind, value)


def seat_of(player_id: str | None) -> str:
    """The seat number of a player id (``"p3"`` -> ``"3"``); ``"none"`` for no player."""
    if player_id is None:
        return "none"
    return player_id[1:] if player_id.startswith("p") else player_id


def check_expectation(step: Expect, view: ViewModel, last_error: str | None) -> None:
    """Raise :class:`ExpectationFailed` unless ``step`` holds for ``view`` and the last input's error."""
    kind, args = step.kind, step.args
    got: object
    want: object
    if kind == "balance":
        pid = args[0] if args[0].startswith("p") else f"p{args[0]}"
        players = {p.id: p.balance for p in view.players}
        got, want = players.get(pid), int_arg(args[1], "a balance", step.line)
    elif kind in ("owner", "level"):
        deed = int_arg(args[0], "a deed number", step.line)
        space = next((s for s in view.board if s.deed == deed), None)
        if space is None:
            raise ExpectationFailed(f"line {step.line}: deed {deed} is not on the board")
        if kind == "owner":
            got, want = seat_of(space.owner), args[1].removeprefix("p")
        else:
            got, want = space.level, int_arg(args[1], "a level", step.line)
    elif kind == "state":
        got, want = view.state, args[0]
    elif kind == "phase":
        got, want = view.phase, args[0]
    elif kind in ("name", "token"):
        pid = args[0] if args[0].startswith("p") else f"p{args[0]}"
        player = next((p for p in view.players if p.id == pid), None)
        got = None if player is None else (player.name if kind == "name" else player.token)
        want = args[1]
    elif kind == "option":
        try:
            want = parse_option_text(f"{args[0]}={args[1]}")[1]
        except OptionError as exc:
            raise ExpectationFailed(f"line {step.line}: {exc}") from None
        got = dict(view.options).get(args[0])
    elif kind == "edition":
        got, want = view.edition, args[0]
    elif kind == "mortgaged":
        deed = int_arg(args[0], "a deed number", step.line)
        got = next((s.mortgaged for s in view.board if s.deed == deed), None)
        want = args[1].lower() in ("yes", "on", "true", "1")
    elif kind == "pot":
        got, want = view.pot, int_arg(args[0], "an amount", step.line)
    elif kind == "cards":
        pid = args[0] if args[0].startswith("p") else f"p{args[0]}"
        got = next((len(p.jail_cards) for p in view.players if p.id == pid), None)
        want = int_arg(args[1], "a count", step.line)
    else:
        got, want = last_error or "none", args[0]
    if got != want:
        raise ExpectationFailed(
            f"line {step.line}: expected {kind} {' '.join(args[:-1])} {want}".replace("  ", " ")
            + f", got {got!r} (state {view.state}, prompt {view.prompt.key})"
        )


@dataclass
class Outcome:
    """What one step did: the banker's reaction (tap, press, choose, wait), what enrolment returned (card),
    or the failure of an expectation reported to ``on_expect``."""

    step: Step
    reaction: object = None
    enrolled: object = None
    failure: ExpectationFailed | None = None


class Interpreter:
    """Plays tap-script steps into ``banker``, one at a time (:meth:`step`, or :meth:`line` for a text line).

    Hooks adapt the I/O: ``on_enroll(uid, kind, value)`` enrols a ``card`` step (its result is the
    outcome's ``enrolled``); ``on_wait(seconds)`` moves the banker's clock on before a ``wait`` step's tick;
    ``on_reaction(step, reaction)`` sees every reaction of the banker (taps, presses, choices, waits);
    ``on_expect(step, failure)``, when given, is told each expectation's result (``failure`` None when it
    held) instead of :class:`ExpectationFailed` being raised. ``expect error`` checks the error of the
    last tap, press or choice whose reaction came back (a drivable whose reactions arrive later, such as the
    touch UI's, returns None and sets :attr:`last_error` itself).
    """

    def __init__(
        self,
        banker: Drivable,
        *,
        on_enroll: Callable[[str, str, int | None], object] | None = None,
        on_wait: Callable[[float], None] | None = None,
        on_reaction: Callable[[Step, object], None] | None = None,
        on_expect: Callable[[Expect, ExpectationFailed | None], None] | None = None,
    ) -> None:
        self.banker = banker
        self.on_enroll = on_enroll
        self.on_wait = on_wait
        self.on_reaction = on_reaction
        self.on_expect = on_expect
        self.aliases: dict[str, str] = {}
        self.last_error: str | None = None

    def line(self, text: str, lineno: int, input_id: str | None = None) -> Outcome | None:
        """Parse and play one line (:class:`TapScriptError` if it is not a step); None for a blank line."""
        step = parse_line(text, lineno, self.aliases)
        return None if step is None else self.step(step, input_id)

    def step(self, step: Step, input_id: str | None = None) -> Outcome:
        """Play ``step`` and say what happened.

        ``input_id``: the driver's id of this input, handed to the banker (``tap(uid, input_id=...)``...);
        a tap, press, choice or wait whose id the banker knows (``answer_known``) is answered, not played
        again (a repeated ``wait`` does not move the clock twice). Enrolment and expectations are
        idempotent and take no id."""
        outcome = Outcome(step)
        banker = self.banker
        ids: dict[str, str] = {} if input_id is None else {"input_id": input_id}
        answer_known = getattr(banker, "answer_known", None)
        if ids and answer_known is not None and isinstance(step, Tap | Press | Choose | Wait):
            known = answer_known(input_id)
            if known is not None:
                outcome.reaction = known
                if self.on_reaction is not None:
                    self.on_reaction(step, known)
                return outcome
        if isinstance(step, Card):
            if self.on_enroll is None:
                raise TapScriptError(f"line {step.line}: cards cannot be enrolled here")
            outcome.enrolled = self.on_enroll(step.uid, step.kind, step.value)
        elif isinstance(step, Expect):
            try:
                check_expectation(step, banker.view, self.last_error)
            except ExpectationFailed as exc:
                if self.on_expect is None:
                    raise
                outcome.failure = exc
            if self.on_expect is not None:
                self.on_expect(step, outcome.failure)
        elif isinstance(step, Wait):
            if self.on_wait is None:
                raise TapScriptError(f"line {step.line}: the clock cannot be moved on here")
            self.on_wait(step.seconds)
            outcome.reaction = banker.tick(**ids)
        elif isinstance(step, Tap | Press | Choose):
            if isinstance(step, Tap):
                outcome.reaction = banker.tap(step.uid, **ids)
            elif isinstance(step, Press):
                outcome.reaction = banker.press(step.button, step.value, **ids)
            else:
                outcome.reaction = banker.choose(step.value, **ids)
            if outcome.reaction is not None:
                self.last_error = getattr(outcome.reaction, "error", None)
        if outcome.reaction is not None and self.on_reaction is not None:
            self.on_reaction(step, outcome.reaction)
        return outcome


def run_script(
    steps: Iterable[Step],
    banker: Drivable,
    clock: ManualClock,
    enroll: Callable[[str, str, int | None], None],
    *,
    on_step: Callable[[Step, object], None] | None = None,
) -> list[object]:
    """Play ``steps`` into ``banker`` and check every expectation; returns the reactions in order.

    ``enroll`` handles ``card`` steps (a registry's ``enroll`` or :meth:`CardTable.enroll`); ``clock`` is
    the banker's injected clock, advanced by ``wait`` steps before a ``tick``.
    """
    interpreter = Interpreter(banker, on_enroll=enroll, on_wait=clock.advance)
    reactions: list[object] = []
    for step in steps:
        reaction = interpreter.step(step).reaction
        if reaction is not None:
            reactions.append(reaction)
        if on_step is not None:
            on_step(step, reaction)
    return reactions


def steps_of(items: Sequence[str]) -> tuple[Step, ...]:
    """Parse a few lines given as strings (handy in tests)."""
    return parse("\n".join(items)).steps
