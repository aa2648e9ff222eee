"""The tap-script format's steps and its parser (the format and the interpreter are in
:mod:`engine.banker.tapscript`, which re-exports everything here)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.numbers import MAX_WAIT_S, parse_int, parse_seconds

EXPECT_KINDS = ("balance", "owner", "level", "state", "error", "phase", "name", "token", "option", "edition",
                "mortgaged", "pot", "cards")
_EXPECT_ARGS = {"balance": 2, "owner": 2, "level": 2, "state": 1, "error": 1, "phase": 1, "name": 2, "token": 2,
                "option": 2, "edition": 1, "mortgaged": 2, "pot": 1, "cards": 2}


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


def _shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a one-line message, cut to ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def int_arg(text: str, what: str, lineno: int) -> int:
    """A whole number argument: ASCII digits with an optional ``-``, at most 18 digits
    (:func:`engine.numbers.parse_int`); anything else is a :class:`TapScriptError`."""
    value = parse_int(text)
    if value is None:
        raise TapScriptError(f"line {lineno}: {what} must be an integer (ASCII digits), got {_shown(text)}")
    return value


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
            raise TapScriptError(f"line {lineno}: expected 'card UID ROLE [VALUE]', got {_shown(text.strip(), 80)}")
        value = int_arg(rest[2], "a card value", lineno) if len(rest) == 3 else None
        return Card(lineno, rest[0], rest[1], value)
    if verb == "alias":
        if len(rest) != 2:
            raise TapScriptError(f"line {lineno}: expected 'alias NAME UID', got {_shown(text.strip(), 80)}")
        aliases[rest[0]] = rest[1]
        return Alias(lineno, rest[0], rest[1])
    if verb == "tap":
        if len(rest) != 1:
            raise TapScriptError(f"line {lineno}: expected 'tap UID' or 'tap @alias', got {_shown(text.strip(), 80)}")
        uid = rest[0]
        if uid.startswith("@"):
            if uid[1:] not in aliases:
                raise TapScriptError(f"line {lineno}: unknown alias {_shown(uid)}; define it with 'alias NAME UID'")
            uid = aliases[uid[1:]]
        return Tap(lineno, uid)
    if verb == "press":
        if len(rest) not in (1, 2):
            raise TapScriptError(f"line {lineno}: expected 'press BUTTON [VALUE]', got {_shown(text.strip(), 80)}")
        return Press(lineno, rest[0], rest[1] if len(rest) == 2 else None)
    if verb == "choose":
        if not rest:
            raise TapScriptError(f"line {lineno}: expected 'choose VALUE', got {_shown(text.strip(), 80)}")
        return Choose(lineno, _rest_of_line(text))
    if verb == "wait":
        if len(rest) != 1:
            raise TapScriptError(f"line {lineno}: expected 'wait SECONDS', got {_shown(text.strip(), 80)}")
        seconds = parse_seconds(rest[0])
        if seconds is None:
            raise TapScriptError(f"line {lineno}: wait needs seconds as a number >= 0 and at most {MAX_WAIT_S:g}, "
                                 f"in plain decimals (such as 10 or 0.5), got {_shown(rest[0])}")
        return Wait(lineno, seconds)
    if verb == "expect":
        if not rest or rest[0] not in EXPECT_KINDS:
            raise TapScriptError(f"line {lineno}: expected 'expect {{{'|'.join(EXPECT_KINDS)}}} ...', got {_shown(text.strip(), 80)}")
        want = _EXPECT_ARGS[rest[0]]
        if rest[0] == "name" and len(rest) > 3:  # a name may hold spaces: the rest of the line
            return Expect(lineno, "name", (rest[1], _rest_of_line(text, 3)))
        if len(rest) - 1 != want:
            raise TapScriptError(f"line {lineno}: 'expect {rest[0]}' takes {want} argument(s), got {_shown(text.strip(), 80)}")
        return Expect(lineno, rest[0], tuple(rest[1:]))
    raise TapScriptError(
        f"line {lineno}: unknown verb {_shown(verb)}; expected card, alias, tap, press, choose, wait or expect"
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
