"""Command/response exchanges with a PN532 over an open serial port (UM0701-02 §6.2.1): the link layer of
``pn532://`` (:mod:`reader.pn532`), also used by its probe (:mod:`reader.probes`).

Every command waits for the chip's ACK (:data:`ACK_TIMEOUT_S`) and then its response; a command
without an ACK is sent again, a response lost to a bad checksum is asked for again with a NACK, a
response that does not come is aborted with an ACK. Times are seconds.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from reader import pn532_frames as pf
from reader.base import ReaderError

ACK_TIMEOUT_S = 0.060
"""Seconds to wait for the ACK of a command (the chip sends it within about 1 ms at 115200 baud)."""
RESPONSE_TIMEOUT_S = 0.250
"""Seconds to wait for a response after its ACK (InListPassiveTarget with MaxRetries 1: a few ms)."""
SILENCE_S = 0.500
"""Seconds without one valid frame from the chip after which it counts as lost."""


class PN532Error(ReaderError):
    """The PN532 did not answer as the manual says (no ACK, wrong response, not a PN532)."""


class LinkLost(Exception):
    """Internal: the device vanished or went silent; ``reason`` says which."""


class PN532Link:
    """Command/response exchanges with a PN532 over an open pyserial port (single-threaded use)."""

    def __init__(self, port: Any, clock: Any = time.monotonic) -> None:
        self.port = port
        self.clock = clock
        self.decoder = pf.FrameDecoder()
        self.last_heard = clock()
        self._queue: deque[pf.Frame] = deque()
        self.counters: dict[str, int] = {"ack_timeouts": 0, "response_timeouts": 0, "nacks_sent": 0, "stale_frames": 0}

    def _write(self, data: bytes) -> None:
        try:
            self.port.write(data)
        except Exception as exc:  # SerialException, OSError: the device vanished
            raise LinkLost(f"write failed: {exc}") from exc

    def _read_frames(self) -> list[pf.Frame]:
        try:
            waiting = self.port.in_waiting
            data = self.port.read(waiting or 1)
        except Exception as exc:
            raise LinkLost(f"read failed: {exc}") from exc
        frames = self.decoder.feed(data) if data else []
        if frames:
            self.last_heard = self.clock()
        elif self.clock() - self.last_heard > SILENCE_S:
            raise LinkLost(f"silent for {SILENCE_S:.1f} s")
        return frames

    def _wait(self, want: type[pf.Frame] | int, timeout: float, bad_limit: int | None = None) -> pf.Frame | None:
        """The next ACK (``want`` = Ack) or response to command ``want``; None on timeout, or as soon as
        the decoder's bad-checksum count exceeds ``bad_limit`` (a damaged frame: ask again at once).

        Frames that arrive together stay queued for the next wait (the ACK and the response often
        come in one read); frames that are not wanted now are stale (a duplicate, a late answer).
        """
        deadline = self.clock() + timeout
        while True:
            while self._queue:
                frame = self._queue.popleft()
                if isinstance(want, int):
                    if isinstance(frame, pf.ErrorFrame):
                        return frame
                    if isinstance(frame, pf.InfoFrame) and frame.tfi == pf.TFI_CHIP and frame.command == want + 1:
                        return frame
                elif isinstance(frame, want):
                    return frame
                self.counters["stale_frames"] += 1
            if self.clock() >= deadline:
                break
            if bad_limit is not None and self.decoder.counters["bad_checksum"] > bad_limit:
                return None
            self._queue.extend(self._read_frames())
        if self.decoder.pending:  # a false start code may hold a real frame back: give up on it
            self._queue.extend(self.decoder.abandon_partial())
        return None

    def command(self, frame: bytes, command: int, attempts: int = 3) -> pf.InfoFrame:
        """Send a command frame; return the chip's response frame. Raises PN532Error or LinkLost."""
        for _ in range(attempts):
            bad_before = self.decoder.counters["bad_checksum"]  # the ACK and the response may come in one read
            self._write(frame)
            if self._wait(pf.Ack, ACK_TIMEOUT_S) is None:
                self.counters["ack_timeouts"] += 1
                continue
            response = self._wait(command, RESPONSE_TIMEOUT_S, bad_limit=bad_before)
            if response is None and self.decoder.counters["bad_checksum"] > bad_before:
                self.counters["nacks_sent"] += 1
                self._write(pf.NACK)  # "send that again": the response was damaged on the way
                response = self._wait(command, RESPONSE_TIMEOUT_S)
            if response is None:
                self.counters["response_timeouts"] += 1
                self._write(pf.ACK)  # abort whatever the chip still works on
                continue
            if isinstance(response, pf.ErrorFrame):
                raise PN532Error(f"the PN532 reports a syntax error for command {command:#04x}: {frame.hex(' ')}")
            assert isinstance(response, pf.InfoFrame)
            return response
        raise PN532Error(f"no answer to command {command:#04x} after {attempts} attempts")

    def wake(self, attempts: int = 3) -> None:
        """HSU wake-up immediately followed by SAMConfiguration (normal mode), tried ``attempts`` times."""
        self._write(pf.HSU_WAKEUP)
        self.command(pf.sam_configuration(), pf.CMD_SAM_CONFIGURATION, attempts)
