"""The tap-script format: a readable list of card taps, button presses and expectations.

One step per line; ``#`` starts a comment; a ``# source: ...`` header names the rule source::

    # source: shared/RULES.md 1.9 (rent, then level +1)
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

The same verbs are read by ``boardbank headless`` and by the UI's ``boardbank run --script``. The parser
returns typed steps; :func:`run_script` drives any object with the Banker's ``tap/press/choose/tick``
methods and checks every expectation, raising :class:`ExpectationFailed` with the line number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from engine.banker.viewmodel import ViewModel
from engine.errors import OptionError
from engine.options import parse_option_text

EXPECT_KINDS = ("balance", "owner", "level", "state", "error", "phase", "name", "token", "option", "edition")
_EXPECT_ARGS = {"balance": 2, "owner": 2, "level": 2, "state": 1, "error": 1, "phase": 1, "name": 2, "token": 2,
                "option": 2, "edition": 1}


class TapScriptError(ValueError):
    """A line that is not a valid tap-script step (the message names the line and what was expected)."""


class ExpectationFailed(AssertionError):
    """An ``expect`` step did not hold."""


@dataclass(frozen=True, slots=True)
class Card:
    """``card UID ROLE [VALUE]``: enroll a card."""

    line: int
    uid: str
    kind: str
    value: int | None


@dataclass(frozen=True, slots=True)
class Alias:
    """``alias NAME UID``: later ``tap @NAME`` means ``tap UID``."""

    line: int
    name: str
    uid: str


@dataclass(frozen=True, slots=True)
class Tap:
    """``tap UID``: a card presented (aliases already resolved)."""

    line: int
    uid: str


@dataclass(frozen=True, slots=True)
class Press:
    """``press BUTTON [VALUE]``."""

    line: int
    button: str
    value: str | None = None


@dataclass(frozen=True, slots=True)
class Choose:
    """``choose VALUE``."""

    line: int
    value: str


@dataclass(frozen=True, slots=True)
class Wait:
    """``wait SECONDS``: the injected clock moves on by ``seconds`` (a float)."""

    line: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Expect:
    """``expect KIND ARGS...`` (see :data:`EXPECT_KINDS`)."""

    line: int
    kind: str
    args: tuple[str, ...]


Step = Card | Alias | Tap | Press | Choose | Wait | Expect


@dataclass(frozen=True)
class Script:
    """A parsed script: its steps and its ``# source:`` headers."""

    steps: tuple[Step, ...]
    sources: tuple[str, ...] = ()
    name: str = "<script>"


def _int(text: str, what: str, lineno: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise TapScriptError(f"line {lineno}: {what} must be an integer, got {text!r}") from None


def _rest_of_line(text: str, skip: int = 1) -> str:
    """The line after its first ``skip`` words, comment removed, inner spaces kept (a name such as "Ana María")."""
    rest = text.split("#", 1)[0].strip()
    for _ in range(skip):
        rest = rest.split(None, 1)[1] if len(rest.split(None, 1)) > 1 else ""
    return rest.strip()


def parse_line(text: str, lineno: int, aliases: dict[str, str]) -> Step | None:
    """Parse one line (``aliases`` is updated by ``alias`` steps); None for a blank or comment line."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    verb, rest = words[0].lower(), words[1:]
    if verb == "card":
        if len(rest) not in (2, 3):
            raise TapScriptError(f"line {lineno}: expected 'card UID ROLE [VALUE]', got {text.strip()!r}")
        value = _int(rest[2], "a card value", lineno) if len(rest) == 3 else None
        return Card(lineno, rest[0], rest[1], value)
    if verb == "alias":
        if len(rest) != 2:
            raise TapScriptError(f"line {lineno}: expected 'alias NAME UID', got {text.strip()!r}")
        aliases[rest[0]] = rest[1]
        return Alias(lineno, rest[0], rest[1])
    if verb == "tap":
        if len(rest) != 1:
            raise TapScriptError(f"line {lineno}: expected 'tap UID' or 'tap @alias', got {text.strip()!r}")
        uid = rest[0]
        if uid.startswith("@"):
            if uid[1:] not in aliases:
                raise TapScriptError(f"line {lineno}: unknown alias {uid!r}; define it with 'alias NAME UID'")
            uid = aliases[uid[1:]]
        return Tap(lineno, uid)
    if verb == "press":
        if len(rest) not in (1, 2):
            raise TapScriptError(f"line {lineno}: expected 'press BUTTON [VALUE]', got {text.strip()!r}")
        return Press(lineno, rest[0], rest[1] if len(rest) == 2 else None)
    if verb == "choose":
        if not rest:
            raise TapScriptError(f"line {lineno}: expected 'choose VALUE', got {text.strip()!r}")
        return Choose(lineno, _rest_of_line(text))
    if verb == "wait":
        if len(rest) != 1:
            raise TapScriptError(f"line {lineno}: expected 'wait SECONDS', got {text.strip()!r}")
        try:
            seconds = float(rest[0])
        except ValueError:
            raise TapScriptError(f"line {lineno}: wait needs seconds as a number, got {rest[0]!r}") from None
        if seconds < 0:
            raise TapScriptError(f"line {lineno}: wait needs seconds >= 0, got {rest[0]!r}")
        return Wait(lineno, seconds)
    if verb == "expect":
        if not rest or rest[0] not in EXPECT_KINDS:
            raise TapScriptError(f"line {lineno}: expected 'expect {{{'|'.join(EXPECT_KINDS)}}} ...', got {text.strip()!r}")
        want = _EXPECT_ARGS[rest[0]]
        if rest[0] == "name" and len(rest) > 3:  # a name may hold spaces: the rest of the line
            return Expect(lineno, "name", (rest[1], _rest_of_line(text, 3)))
        if len(rest) - 1 != want:
            raise TapScriptError(f"line {lineno}: 'expect {rest[0]}' takes {want} argument(s), got {text.strip()!r}")
        return Expect(lineno, rest[0], tuple(rest[1:]))
    raise TapScriptError(
        f"line {lineno}: unknown verb {verb!r}; expected card, alias, tap, press, choose, wait or expect"
    )


def parse(text: str, name: str = "<script>") -> Script:
    """Parse a whole script."""
    aliases: dict[str, str] = {}
    steps: list[Step] = []
    sources: list[str] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.lower().startswith("# source:"):
            sources.append(stripped.split(":", 1)[1].strip())
            continue
        step = parse_line(line, lineno, aliases)
        if step is not None:
            steps.append(step)
    return Script(tuple(steps), tuple(sources), name)


def parse_file(path: str | Path) -> Script:
    """Parse the script in ``path`` (UTF-8)."""
    p = Path(path)
    return parse(p.read_text(encoding="utf-8"), p.name)


class Drivable(Protocol):
    """What the runner drives: the Banker's input methods and its view."""

    def tap(self, uid: str) -> object: ...
    def press(self, button: str, value: str | None = None) -> object: ...
    def choose(self, value: str) -> object: ...
    def tick(self) -> object: ...
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
        got, want = players.get(pid), _int(args[1], "a balance", step.line)
    elif kind in ("owner", "level"):
        deed = _int(args[0], "a deed number", step.line)
        space = next((s for s in view.board if s.deed == deed), None)
        if space is None:
            raise ExpectationFailed(f"line {step.line}: deed {deed} is not on the board")
        if kind == "owner":
            got, want = seat_of(space.owner), args[1].removeprefix("p")
        else:
            got, want = space.level, _int(args[1], "a level", step.line)
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
    else:
        got, want = last_error or "none", args[0]
    if got != want:
        raise ExpectationFailed(
            f"line {step.line}: expected {kind} {' '.join(args[:-1])} {want}".replace("  ", " ")
            + f", got {got!r} (state {view.state}, prompt {view.prompt.key})"
        )


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
    reactions: list[object] = []
    last_error: str | None = None
    for step in steps:
        reaction: object = None
        if isinstance(step, Card):
            enroll(step.uid, step.kind, step.value)
        elif isinstance(step, Tap):
            reaction = banker.tap(step.uid)
        elif isinstance(step, Press):
            reaction = banker.press(step.button, step.value)
        elif isinstance(step, Choose):
            reaction = banker.choose(step.value)
        elif isinstance(step, Wait):
            clock.advance(step.seconds)
            reaction = banker.tick()
        elif isinstance(step, Expect):
            check_expectation(step, banker.view, last_error)
        if reaction is not None:
            reactions.append(reaction)
            if not isinstance(step, Wait):
                last_error = getattr(reaction, "error", None)
        if on_step is not None:
            on_step(step, reaction)
    return reactions


def steps_of(items: Sequence[str]) -> tuple[Step, ...]:
    """Parse a few lines given as strings (handy in tests)."""
    return parse("\n".join(items)).steps
