"""A bridge still on protocol v1 firmware (XOR-8 checksums), for the tests of how a v2 host treats it.

It says ``HELLO bridge 1 1.0.0`` at power-on and answers every line it gets with ``ERR 3 bad frame``
(what v1 firmware does with a v2 frame); ``tap`` sends a v1 ``TAP`` that a v2 host must never take.
"""

from __future__ import annotations

from firmware_sim.device import SimDevice


def v1_frame(payload: str) -> bytes:
    """A v1 frame: ``$payload*HH`` with HH the XOR of the payload bytes."""
    c = 0
    for b in payload.encode("ascii"):
        c ^= b
    return b"$%s*%02X\n" % (payload.encode("ascii"), c)


class V1BridgeDevice(SimDevice):
    """v1 firmware on a pty (see the module docstring)."""

    def on_plugged(self) -> None:
        self.write(v1_frame("HELLO bridge 1 1.0.0"))

    on_replug = on_plugged

    def on_host_bytes(self, data: bytes) -> None:
        for _ in range(data.count(b"\n")):
            self.write(v1_frame("ERR 3 bad frame"))

    def tap(self, uid: str) -> None:
        self.write(v1_frame(f"TAP {uid.upper()}"))

    def remove(self) -> None:
        self.write(v1_frame("GONE 04A22B1C"))
