"""A simulated NXP PN532 on its HSU (UART) interface, following UM0701-02 closely enough that a driver
written from the manual alone works against it.

What it models (the manual's section in brackets):

* frames [6.2]: normal and extended information frames, ACK, NACK, the syntax-error frame, LCS/DCS;
  the codec is :mod:`reader.pn532_frames`, shared with the driver. A host frame with a bad checksum is
  dropped without an ACK (the host times out and repeats it).
* ACK semantics [6.2.1.3]: every well-formed command is acknowledged at once with an ACK frame; the
  response frame follows when the command has been processed. A host ACK aborts the command in
  progress (e.g. an InListPassiveTarget waiting for a card); a host NACK asks for the last response
  again.
* HSU power modes [6.3.2, AN10609 "LowVbat"]: the chip starts (and restarts after a replug) asleep and
  ignores every byte until it sees the wake-up byte 0x55; the bytes after it are decoded normally.
  Until a SAMConfiguration the chip is in LowVbat mode and its RF field is off: InListPassiveTarget
  then gets the syntax-error frame. PowerDown (0x16) puts it to sleep again.
* commands [7]: GetFirmwareVersion 0x02 (IC 0x32, version 1.6, support 0x07), SAMConfiguration 0x14,
  PowerDown 0x16, RFConfiguration 0x32 (item 0x05 MaxRetries; other items accepted and ignored),
  InListPassiveTarget 0x4A (106 kbps type A answers NbTg, Tg, SENS_RES, SEL_RES, NFCIDLength, NFCID1
  for 4-, 7- and 10-byte UIDs; other baud rates find nothing), InRelease 0x52; any other code gets the
  syntax-error frame.
* MaxRetries: with MxRtyPassiveActivation 0xFF (the power-on value) InListPassiveTarget waits until a
  card arrives or the host aborts it, as the real chip does; with any other value it answers at once
  (NbTg 0 when no card is in the field). A card in the field is found by every InListPassiveTarget
  (the field is reset between activations), so a driver senses removal when the target stops answering.

Faults (the :class:`~firmware_sim.device.SimDevice` set): ``garbage``, ``stall``, ``unplug``, ``replug``
(a power cycle: asleep again, defaults restored), ``dup`` (repeat the last response frame), ``badsum``
(the next response frame goes out with a wrong DCS).
"""

from __future__ import annotations

import threading

from firmware_sim.device import SimDevice
from reader import pn532_frames as pf
from reader.events import normalize_uid

FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])
"""GetFirmwareVersion payload: IC 0x32 (PN532), Ver 1, Rev 6, Support 0x07 (ISO 14443A, B, 18092)."""
WAKEUP_BYTE = 0x55
STATUS_OK = 0x00
STATUS_WRONG_CONTEXT = 0x27  # UM0701 table 7-1: command not acceptable in the current context
MAX_RETRIES_FOREVER = 0xFF


class PN532Device(SimDevice):
    """The PN532 chip simulator (see the module docstring). Counters: ``commands``, ``acks_in``,
    ``nacks_in``, ``ignored_asleep`` (bytes), ``wakeups``, ``syntax_errors``, ``aborted``,
    ``bad_frames_in``, ``responses``, ``badsums``, ``targets_found``, ``polls_empty``."""

    def __init__(self, link: str | None = None, *, seed: int | None = None) -> None:
        super().__init__(link, seed=seed)
        self._chip_lock = threading.RLock()
        self._decoder = pf.FrameDecoder()
        self._card: bytes | None = None
        self._power_on_reset()

    # -------------------------------------------------------------- state

    def _power_on_reset(self) -> None:
        with self._chip_lock:
            self.awake = False
            self.sam_configured = False
            self.max_retries_passive = MAX_RETRIES_FOREVER
            self.activated = False
            self._waiting_max_tg = 0  # an InListPassiveTarget waiting for a card (MaxTg), 0 = none
            self._last_response = b""
            self._badsum_next = False
            self._decoder.reset()

    def on_plugged(self) -> None:
        """Power on: asleep, LowVbat, defaults."""
        self._power_on_reset()

    def on_replug(self) -> None:
        """A replug is a power cycle."""
        self._power_on_reset()

    # -------------------------------------------------------------- the card in the field

    def tap(self, uid: str) -> None:
        """A card (``uid``: hex of 4, 7 or 10 bytes) enters the field and stays until :meth:`remove`."""
        card = bytes.fromhex(normalize_uid(uid))
        with self._chip_lock:
            if card != self._card:
                self.activated = False
            self._card = card
            if self._waiting_max_tg:
                self._waiting_max_tg = 0
                self._respond_targets()

    def remove(self) -> None:
        """The card leaves the field."""
        with self._chip_lock:
            self._card = None
            self.activated = False

    @property
    def card(self) -> str | None:
        """The UID of the card in the field (upper-case hex), or None."""
        with self._chip_lock:
            return self._card.hex().upper() if self._card is not None else None

    # -------------------------------------------------------------- faults

    def badsum(self) -> None:
        """The next response frame goes out with a wrong data checksum."""
        super().badsum()
        with self._chip_lock:
            self._badsum_next = True

    # -------------------------------------------------------------- host bytes

    def on_host_bytes(self, data: bytes) -> None:
        """Decode the host's frames (after a wake-up) and act on them."""
        with self._chip_lock:
            if not self.awake:
                at = data.find(bytes([WAKEUP_BYTE]))
                if at < 0:
                    self.counters["ignored_asleep"] += len(data)
                    return
                self.counters["ignored_asleep"] += at
                self.counters["wakeups"] += 1
                self.awake = True
                self._decoder.reset()
                data = data[at + 1 :]
            before = self._decoder.counters["bad_checksum"] + self._decoder.counters["bad_frame"]
            frames = self._decoder.feed(data)
            after = self._decoder.counters["bad_checksum"] + self._decoder.counters["bad_frame"]
            self.counters["bad_frames_in"] += after - before
            for frame in frames:
                if not self.awake:  # a PowerDown earlier in this chunk
                    break
                self._on_frame(frame)

    def _on_frame(self, frame: pf.Frame) -> None:
        if isinstance(frame, pf.Ack):
            self.counters["acks_in"] += 1
            if self._waiting_max_tg:
                self._waiting_max_tg = 0
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
        self._waiting_max_tg = 0  # a new command ends the previous one
        self.write(pf.ACK)
        self._execute(frame.command, frame.data[1:])

    # -------------------------------------------------------------- commands

    def _execute(self, command: int, params: bytes) -> None:
        if command == pf.CMD_GET_FIRMWARE_VERSION and not params:
            self._respond(command, FIRMWARE)
        elif command == pf.CMD_SAM_CONFIGURATION and 1 <= len(params) <= 3 and params[0] in (1, 2, 3, 4):
            self.sam_configured = True
            self._respond(command)
        elif command == pf.CMD_POWER_DOWN and 1 <= len(params) <= 2:
            self._respond(command, bytes([STATUS_OK]))
            self.awake = False
            self.sam_configured = False
        elif command == pf.CMD_RF_CONFIGURATION and params:
            if params[0] == pf.RF_CFG_MAX_RETRIES:
                if len(params) != 4:
                    self._syntax_error()
                    return
                self.max_retries_passive = params[3]
            self._respond(command)
        elif command == pf.CMD_IN_LIST_PASSIVE_TARGET and len(params) >= 2 and params[0] in (1, 2):
            if not self.sam_configured:
                self._syntax_error()  # LowVbat: the RF field is off until SAMConfiguration
                return
            if params[1] != pf.BRTY_106_TYPE_A:
                self._respond(command, b"\x00")  # no card of another type is ever in the field
                return
            if self._card is None and self.max_retries_passive == MAX_RETRIES_FOREVER:
                self._waiting_max_tg = params[0]  # the real chip retries until a card comes
                return
            self._respond_targets()
        elif command == pf.CMD_IN_RELEASE and len(params) == 1:
            if params[0] in (0, 1) and (self.activated or params[0] == 0):
                self.activated = False
                self._respond(command, bytes([STATUS_OK]))
            else:
                self._respond(command, bytes([STATUS_WRONG_CONTEXT]))
        else:
            self._syntax_error()

    def _respond_targets(self) -> None:
        if self._card is None:
            self.counters["polls_empty"] += 1
            self._respond(pf.CMD_IN_LIST_PASSIVE_TARGET, b"\x00")
            return
        self.activated = True
        self.counters["targets_found"] += 1
        self._respond(pf.CMD_IN_LIST_PASSIVE_TARGET, b"\x01" + pf.target_a_payload(1, self._card))

    def _respond(self, command: int, payload: bytes = b"") -> None:
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
