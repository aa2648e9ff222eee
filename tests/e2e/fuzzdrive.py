"""Fuzzed input lines for ``boardbank headless`` and an in-process driver that checks every answer.

Used by tests/e2e/test_fuzz_headless.py (a short run) and bench/bench_fuzz_headless.py (the full run).
The lines are the tap scripts' own lines (tests/engine/taps/), played as they are or mutated: ids and
JSON forms, flipped, inserted and deleted bytes, words replaced by look-alike numbers, invalid UTF-8, NUL
bytes, random bytes, malformed ``expect`` lines and lines of a megabyte. "Garbage" is a line that is not
UTF-8, holds a control character or is longer than headless's limit: it must change nothing at all.
"""

from __future__ import annotations

import argparse
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.banker.tapparse import Expect, TapScriptError, parse_line
from ui.cli.headless import MAX_LINE_BYTES, Headless
from ui.compose import Built, build

TAPS = Path(__file__).parents[1] / "engine" / "taps"
WEIRD = ["²", "①", "⁴", "٣", "-100", "abc", "nan", "inf", "1e308", "9" * 5000, "", "@nope", "0", "+5", "1_0",
         "NaN", "-inf", "id=", "{", "\t", "p²", "name=²:x", "token=①:red", "option=start_money:" + "9" * 5000]
BAD_UTF8 = [b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf0\x28\x8c\x28", b"\x80", b"\xc0\xaf"]
BAD_EXPECT = ["expect", "expect balance", "expect balance 1", "expect level x y", "expect owner ² 1",
              "expect option", "expect balance " + "9" * 5000 + " 1", "expect nothing 1", "expect state a b"]


def corpus() -> list[str]:
    """Every step line of the tap scripts, except ``expect`` lines (the fuzz checks its own invariants)."""
    out: list[str] = []
    for path in sorted(TAPS.glob("*.tap")):
        for line in path.read_text(encoding="utf-8").splitlines():
            text = line.split("#", 1)[0].strip()
            if text and not text.startswith("expect"):
                out.append(text)
    return out


def _no_expect(line: bytes) -> bytes:
    """A line that would be a well-formed ``expect`` step becomes a malformed one (its failure would be
    the script's, not the unit's)."""
    try:
        text = line.decode("utf-8")
        step = parse_line(text.split(" ", 1)[1] if text.startswith("id=") and " " in text else text, 1, {})
    except (UnicodeDecodeError, TapScriptError, IndexError):
        return line
    return b"expect" if isinstance(step, Expect) else line


def mutate(rng: random.Random, line: str) -> bytes:
    """One fuzzed line (without its newline) made from the valid ``line``."""
    roll = rng.random()
    raw = line.encode("utf-8")
    if roll < 0.35:
        return raw
    if roll < 0.45:
        return f"id={rng.randrange(300)} {line}".encode()
    if roll < 0.50:
        return json.dumps({"id": str(rng.randrange(300)), "line": line}).encode()
    if roll < 0.65:
        data = bytearray(raw)
        for _ in range(rng.randint(1, 3)):
            op, at = rng.random(), rng.randrange(len(data) + 1)
            if op < 0.4 and data:
                data[min(at, len(data) - 1)] = rng.randrange(256)
            elif op < 0.7:
                data.insert(at, rng.randrange(256))
            elif data:
                del data[min(at, len(data) - 1)]
        return bytes(data).replace(b"\n", b" ").replace(b"\r", b" ")
    if roll < 0.80:
        words = line.split()
        words[rng.randrange(len(words))] = rng.choice(WEIRD)
        return " ".join(words).encode("utf-8")
    if roll < 0.85:
        at = rng.randrange(len(raw) + 1)
        return raw[:at] + rng.choice(BAD_UTF8) + raw[at:]
    if roll < 0.88:
        at = rng.randrange(len(raw) + 1)
        return raw[:at] + b"\x00" + raw[at:]
    if roll < 0.93:
        return bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 60))).replace(b"\n", b"").replace(b"\r", b"")
    if roll < 0.98:
        return rng.choice(BAD_EXPECT).encode()
    if roll < 0.9997:
        return f"wait {rng.choice(['0.5', '3', '10', '11', '25'])}".encode()
    return b"tap " + b"A" * 1_000_000


def fuzz_lines(seed: int, count: int) -> Iterator[bytes]:
    """``count`` fuzzed lines (no newline), reproducible from ``seed``."""
    rng = random.Random(seed)
    lines = corpus()
    at = 0
    for _ in range(count):
        if rng.random() < 0.02:
            at = rng.randrange(len(lines))  # jump elsewhere in the scripts now and then
        yield _no_expect(mutate(rng, lines[at % len(lines)]))
        at += 1


def is_garbage(line: bytes) -> bool:
    """A line headless must refuse whole: too long, not UTF-8, or with a control character (NUL...)."""
    if len(line) > MAX_LINE_BYTES:
        return True
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return any(not ch.isprintable() and ch != "\t" for ch in text)


class _Lines(io.StringIO):
    """Headless's output: each line must be UTF-8 encodable JSON; kept until :meth:`take`."""

    def __init__(self) -> None:
        super().__init__()
        self.objects: list[dict[str, Any]] = []

    def write(self, s: str) -> int:
        for line in s.splitlines():
            line.encode("utf-8")
            self.objects.append(json.loads(line))
        return len(s)

    def take(self) -> list[dict[str, Any]]:
        out, self.objects = self.objects, []
        return out


class Driver:
    """``boardbank headless`` in this process on ``db`` with a manual clock, fed one line at a time."""

    def __init__(self, db: Path, seed: int | None = None) -> None:
        args = argparse.Namespace(db=str(db), reader=None, edition=None, option=[])
        self.built: Built = build(args, default_readers=[], manual_clock=True)
        if seed is not None:  # every game's deck shuffled from ``seed`` (else the unit's random seeds)
            self.built.banker.ctx.seed_source = lambda: seed
        self.out = _Lines()
        self.headless = Headless(self.built, self.out)
        self.lineno = 0
        self.garbage = 0
        self.problems: list[str] = []

    def feed(self, line: bytes) -> list[dict[str, Any]]:
        """Play one line; check that garbage changed nothing (no event, no tap, same state and seq)."""
        banker = self.built.banker
        before = (banker.state, banker.last_seq, banker.seats, banker.durable.game_id if banker.durable else None)
        self.lineno += 1
        self.headless.handle_line(line + b"\n", self.lineno)
        answer = self.out.take()
        if is_garbage(line):
            self.garbage += 1
            after = (banker.state, banker.last_seq, banker.seats, banker.durable.game_id if banker.durable else None)
            if after != before or any(o["type"] in ("event", "cue", "enrolled") for o in answer):
                self.problems.append(f"line {self.lineno} {line[:60]!r}: garbage changed {before} -> {after}")
            if [o.get("error") for o in answer] != ["error.bad_line"]:
                self.problems.append(f"line {self.lineno} {line[:60]!r}: expected one error.bad_line, got {answer}")
        return answer

    def invariants(self) -> list[str]:
        """What is wrong with the engine's state now (empty when healthy)."""
        game = self.built.banker.game
        return [] if game is None else list(game.invariants())

    def close(self) -> None:
        self.built.close()
