"""Probes: does a device answer behind a reader URL? Used by ``boardbank readers`` and ``doctor``.

Each driver's :meth:`~reader.base.Reader.probe` delegates here, so a probe really talks to the device
and reports only what answered:

* ``pn532://PATH``: the HSU wake-up, SAMConfiguration and GetFirmwareVersion (UM0701-02 §7.2.2); ok
  with the chip's firmware version, e.g. ``PN532 firmware 1.6 (support 0x07) on /dev/ttyS0``;
* ``serial://PATH``: ``VER?`` until a ``HELLO`` comes (hardware/protocol.md); ok with
  ``bridge fw 2.0.0 protocol 2``; a v1 bridge is reported as not usable (it needs new firmware);
* ``pcsc://NAME``: pcscd's reader list; ok with the name of the first reader the URL selects.

A probe opens the port exclusively and closes it again; it never raises (the reason is the detail).
Times are seconds.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any, Protocol

from reader.base import ProbeResult


class PcscSelector(Protocol):
    """What :func:`probe_pcsc` asks of a PC/SC reader (reader/pcsc.py's ``PCSCReader``, which calls it: typed
    by what it reads, so the two modules make no circle)."""

    @property
    def selector(self) -> str: ...

    def matches(self, name: str) -> bool: ...


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def probe_pn532(path: str, baud: int, timeout_s: float) -> ProbeResult:
    """Wake the PN532 on ``path`` and ask its firmware version (at most about ``timeout_s`` s)."""
    from reader import pn532_frames as pf
    from reader import pn532_link as drv
    from reader.serialport import open_serial

    port: Any = None
    try:
        port = open_serial(path, baud, 0.01)
        link = drv.PN532Link(port)
        attempts = max(1, min(3, int(timeout_s / (drv.ACK_TIMEOUT_S * 2)) or 1))
        link.wake(attempts)
        answer = link.command(pf.encode_command(pf.CMD_GET_FIRMWARE_VERSION), pf.CMD_GET_FIRMWARE_VERSION, attempts)
        firmware = pf.parse_firmware_version(answer)
        if firmware.ic != 0x32:
            return ProbeResult(False, f"not a PN532 on {path}: the chip says {firmware}")
        return ProbeResult(True, f"{firmware} on {path}")
    except Exception as exc:  # pyserial errors, PN532Error, the link's loss, a malformed answer
        return ProbeResult(False, f"no PN532 answers on {path}: {_one_line(exc)}")
    finally:
        if port is not None:
            with contextlib.suppress(Exception):  # closing a vanished port fails; it is closed either way
                port.close()


def probe_bridge(path: str, baud: int, timeout_s: float) -> ProbeResult:
    """Ask the bridge on ``path`` for its ``HELLO`` (``VER?`` every 250 ms, for at most ``timeout_s`` s)."""
    from reader import bridge_handshake as hs
    from reader.protocol import FrameDecoder
    from reader.serialport import open_serial

    port: Any = None
    try:
        port = open_serial(path, baud, 0.02)
        decoder = FrameDecoder()
        legacy = hs.LegacyDetector()
        deadline = time.monotonic() + timeout_s
        next_ask = 0.0
        while time.monotonic() < deadline:
            if time.monotonic() >= next_ask:
                port.write(hs.version_query())
                next_ask = time.monotonic() + 0.25
            data = bytes(port.read(port.in_waiting or 1))
            for frame in decoder.feed(data):
                if frame.verb == "HELLO":
                    return ProbeResult(True, f"{hs.describe_hello(frame.args)} on {path}")
            if legacy.feed(data):
                return ProbeResult(False, f"{hs.LEGACY_REASON} ({path})")
        return ProbeResult(False, f"no bridge answers on {path}: no HELLO to VER? within {timeout_s:.1f} s")
    except Exception as exc:
        return ProbeResult(False, f"no bridge on {path}: {_one_line(exc)}")
    finally:
        if port is not None:
            with contextlib.suppress(Exception):
                port.close()


def probe_pcsc(reader: PcscSelector, timeout_s: float) -> ProbeResult:
    """The first reader pcscd lists that ``reader``'s URL selects (pcscd answers at once or not at all)."""
    try:
        from smartcard.System import readers

        names = sorted(str(r) for r in readers())
    except Exception as exc:  # no pyscard, no pcscd
        return ProbeResult(False, f"PC/SC is not answering: {_one_line(exc)}")
    chosen = [n for n in names if reader.matches(n)]
    if not chosen:
        listed = ", ".join(names) if names else "none"
        return ProbeResult(False, f"no PC/SC reader matches {reader.selector!r} (readers: {listed})")
    return ProbeResult(True, chosen[0])
