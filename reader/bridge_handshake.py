"""The bridge handshake of protocol v2, and how the host recognises a bridge still on v1 firmware.

Protocol v2 (hardware/protocol.md §6) changed the frame's check from an XOR-8 byte (two hex digits) to
a CRC-16 (four hex digits). A v2 host decodes only v2 frames, so nothing a v1 device says can become a
tap. A v1 device is still recognised, to say what is wrong instead of staying silent: its frames end
in ``*HH`` with a correct XOR-8 (its boot ``HELLO``, or the ``ERR 3 bad frame`` it answers to every v2
frame). The host then reports the reader lost with :data:`LEGACY_REASON` and does not connect.
"""

from __future__ import annotations

import re

from reader.protocol import PROTOCOL_VERSION, encode

LEGACY_REASON = (
    "the bridge runs protocol v1 firmware (XOR-8 checksums, which let damaged frames through); "
    "install firmware 2.x from hardware/firmware"
)
_V1_FRAME = re.compile(rb"\$([\x20-\x23\x25-\x29\x2B-\x7E]+)\*([0-9A-F]{2})\r?\n")
_V1_VERBS = (b"HELLO", b"ERR")
_KEEP = 64  # bytes of unterminated input kept between reads (one frame at most)


def version_query() -> bytes:
    """``VER? 2``: asks the device for its HELLO and card state, naming the version this host speaks."""
    return encode("VER?", PROTOCOL_VERSION)


def describe_hello(args: tuple[str, ...]) -> str:
    """``bridge fw <firmware> protocol <n>`` from a HELLO's arguments (kind, version, firmware)."""
    return f"{args[0]} fw {args[2]} protocol {args[1]}"


def _xor(payload: bytes) -> int:
    c = 0
    for b in payload:
        c ^= b
    return c


class LegacyDetector:
    """Bytes in; :meth:`feed` returns True once they held a v1 ``HELLO`` or ``ERR`` frame with a good XOR-8.

    Used only while the host waits for a HELLO; what it finds is never turned into an event other than
    the ReaderLost that names the firmware problem.
    """

    def __init__(self) -> None:
        self._buf = b""
        self.found = False

    def feed(self, data: bytes) -> bool:
        """Add ``data``; True if a v1 device has been recognised (now or before)."""
        if self.found:
            return True
        self._buf = (self._buf + data)[-(_KEEP * 4) :]
        for m in _V1_FRAME.finditer(self._buf):
            payload = m.group(1)
            if payload.split(b" ", 1)[0] in _V1_VERBS and _xor(payload) == int(m.group(2), 16):
                self.found = True
                break
        if not self.found:
            self._buf = self._buf[-_KEEP:]
        return self.found

    def reset(self) -> None:
        """Forget held bytes and the verdict (after a reconnect)."""
        self._buf = b""
        self.found = False
