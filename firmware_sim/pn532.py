"""A simulated NXP PN532 on its HSU (UART) interface, following UM0701-02 closely enough that drivers
written from the manual (ours, libnfc's ``pn532_uart``, nfcpy's ``tty:...:pn532``, Adafruit's
CircuitPython driver) cannot tell it from the chip for what they do with it.

This module is the serial side (the manual's section in brackets); the commands are
:mod:`firmware_sim.pn532_chip`, the registers :mod:`firmware_sim.pn532_ciu`, the card
:mod:`firmware_sim.pn532_card`. ``firmware_sim/README.md`` lists what is simulated and where it differs.

* frames [6.2]: normal and extended information frames, ACK, NACK, the syntax-error frame, LCS/DCS;
  the codec is :mod:`reader.pn532_frames`, shared with the driver. A host frame with a bad checksum is
  dropped without an ACK (the host times out and repeats it). Answers longer than 254 bytes go out as
  extended frames.
* ACK semantics [6.2.1.3]: every well-formed command is acknowledged at once with an ACK frame; the
  response frame follows when the command has been processed. A host ACK aborts the command in
  progress (an InListPassiveTarget or InAutoPoll waiting for a card); a host NACK asks for the last
  response again.
* HSU power modes [6.3.2, 7.2.11]: the chip starts (and restarts after a replug) asleep; any byte from
  the host wakes it, and that byte is lost (which is why hosts send 0x55 or a long preamble of 0x00
  first); the bytes after it are decoded. Until a SAMConfiguration the chip is in LowVbat mode and its
  RF field is off: InListPassiveTarget and InAutoPoll get the syntax-error frame. PowerDown (0x16) puts
  it to sleep again after its answer, keeping its configuration.
* searches: with MxRtyPassiveActivation 0xFF (the power-on value) InListPassiveTarget waits until a
  matching card arrives or the host aborts it, as the real chip does; InAutoPoll waits PollNr x
  types x Period x 150 ms (or forever with PollNr 0xFF). A card in the field is found by every
  InListPassiveTarget (the field is reset between activations), so a driver senses removal when the
  target stops answering.

Faults (the :class:`~firmware_sim.device.SimDevice` set): ``garbage``, ``stall``, ``unplug``, ``replug``
(a power cycle: asleep again, defaults restored), ``dup`` (repeat the last response frame), ``badsum``
(the next response frame goes out with a wrong DCS), and ``mangle`` (the next target's UID damaged
with the checksums intact).
"""

from __future__ import annotations

import threading
import time

from firmware_sim.device import SimDevice
from firmware_sim.mfrc522_cards import ClassicCard, NtagCard
from firmware_sim.pn532_card import SimCard
from firmware_sim.pn532_chip import FIRMWARE, MAX_RETRIES_FOREVER, SYNTAX_ERROR, Pending, PN532Chip
from firmware_sim.sim_cards import TapSpec, make_card
from reader import pn532_frames as pf
from reader.events import normalize_uid

__all__ = ["FIRMWARE", "MAX_RETRIES_FOREVER", "PN532Device"]

CMD_POWER_DOWN = 0x16


class PN532Device(SimDevice):
    """The PN532 chip simulator (see the module docstring). Counters: ``commands``, ``acks_in``,
    ``nacks_in``, ``ignored_asleep`` (bytes), ``wakeups``, ``syntax_errors``, ``aborted``,
    ``bad_frames_in``, ``responses``, ``badsums``, ``targets_found``, ``polls_empty``, ``cmd_XX`` (per command code)."""

    def __init__(self, link: str | None = None, *, seed: int | None = None) -> None:
        super().__init__(link, seed=seed)
        self._chip_lock = threading.RLock()
        self._decoder = pf.FrameDecoder()
        self.chip = PN532Chip()
        self._power_on_reset()

    # -------------------------------------------------------------- state

    def _power_on_reset(self) -> None:
        with self._chip_lock:
            self.awake = False
            self.chip.power_on()
            self._pending: Pending | None = None
            self._last_response = b""
            self._badsum_next = False
            self._mangle_next = False
            self._decoder.reset()

    @property
    def sam_configured(self) -> bool:
        """True after SAMConfiguration (out of LowVbat), until a power cycle."""
        return self.chip.sam_configured

    @property
    def activated(self) -> bool:
        """True while a target is activated (found and not released)."""
        return self.chip.activated

    @property
    def max_retries_passive(self) -> int:
        """RFConfiguration MaxRetries' MxRtyPassiveActivation (0xFF: search until a card comes)."""
        return self.chip.max_retries_passive

    def on_plugged(self) -> None:
        """Power on: asleep, LowVbat, defaults."""
        self._power_on_reset()

    def on_replug(self) -> None:
        """A replug is a power cycle."""
        self._power_on_reset()

    # -------------------------------------------------------------- the card in the field

    def tap(self, uid: str) -> None:
        """A card (``uid``: hex of 4, 7 or 10 bytes) enters the field and stays until :meth:`remove`; the
        same card comes back with what was written in its memory (a sticker keeps its data)."""
        card = bytes.fromhex(normalize_uid(uid))
        with self._chip_lock:
            if self.chip.card is None or card != self.chip.card.uid:
                self.chip.activated = False
                known: dict[bytes, SimCard] = self.__dict__.setdefault("_stickers", {})
                self.chip.card = known.setdefault(card, SimCard(card))
            self._finish_pending(time.monotonic())

    def present(self, spec: TapSpec) -> None:
        """A ``tap`` line's card (:mod:`firmware_sim.sim_cards`): with a kind, the card's memory is made as
        told (an NTAG213's pages, a MIFARE Classic's blocks) and kept by UID like any card's."""
        if spec.kind is not None:
            if spec.kind not in ("ntag213", "classic"):
                raise ValueError(f"the PN532 simulator's cards are ntag213 or classic, got {spec.kind}")
            card = SimCard(bytes.fromhex(spec.uid))
            made = make_card(spec)
            if isinstance(made, NtagCard):
                card.memory[:] = b"".join(bytes(p) for p in made.pages)
            elif isinstance(made, ClassicCard) and card.blocks is not None:
                card.blocks.blocks[:] = made.memory.blocks
            with self._chip_lock:
                self.__dict__.setdefault("_stickers", {})[card.uid] = card
                if self.chip.card is not None and self.chip.card.uid == card.uid:
                    self.chip.card = None  # the card is put down again, with its new memory
        self.tap(spec.uid)

    def remove(self) -> None:
        """The card leaves the field."""
        with self._chip_lock:
            self.chip.card = None  # an activated target stays listed: it just stops answering (timeout)

    @property
    def card(self) -> str | None:
        """The UID of the card in the field (upper-case hex), or None."""
        with self._chip_lock:
            card = self.chip.card
            return card.uid.hex().upper() if card is not None else None

    def on_tick(self, now: float) -> None:
        """An InAutoPoll whose polls ran out answers NbTg 0."""
        with self._chip_lock:
            if self._pending is not None and self._pending.deadline is not None:
                self._finish_pending(now)

    def _finish_pending(self, now: float) -> None:
        pending = self._pending
        if pending is None:
            return
        answer = self.chip.complete(pending, now)
        if answer is not None:
            self._pending = None
            self._respond(pending.command, answer)

    # -------------------------------------------------------------- faults

    def mangle(self) -> None:
        """The next answer naming a target has its UID damaged so that the checksums still hold (one
        UID byte up by one, the next down by one): what an 8-bit sum cannot catch."""
        with self._chip_lock:
            self._mangle_next = True

    def badsum(self) -> None:
        """The next response frame goes out with a wrong data checksum."""
        super().badsum()
        with self._chip_lock:
            self._badsum_next = True

    # -------------------------------------------------------------- host bytes

    def on_host_bytes(self, data: bytes) -> None:
        """Wake on any byte (losing it), then decode the host's frames and act on them."""
        with self._chip_lock:
            if not self.awake:
                if not data:
                    return
                self.counters["ignored_asleep"] += 1
                self.counters["wakeups"] += 1
                self.awake = True
                self._decoder.reset()
                data = data[1:]
            before = self._decoder.counters["bad_checksum"] + self._decoder.counters["bad_frame"]
            frames = self._decoder.feed(data)
            after = self._decoder.counters["bad_checksum"] + self._decoder.counters["bad_frame"]
            self.counters["bad_frames_in"] += after - before
            for frame in frames:
                if not self.awake:  # a PowerDown earlier in this chunk: the rest is lost
                    break
                self._on_frame(frame)

    def _on_frame(self, frame: pf.Frame) -> None:
        if isinstance(frame, pf.Ack):
            self.counters["acks_in"] += 1
            if self._pending is not None:
                self._pending = None
                self.counters["aborted"] += 1
            return
        if isinstance(frame, pf.Nack):
            self.counters["nacks_in"] += 1
            if self._last_response:
                self.write(self._last_response)
            return
        if not isinstance(frame, pf.InfoFrame) or frame.tfi != pf.TFI_HOST or not frame.data:
            return  # not a command: a chip ignores it
        self.counters["commands"] += 1
        self.counters[f"cmd_{frame.command:02X}"] += 1
        self._pending = None  # a new command ends the previous one
        self.write(pf.ACK)
        answer = self.chip.execute(frame.command, frame.data[1:], time.monotonic())
        if answer is SYNTAX_ERROR:
            self._syntax_error()
        elif isinstance(answer, Pending):
            self._pending = answer
        else:
            assert isinstance(answer, bytes)
            self._respond(frame.command, answer)
            if frame.command == CMD_POWER_DOWN:
                self.chip.power_down()
                self.awake = False

    # -------------------------------------------------------------- answers

    def _respond(self, command: int, payload: bytes = b"") -> None:
        if command in (pf.CMD_IN_LIST_PASSIVE_TARGET, 0x60):
            self.counters["targets_found" if payload[:1] != b"\x00" else "polls_empty"] += 1
        if self._mangle_next and command in (pf.CMD_IN_LIST_PASSIVE_TARGET, 0x60) and payload[:1] == b"\x01":
            self._mangle_next = False
            self.counters["mangled"] += 1
            damaged = bytearray(payload)
            damaged[-2] = (damaged[-2] + 1) & 0xFF  # the last two UID bytes: the sum stays the same
            damaged[-1] = (damaged[-1] - 1) & 0xFF
            payload = bytes(damaged)
        frame = pf.encode_response(command, payload)
        self._last_response = frame
        self.counters["responses"] += 1
        if self._badsum_next:
            self._badsum_next = False
            self.counters["badsums"] += 1
            broken = bytearray(frame)
            broken[-2] ^= 0xFF  # the DCS
            self.write(bytes(broken))
            return
        self.write(frame)

    def _syntax_error(self) -> None:
        self.counters["syntax_errors"] += 1
        self._last_response = pf.ERROR_FRAME
        self.write(pf.ERROR_FRAME)
