"""The bridge protocol, version 2 (hardware/protocol.md): the host's pure frame codec.

A frame is ``$`` + payload + ``*`` + four upper-case hex digits (the CRC-16/CCITT of the payload bytes,
:func:`binascii.crc_hqx` with the initial value 0xFFFF) + ``\\n``,
64 bytes at most (a ``\\r`` before the ``\\n`` is tolerated and counts). The payload is a verb and its
arguments separated by single spaces, printable ASCII without ``$`` and ``*``.

This module does no I/O. The firmware has its own MicroPython codec (hardware/firmware/protocol.py);
both are held to the same golden frames (hardware/golden_frames.json). :class:`FrameDecoder` is the
driver's receive path: it never raises, and counts and drops noise, overlong lines, bad checksums and
malformed frames, so no corrupted line can ever become a tap.
"""

from __future__ import annotations

import binascii
import re
from collections import Counter
from dataclasses import dataclass

PROTOCOL_VERSION = 2
CRC_INIT = 0xFFFF
"""Initial value of the CRC-16/CCITT register (the CRC-16/CCITT-FALSE variant: check value 0x29B1)."""
MAX_FRAME = 64
"""Bytes in a frame, from ``$`` to ``\\n`` inclusive."""

DEVICE_VERBS = frozenset({"HELLO", "TAP", "GONE", "EMPTY", "PONG", "ERR", "DATA", "DONE"})
HOST_VERBS = frozenset({"PING", "BEEP", "LED", "VER?", "ACK", "READ", "WRITE", "MREAD", "MWRITE"})
BEEPS = ("ok", "err", "go")
COLOURS = ("off", "red", "green", "blue", "yellow", "white")
ERROR_CODES = {1: "bad checksum", 2: "unknown verb", 3: "bad arguments", 4: "overlong line", 5: "reader chip error",
               6: "card memory not read or written"}

_START, _STAR, _NL, _CR = 0x24, 0x2A, 0x0A, 0x0D
_FRAME = re.compile(rb"^\$([\x20-\x23\x25-\x29\x2B-\x7E]+)\*([0-9A-F]{4})\r?\n?\Z")
_UINT = re.compile(r"^[0-9]{1,9}$")
_UID = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")
_FIELD = re.compile(r"^[\x20-\x23\x25-\x29\x2B-\x7E]+$")


class ProtocolError(ValueError):
    """A line that is not a valid v2 frame; ``kind`` is ``syntax``, ``checksum``, ``overlong`` or ``args``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame. ``known`` is False for verbs of a newer protocol version (to be ignored)."""

    verb: str
    args: tuple[str, ...] = ()

    @property
    def known(self) -> bool:
        return self.verb in DEVICE_VERBS or self.verb in HOST_VERBS


def checksum(payload: bytes) -> int:
    """CRC-16/CCITT (polynomial 0x1021, initial value 0xFFFF, no reflection) of the payload, 0..65535."""
    return binascii.crc_hqx(payload, CRC_INIT)


def encode(verb: str, *args: str | int) -> bytes:
    """The frame for ``verb`` and ``args``; ValueError if a field is empty, not printable or too long.

    Only the last argument of ``ERR`` (its text) may contain spaces.
    """
    fields = [verb, *map(str, args)]
    for i, f in enumerate(fields):
        spaced_ok = verb == "ERR" and i == len(fields) - 1 and i >= 2
        if not _FIELD.match(f) or (" " in f and not spaced_ok):
            raise ValueError(f"a frame field is printable ASCII without '$', '*' or spaces, got {f!r}")
    payload = " ".join(fields).encode("ascii")
    frame = b"$%s*%04X\n" % (payload, checksum(payload))
    if len(frame) > MAX_FRAME:
        raise ValueError(f"a frame has at most {MAX_FRAME} bytes, this one {len(frame)}: {frame[:24]!r}...")
    return frame


def _check_args(verb: str, args: tuple[str, ...], line: bytes) -> None:
    n = len(args)
    wrong: str | None = None
    if verb == "HELLO":
        if n < 3 or not _UINT.match(args[1]) or not 1 <= int(args[1]) <= 65535:
            wrong = "HELLO needs a device kind, a protocol version >= 1 and a firmware version"
    elif verb in ("TAP", "GONE", "ACK"):
        if n < 1 or not _UID.match(args[0]):
            wrong = f"{verb} needs a UID of 4, 7 or 10 bytes in upper-case hex"
    elif verb in ("PING", "PONG"):
        if n < 1 or not _UINT.match(args[0]) or int(args[0]) > 65535:
            wrong = f"{verb} needs a sequence number 0..65535"
    elif verb == "ERR":
        if n < 1 or not _UINT.match(args[0]) or int(args[0]) > 999:
            wrong = "ERR needs a numeric code 0..999 and may have a text"
    elif verb == "BEEP":
        if n < 1 or args[0] not in BEEPS:
            wrong = "BEEP needs one of ok, err, go"
    elif verb == "LED" and (n < 1 or args[0] not in COLOURS):
        wrong = f"LED needs one of {', '.join(COLOURS)}"
    elif verb in ("READ", "WRITE", "DATA", "DONE"):
        size = {"WRITE": 8, "DATA": 32}.get(verb, 0)
        if (n < (3 if size else 2) or not _UID.match(args[0]) or not _UINT.match(args[1]) or int(args[1]) > 255
                or (size and not re.fullmatch(f"[0-9A-F]{{{size}}}", args[2]))):
            wrong = f"{verb} needs a UID and a page 0..255" + (f" and {size} hex digits" if size else "")
    elif verb in ("MREAD", "MWRITE") and (
            n < (4 if verb == "MWRITE" else 3) or not re.fullmatch("[0-9A-F]{8}", args[0])
            or not _UINT.match(args[1]) or int(args[1]) > 63 or not re.fullmatch("[AB][MNT]", args[2])
            or (verb == "MWRITE" and not re.fullmatch("[0-9A-F]{32}", args[3]))):
        wrong = f"{verb} needs a 4-byte UID, a block 0..63, a key AM/AN/AT/BM/BN/BT" + (
                " and 32 hex digits" if verb == "MWRITE" else "")
    if wrong is not None:
        raise ProtocolError("args", f"{wrong}, got {line!r}")


def decode(line: bytes) -> Frame:
    """Decode one frame (from ``$``, the ``\\n`` optional); :class:`ProtocolError` if it is not valid.

    Extra trailing arguments of known verbs are kept (later versions may add some); unknown verbs decode
    with ``known`` False.
    """
    if len(line) > MAX_FRAME:
        raise ProtocolError("overlong", f"a frame has at most {MAX_FRAME} bytes, got {len(line)}: {line[:24]!r}")
    m = _FRAME.match(line)
    if m is None:
        raise ProtocolError("syntax", f"expected $PAYLOAD*HHHH with printable ASCII, got {line!r}")
    payload, given = m.group(1), int(m.group(2), 16)
    if checksum(payload) != given:
        raise ProtocolError("checksum", f"CRC {given:04X} should be {checksum(payload):04X} in {line!r}")
    text = payload.decode("ascii")
    verb, _, rest = text.partition(" ")
    if not verb:
        raise ProtocolError("syntax", f"a frame starts with a verb, got {line!r}")
    args: tuple[str, ...]
    if not rest:
        args = ()
    elif verb == "ERR":
        code, _, message = rest.partition(" ")
        args = (code, message) if message else (code,)
    else:
        args = tuple(rest.split(" "))
        if "" in args:
            raise ProtocolError("syntax", f"arguments are separated by single spaces, got {line!r}")
    _check_args(verb, args, line)
    return Frame(verb, args)


class FrameDecoder:
    """Bytes in, valid frames out; never raises.

    A ``$`` always starts a new frame (a partial frame before it is junk); bytes outside frames are junk;
    a frame reaching :data:`MAX_FRAME` bytes without its ``\\n`` is dropped as overlong and its tail
    skipped up to the next ``$`` or ``\\n``. ``stats`` counts: ``frames``, ``junk_bytes``, ``overlong``,
    ``syntax``, ``checksum``, ``args`` (each dropped frame once, by its fault).
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._discarding = False
        self.stats: Counter[str] = Counter()
        self.last_error: ProtocolError | None = None

    def feed(self, data: bytes) -> list[Frame]:
        """Feed received bytes; return the frames they completed, in order."""
        out: list[Frame] = []
        buf = self._buf
        for b in data:
            if b == _START:
                if buf:
                    self.stats["junk_bytes"] += len(buf)
                buf = bytearray(b"$")
                self._discarding = False
            elif b == _NL:
                if buf:
                    buf.append(b)
                    frame = self._decode(bytes(buf))
                    if frame is not None:
                        out.append(frame)
                    buf = bytearray()
                elif not self._discarding:
                    self.stats["junk_bytes"] += 1
                self._discarding = False
            elif buf:
                buf.append(b)
                if len(buf) >= MAX_FRAME:
                    self.stats["overlong"] += 1
                    buf = bytearray()
                    self._discarding = True
            elif not self._discarding:
                self.stats["junk_bytes"] += 1
        self._buf = buf
        return out

    def _decode(self, line: bytes) -> Frame | None:
        try:
            frame = decode(line)
        except ProtocolError as exc:
            self.stats[exc.kind] += 1
            self.last_error = exc
            return None
        self.stats["frames"] += 1
        return frame

    def reset(self) -> None:
        """Forget a partial frame (after a reconnect); the counters stay."""
        self._buf = bytearray()
        self._discarding = False
