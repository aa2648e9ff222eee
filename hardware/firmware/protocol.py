# MicroPython code: %-formatting and explicit loops are kept on purpose (small, fast on the Pico).
# ruff: noqa: UP031, SIM109, SIM110, RUF005
"""boardbank bridge protocol, version 2: the firmware's codec (MicroPython and CPython).

The spec is hardware/protocol.md; golden frames are hardware/golden_frames.json. This file runs on the
Raspberry Pi Pico (MicroPython: no typing, no dataclasses, %-formatting only) and, unchanged, inside the
simulator (firmware_sim/bridge.py loads it by path) and in the tests under CPython. The host's own codec
is reader/protocol.py; both are held to the same golden frames.

A frame: ``$`` payload ``*`` HHHH ``\\n`` where HHHH is the CRC-16/CCITT of the payload bytes (polynomial
0x1021, initial value 0xFFFF: the host's ``binascii.crc_hqx(payload, 0xFFFF)``) as four upper-case hex
digits; at most 64 bytes in all (an optional ``\\r`` before ``\\n`` counts too). The payload is a verb and
arguments separated by single spaces, printable ASCII without ``$`` and ``*``.
"""

PROTOCOL_VERSION = 2
MAX_FRAME = 64  # bytes, from "$" to "\n" inclusive
START = 0x24  # "$"
STAR = 0x2A  # "*"
NL = 0x0A  # "\n"
CR = 0x0D  # "\r"

DEVICE_VERBS = ("HELLO", "TAP", "GONE", "EMPTY", "PONG", "ERR", "DATA", "DONE")
HOST_VERBS = ("PING", "BEEP", "LED", "VER?", "ACK", "READ", "WRITE", "MREAD", "MWRITE")
BEEPS = ("ok", "err", "go")
COLOURS = ("off", "red", "green", "blue", "yellow", "white")

# ERR codes (device -> host)
E_CHECKSUM = 1
E_UNKNOWN_VERB = 2
E_BAD_ARGS = 3
E_OVERLONG = 4
E_CHIP = 5
E_MEMORY = 6  # a card's memory could not be read or written (not on the reader, not an NTAG, locked)

_HEX = "0123456789ABCDEF"
_UID_HEX_LENGTHS = (8, 14, 20)  # 4, 7, 10 bytes


class ProtocolError(ValueError):
    """A line that is not a valid v2 frame; ``kind`` is one of syntax, checksum, overlong, args."""

    def __init__(self, kind, text):
        ValueError.__init__(self, text)
        self.kind = kind
        self.text = text


def checksum(payload):
    """CRC-16/CCITT of the payload bytes (between ``$`` and ``*``), 0..65535: polynomial 0x1021, initial
    value 0xFFFF, MSB first (MicroPython's binascii has no crc_hqx, so it is computed here bit by bit)."""
    crc = 0xFFFF
    for b in payload:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def _printable(text):
    for ch in text:
        o = ord(ch)
        if o < 0x20 or o > 0x7E or ch == "$" or ch == "*":
            return False
    return True


def encode(verb, args=()):
    """The frame (bytes) for ``verb`` and its ``args`` (strings or ints); ValueError if it cannot be one."""
    parts = [verb]
    for a in args:
        parts.append(str(a))
    for i, p in enumerate(parts):
        if not p or not _printable(p) or (" " in p and not (verb == "ERR" and i >= 2 and i == len(parts) - 1)):
            raise ValueError("frame field must be non-empty printable ASCII without $ * or spaces: %r" % (p,))
    payload = " ".join(parts).encode()
    c = checksum(payload)
    digits = _HEX[c >> 12] + _HEX[(c >> 8) & 15] + _HEX[(c >> 4) & 15] + _HEX[c & 15]
    frame = b"$" + payload + b"*" + digits.encode() + b"\n"
    if len(frame) > MAX_FRAME:
        raise ValueError("frame of %d bytes exceeds the %d-byte limit: %r" % (len(frame), MAX_FRAME, frame))
    return frame


def _is_uint(text, limit):
    if not text or len(text) > 9:
        return False
    for ch in text:
        if ch < "0" or ch > "9":
            return False
    return int(text) <= limit


def _is_uid(text):
    if len(text) not in _UID_HEX_LENGTHS:
        return False
    for ch in text:
        if ch not in _HEX:
            return False
    return True


def check_args(verb, args):
    """Raise ProtocolError("args") if ``args`` do not suit a known ``verb``; unknown verbs pass.

    Newer protocol versions may append arguments: extra trailing arguments are accepted.
    """
    n = len(args)
    bad = None
    if verb == "HELLO":
        if n < 3 or not _is_uint(args[1], 65535) or int(args[1]) < 1:
            bad = "HELLO needs a device kind, a protocol version >= 1 and a firmware version"
    elif verb in ("TAP", "GONE", "ACK"):
        if n < 1 or not _is_uid(args[0]):
            bad = "%s needs a UID of 4, 7 or 10 bytes in upper-case hex" % verb
    elif verb in ("PONG", "PING"):
        if n < 1 or not _is_uint(args[0], 65535):
            bad = "%s needs a sequence number 0..65535" % verb
    elif verb == "ERR":
        if n < 1 or not _is_uint(args[0], 999):
            bad = "ERR needs a numeric code 0..999 and may have a text"
    elif verb == "BEEP":
        if n < 1 or args[0] not in BEEPS:
            bad = "BEEP needs one of ok, err, go"
    elif verb == "LED":
        if n < 1 or args[0] not in COLOURS:
            bad = "LED needs one of off, red, green, blue, yellow, white"
    elif verb in ("READ", "WRITE", "DATA", "DONE"):
        want = {"READ": 2, "DONE": 2, "WRITE": 3, "DATA": 3}[verb]
        size = {"WRITE": 8, "DATA": 32}.get(verb, 0)
        if (n < want or not _is_uid(args[0]) or not _is_uint(args[1], 255)
                or (size and (len(args[2]) != size or not all(c in _HEX for c in args[2])))):
            bad = "%s needs a UID, a page 0..255%s" % (verb, ", %d hex digits" % size if size else "")
    elif verb in ("MREAD", "MWRITE"):
        if (n < (4 if verb == "MWRITE" else 3) or len(args[0]) != 8 or not _is_uid(args[0])
                or not _is_uint(args[1], 63) or len(args[2]) != 2 or args[2][0] not in "AB"
                or args[2][1] not in "MNT" or (verb == "MWRITE" and (len(args[3]) != 32
                                                or not all(c in _HEX for c in args[3])))):
            bad = "%s needs a 4-byte UID, a block 0..63, a key AM/AN/AT/BM/BN/BT%s" % (
                verb, " and 32 hex digits" if verb == "MWRITE" else "")
    elif verb == "VER?":
        pass
    if bad is not None:
        raise ProtocolError("args", "%s, got %r" % (bad, " ".join([verb] + list(args))))


def decode(line):
    """Decode one frame (bytes from ``$``, with or without the ending) into ``(verb, args)``.

    Unknown verbs decode (the caller ignores them or answers ERR); anything else invalid raises
    ProtocolError with the kind of fault.
    """
    if len(line) > MAX_FRAME:
        raise ProtocolError("overlong", "frame of %d bytes exceeds %d: %r" % (len(line), MAX_FRAME, line[:16]))
    end = len(line)
    if end and line[end - 1] == NL:
        end -= 1
    if end and line[end - 1] == CR:
        end -= 1
    body = line[:end]
    if len(body) < 7 or body[0] != START or body[len(body) - 5] != STAR:
        raise ProtocolError("syntax", "expected $PAYLOAD*HHHH, got %r" % (line,))
    payload = body[1 : len(body) - 5]
    given = body[len(body) - 4 :]
    for b in payload:
        if b < 0x20 or b > 0x7E or b == START or b == STAR:
            raise ProtocolError("syntax", "payload must be printable ASCII without $ or *: %r" % (line,))
    for b in given:
        if not (0x30 <= b <= 0x39 or 0x41 <= b <= 0x46):
            raise ProtocolError("syntax", "the CRC must be four upper-case hex digits: %r" % (line,))
    c = checksum(payload)
    if int(given.decode(), 16) != c:
        raise ProtocolError("checksum", "CRC %s does not match %04X: %r" % (given.decode(), c, line))
    text = payload.decode()
    verb, _, rest = text.partition(" ")
    if not verb:
        raise ProtocolError("syntax", "a frame starts with a verb: %r" % (line,))
    if verb == "ERR" and rest:
        code, _, message = rest.partition(" ")
        args = [code, message] if message else [code]
    elif rest:
        args = rest.split(" ")
        for a in args:
            if not a:
                raise ProtocolError("syntax", "arguments are separated by single spaces: %r" % (line,))
    else:
        args = []
    check_args(verb, args)
    return verb, args


class Splitter:
    """Incremental splitter: bytes in, complete candidate frames out; robust to noise.

    A ``$`` always starts a new frame (a partial frame before it is dropped as junk); bytes outside a
    frame are junk; a frame that reaches MAX_FRAME bytes without ``\\n`` is dropped as overlong and the
    rest of it discarded up to the next ``$`` or ``\\n``. Counters: junk_bytes, overlong.
    """

    def __init__(self):
        self.buf = bytearray()
        self.discarding = False
        self.junk_bytes = 0
        self.overlong = 0

    def feed(self, data):
        """Feed received bytes; return the list of complete frames (bytes, ending in ``\\n``)."""
        out = []
        buf = self.buf
        for b in data:
            if b == START:
                if buf:
                    self.junk_bytes += len(buf)
                buf = bytearray(b"$")
                self.discarding = False
            elif b == NL:
                if buf:
                    buf.append(NL)
                    out.append(bytes(buf))
                    buf = bytearray()
                elif not self.discarding:
                    self.junk_bytes += 1
                self.discarding = False
            elif buf:
                buf.append(b)
                if len(buf) >= MAX_FRAME:
                    self.overlong += 1
                    buf = bytearray()
                    self.discarding = True
            elif not self.discarding:
                self.junk_bytes += 1
        self.buf = buf
        return out
