"""Fuzzing the two receive paths a reader's bytes go through: random and damaged frames, counted verdicts.

* :func:`fuzz_bridge` feeds :class:`reader.protocol.FrameDecoder` (the bridge protocol v2) random byte
  strings and damaged valid frames, each to a fresh decoder, and counts what it yields;
* :func:`fuzz_pn532` does the same for :class:`reader.pn532_frames.FrameDecoder` with damaged
  InListPassiveTarget answers, then hands every decoded frame to the driver's parser.

A *tap invented* is a tap decoded from an input that does not hold the intact frame of that tap: for
the bridge, a ``TAP`` whose exact encoding is not in the input; for the PN532, a target whose UID is
not that of the undamaged answer (damage to the preamble or postamble leaves the answer as it was). Damage kinds (:data:`DAMAGE`): ``flip`` (one byte changed), ``burst`` (two
adjacent bytes changed: at most 16 bits), ``bits`` (one bit flipped in each of 2-3 bytes: line
noise), ``multi`` (2-4 bytes changed anywhere), ``insert``,
``delete``, ``truncate``, ``splice`` (two frames cut and joined). Everything is seeded: a run is
reproducible. Exceptions are caught per input and counted as ``escaped`` (which must stay 0).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from reader import pn532_frames as pf
from reader import protocol as bp

DAMAGE = ("flip", "bits", "burst", "multi", "insert", "delete", "truncate", "splice")
SINGLE_BYTE_DAMAGE = ("flip", "burst")
"""Damage a CRC-16 always detects (at most 16 adjacent bits)."""


@dataclass
class FuzzReport:
    """The counts of one fuzz run; ``seconds`` is wall time, ``frames`` inputs fed."""

    decoder: str
    frames: int = 0
    seconds: float = 0.0
    escaped: int = 0
    taps_invented: int = 0
    invented_by_damage: Counter[str] = field(default_factory=Counter)
    counters: Counter[str] = field(default_factory=Counter)
    examples: list[bytes] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Inputs per second."""
        return self.frames / self.seconds if self.seconds else 0.0

    def lines(self) -> list[str]:
        """The report as printable lines."""
        drops = ", ".join(f"{k} {v}" for k, v in sorted(self.counters.items()))
        out = [
            f"{self.decoder}: {self.frames:,} inputs in {self.seconds:.2f} s ({self.rate:,.0f} inputs/s)",
            f"  exceptions escaped: {self.escaped}; taps invented: {self.taps_invented}",
            f"  decoder verdicts: {drops}",
        ]
        if self.invented_by_damage:
            out.append("  invented taps by damage kind: "
                       + ", ".join(f"{k} {v}" for k, v in sorted(self.invented_by_damage.items())))
        return out


def _uid(rng: random.Random) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.choice((4, 7, 10))))


def damage(rng: random.Random, data: bytes, kind: str, other: bytes = b"") -> bytes:
    """``data`` with one damage of ``kind`` (see the module docstring); ``other`` is used by ``splice``."""
    b = bytearray(data)
    n = len(b)
    if kind == "flip":
        i = rng.randrange(n)
        b[i] ^= rng.randrange(1, 256)
    elif kind == "burst":
        i = rng.randrange(n - 1)
        b[i] ^= rng.randrange(1, 256)
        b[i + 1] ^= rng.randrange(256)
    elif kind == "bits":
        for i in rng.sample(range(n), rng.randint(2, min(3, n))):
            b[i] ^= 1 << rng.randrange(8)
    elif kind == "multi":
        for i in rng.sample(range(n), rng.randint(2, min(4, n))):
            b[i] ^= rng.randrange(1, 256)
    elif kind == "insert":
        i = rng.randrange(n + 1)
        b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 3)))
    elif kind == "delete":
        i = rng.randrange(n)
        del b[i : i + rng.randint(1, 3)]
    elif kind == "truncate":
        del b[rng.randrange(n) :]
    elif kind == "splice":
        cut = rng.randrange(1, n)
        b = b[:cut] + bytearray(other[rng.randrange(len(other)) :] if other else b"")
    else:
        raise ValueError(f"unknown damage kind {kind!r}; expected one of {DAMAGE}")
    return bytes(b)


# ---------------------------------------------------------------------------------------------- bridge


def _bridge_frame(rng: random.Random) -> bytes:
    uid = _uid(rng).hex().upper()
    choice = rng.randrange(6)
    if choice < 3:
        return bp.encode("TAP", uid)
    if choice == 3:
        return bp.encode("GONE", uid)
    if choice == 4:
        return bp.encode("PONG", rng.randrange(65536))
    return bp.encode("HELLO", "bridge", 2, "2.0.0")


def fuzz_bridge(n: int, seed: int = 1, kinds: tuple[str, ...] = DAMAGE) -> FuzzReport:
    """Feed ``n`` inputs (a quarter random bytes, the rest damaged frames of ``kinds``) to fresh decoders."""
    rng = random.Random(seed)
    report = FuzzReport("bridge protocol v2 (reader.protocol.FrameDecoder)")
    started = time.perf_counter()
    for i in range(n):
        if i % 4 == 0:
            kind = "random"
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
            if rng.random() < 0.5:
                data = b"$" + data  # random bytes that at least start a frame
        else:
            kind = rng.choice(kinds)
            data = damage(rng, _bridge_frame(rng), kind, _bridge_frame(rng)) + b"\n"
        _feed_bridge(report, kind, data)
    report.frames = n
    report.seconds = time.perf_counter() - started
    return report


def _feed_bridge(report: FuzzReport, kind: str, data: bytes) -> None:
    decoder = bp.FrameDecoder()
    try:
        frames = decoder.feed(data)
    except Exception:
        report.escaped += 1
        report.examples.append(data)
        return
    report.counters.update({k: v for k, v in decoder.stats.items() if k != "junk_bytes"})
    for frame in frames:
        if frame.verb == "TAP" and bp.encode("TAP", *frame.args)[:-1] not in data:
            report.taps_invented += 1
            report.invented_by_damage[kind] += 1
            report.examples.append(data)


def _xor(payload: bytes) -> int:
    c = 0
    for b in payload:
        c ^= b
    return c


def _v1_taps(data: bytes) -> list[str]:
    """The UIDs a protocol v1 receiver (XOR-8 check, two hex digits) would have taken from ``data``."""
    import re

    taps = []
    for m in re.finditer(rb"\$(TAP ([0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20}))\*([0-9A-F]{2})\n", data):
        if _xor(m.group(1)) == int(m.group(3), 16):
            taps.append(m.group(2).decode())
    return taps


def fuzz_bridge_v1(n: int, seed: int = 1, kinds: tuple[str, ...] = ("bits",)) -> FuzzReport:
    """For comparison: the same damage to protocol v1's TAP frames (XOR-8), counted the same way."""
    rng = random.Random(seed)
    report = FuzzReport("bridge protocol v1, for comparison (XOR-8)")
    started = time.perf_counter()
    for _ in range(n):
        uid = _uid(rng).hex().upper()
        payload = f"TAP {uid}".encode()
        frame = b"$%s*%02X\n" % (payload, _xor(payload))
        kind = rng.choice(kinds)
        data = damage(rng, frame, kind, frame) + b"\n"
        for got in _v1_taps(data):
            if got != uid:
                report.taps_invented += 1
                report.invented_by_damage[kind] += 1
    report.frames = n
    report.seconds = time.perf_counter() - started
    return report


# ---------------------------------------------------------------------------------------------- PN532


def _pn532_answer(rng: random.Random) -> bytes:
    if rng.random() < 0.2:
        return pf.encode_response(pf.CMD_IN_LIST_PASSIVE_TARGET, b"\x00")
    return pf.encode_response(pf.CMD_IN_LIST_PASSIVE_TARGET, b"\x01" + pf.target_a_payload(1, _uid(rng)))


def _targets(frames: list[pf.Frame]) -> list[pf.TargetA]:
    found: list[pf.TargetA] = []
    for frame in frames:
        if isinstance(frame, pf.InfoFrame) and frame.tfi == pf.TFI_CHIP:
            try:
                found += pf.parse_in_list_passive_target(frame)
            except pf.PN532FrameError:
                continue  # a frame of another command, or a malformed answer: the driver drops it too
    return found


def fuzz_pn532(n: int, seed: int = 1, kinds: tuple[str, ...] = DAMAGE) -> FuzzReport:
    """Feed ``n`` inputs (a quarter random bytes, the rest damaged InListPassiveTarget answers) to fresh
    PN532 decoders and the driver's answer parser."""
    rng = random.Random(seed)
    report = FuzzReport("PN532 frames (reader.pn532_frames.FrameDecoder + parse_in_list_passive_target)")
    started = time.perf_counter()
    for i in range(n):
        if i % 4 == 0:
            kind = "random"
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
            if rng.random() < 0.5:
                data = b"\x00\x00\xff" + data  # random bytes behind a start code
            originals: list[bytes] = []
        else:
            kind = rng.choice(kinds)
            original, other = _pn532_answer(rng), _pn532_answer(rng)
            data = damage(rng, original, kind, other)
            originals = [original, other]
        _feed_pn532(report, kind, data, originals)
    report.frames = n
    report.seconds = time.perf_counter() - started
    return report


def _feed_pn532(report: FuzzReport, kind: str, data: bytes, originals: list[bytes]) -> None:
    decoder = pf.FrameDecoder()
    try:
        frames = decoder.feed(data)
        frames += decoder.abandon_partial()
        targets = _targets(frames)
    except Exception:
        report.escaped += 1
        report.examples.append(data)
        return
    report.counters.update(decoder.counters)
    known = [t.uid for o in originals for t in _targets(pf.FrameDecoder().feed(o))]
    for target in targets:
        if target.uid not in known:
            report.taps_invented += 1
            report.invented_by_damage[kind] += 1
            report.examples.append(data)


RUNS: dict[str, Callable[..., FuzzReport]] = {"bridge": fuzz_bridge, "pn532": fuzz_pn532}
