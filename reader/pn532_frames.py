"""The PN532 frame codec (NXP UM0701-02 §6.2): pure, shared by the driver and the chip simulator.

Frames on the wire (all bytes; ``LCS`` and ``DCS`` are two's-complement checksums):

* normal information frame: ``00 00 FF LEN LCS TFI PD0..PDn DCS 00`` where ``LEN`` counts ``TFI`` and
  the ``PD`` bytes (1..255), ``LEN + LCS == 0`` and ``TFI + PD0 + .. + PDn + DCS == 0`` (mod 256);
* extended information frame: ``00 00 FF FF FF LENM LENL LCS TFI PD.. DCS 00`` with
  ``LENM + LENL + LCS == 0``;
* ACK ``00 00 FF 00 FF 00`` and NACK ``00 00 FF FF 00 00``;
* the application-level error frame (syntax error) ``00 00 FF 01 FF 7F 81 00``.

``TFI`` is ``D4`` from host to PN532 and ``D5`` back; a response's first data byte is the command
code plus one. :class:`FrameDecoder` is incremental and never raises on bad input: garbage bytes and
frames with a bad checksum are counted in :attr:`FrameDecoder.counters` and dropped, and the decoder
resynchronises on the next start code. Everything here is bytes in, values out: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass

PREAMBLE = b"\x00"
START_CODE = b"\x00\xff"
POSTAMBLE = b"\x00"
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
HSU_WAKEUP = b"\x55\x55" + bytes(14)
"""The HSU wake-up: 0x55 then a long preamble of zeros that leaves the chip time to wake (UM0701 §7.2.11)."""

TFI_HOST = 0xD4
TFI_CHIP = 0xD5
ERROR_TFI = 0x7F

MAX_DATA = 265
"""Largest ``TFI + PD`` length accepted (bytes); the PN532 handles at most 265 bytes in one frame."""

# command codes (UM0701 §7)
CMD_GET_FIRMWARE_VERSION = 0x02
CMD_SAM_CONFIGURATION = 0x14
CMD_POWER_DOWN = 0x16
CMD_RF_CONFIGURATION = 0x32
CMD_IN_LIST_PASSIVE_TARGET = 0x4A
CMD_IN_RELEASE = 0x52

SAM_NORMAL_MODE = 0x01
RF_CFG_MAX_RETRIES = 0x05
BRTY_106_TYPE_A = 0x00


class PN532FrameError(ValueError):
    """A value that cannot be encoded, or a response that does not have the expected shape."""


@dataclass(frozen=True, slots=True)
class Ack:
    """The PN532 (or the host) acknowledged the previous frame."""


@dataclass(frozen=True, slots=True)
class Nack:
    """A request to send the previous frame again."""


@dataclass(frozen=True, slots=True)
class ErrorFrame:
    """The application-level error frame: the PN532 found a syntax error in the command."""


@dataclass(frozen=True, slots=True)
class InfoFrame:
    """An information frame: ``tfi`` (``D4`` host to chip, ``D5`` back) and the packet data ``data``."""

    tfi: int
    data: bytes

    @property
    def command(self) -> int:
        """The command (or response) code: the first data byte, -1 for an empty frame."""
        return self.data[0] if self.data else -1


Frame = Ack | Nack | ErrorFrame | InfoFrame


def _checksum(values: bytes) -> int:
    """The byte that makes ``sum(values) + checksum`` a multiple of 256."""
    return (-sum(values)) & 0xFF


def encode_frame(tfi: int, data: bytes) -> bytes:
    """Encode an information frame; extended format when ``1 + len(data)`` exceeds 255 bytes."""
    if tfi not in (TFI_HOST, TFI_CHIP):
        raise PN532FrameError(f"TFI must be 0xD4 or 0xD5, got {tfi:#04x}")
    length = 1 + len(data)
    if length > MAX_DATA:
        raise PN532FrameError(f"a PN532 frame carries at most {MAX_DATA - 1} data bytes, got {len(data)}")
    body = bytes([tfi]) + bytes(data)
    dcs = _checksum(body)
    if length <= 0xFF:
        header = bytes([length, _checksum(bytes([length]))])
    else:
        lenm, lenl = length >> 8, length & 0xFF
        header = b"\xff\xff" + bytes([lenm, lenl, _checksum(bytes([lenm, lenl]))])
    return PREAMBLE + START_CODE + header + body + bytes([dcs]) + POSTAMBLE


def encode_command(command: int, params: bytes = b"") -> bytes:
    """A host-to-chip command frame (TFI ``D4``)."""
    return encode_frame(TFI_HOST, bytes([command]) + bytes(params))


def encode_response(command: int, payload: bytes = b"") -> bytes:
    """The chip's response frame to ``command`` (TFI ``D5``, code ``command + 1``)."""
    return encode_frame(TFI_CHIP, bytes([(command + 1) & 0xFF]) + bytes(payload))


class FrameDecoder:
    """Incremental decoder: :meth:`feed` bytes as they arrive, get the complete frames back.

    ``counters``: ``frames`` decoded, ``garbage`` bytes dropped (zero padding is not counted),
    ``bad_checksum`` frames dropped for a bad LCS or DCS, ``bad_frame`` frames dropped for another
    reason (oversized length, unknown TFI, missing TFI).
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.counters: dict[str, int] = {"frames": 0, "garbage": 0, "bad_checksum": 0, "bad_frame": 0}

    @property
    def pending(self) -> int:
        """Bytes held while waiting for the rest of a frame."""
        return len(self._buf)

    def reset(self) -> None:
        """Forget every byte held (after a reconnect)."""
        self._buf.clear()

    def abandon_partial(self) -> list[Frame]:
        """Give up on a frame that stays incomplete (e.g. a false start code inside garbage).

        Drops the held start code and rescans the rest; returns any frames found behind it.
        """
        if not self._buf:
            return []
        self._drop(1)
        return self.feed(b"")

    def feed(self, data: bytes) -> list[Frame]:
        """Add ``data`` and return every frame completed by it, in order. Never raises."""
        self._buf += data
        frames: list[Frame] = []
        while True:
            frame, progress = self._parse_one()
            if frame is not None:
                frames.append(frame)
                self.counters["frames"] += 1
            if not progress:
                return frames

    def _drop(self, n: int) -> None:
        dropped = self._buf[:n]
        self.counters["garbage"] += sum(1 for b in dropped if b != 0)
        del self._buf[:n]

    def _parse_one(self) -> tuple[Frame | None, bool]:
        """Try to take one frame off the buffer: (frame or None, whether the buffer changed)."""
        buf = self._buf
        start = buf.find(START_CODE)
        if start < 0:
            # keep a trailing 0x00: it may be the first half of a start code
            keep = 1 if buf.endswith(b"\x00") else 0
            if len(buf) > keep:
                self._drop(len(buf) - keep)
            return None, False
        if start:
            self._drop(start)
            return None, True
        if len(buf) < 4:
            return None, False
        a, b = buf[2], buf[3]
        if (a, b) == (0x00, 0xFF):
            self._take(4)
            return Ack(), True
        if (a, b) == (0xFF, 0x00):
            self._take(4)
            return Nack(), True
        if (a, b) == (0xFF, 0xFF):
            if len(buf) < 7:
                return None, False
            lenm, lenl, lcs = buf[4], buf[5], buf[6]
            if (lenm + lenl + lcs) & 0xFF:
                return self._reject("bad_checksum")
            length, header = (lenm << 8) | lenl, 7
        else:
            if (a + b) & 0xFF:
                return self._reject("bad_checksum")
            length, header = a, 4
        if length < 1 or length > MAX_DATA:
            return self._reject("bad_frame")
        end = header + length + 1  # the DCS byte included
        if len(buf) < end:
            return None, False
        body = bytes(buf[header : end - 1])
        if (sum(body) + buf[end - 1]) & 0xFF:
            return self._reject("bad_checksum")
        tfi = body[0]
        if length == 1 and tfi == ERROR_TFI:
            self._take(end)
            return ErrorFrame(), True
        if tfi not in (TFI_HOST, TFI_CHIP):
            return self._reject("bad_frame")
        self._take(end)
        return InfoFrame(tfi, body[1:]), True

    def _take(self, n: int) -> None:
        """Remove a decoded frame of ``n`` bytes and its postamble, when that has arrived."""
        if len(self._buf) > n and self._buf[n] == 0:
            n += 1
        del self._buf[:n]

    def _reject(self, counter: str) -> tuple[None, bool]:
        """Count a broken frame and skip past its start code so the scan resumes behind it."""
        self.counters[counter] += 1
        del self._buf[:2]
        return None, True


# ---- commands and responses of the subset boardbank uses -------------------------------------


@dataclass(frozen=True, slots=True)
class FirmwareVersion:
    """GetFirmwareVersion's answer: ``ic`` (0x32 for a PN532), ``ver``, ``rev``, ``support`` bit field."""

    ic: int
    ver: int
    rev: int
    support: int

    def __str__(self) -> str:
        return f"PN5{self.ic:02X} firmware {self.ver}.{self.rev} (support {self.support:#04x})"


@dataclass(frozen=True, slots=True)
class TargetA:
    """One ISO 14443 type A target found by InListPassiveTarget at 106 kbps."""

    tg: int
    sens_res: bytes
    sel_res: int
    uid: bytes

    @property
    def uid_hex(self) -> str:
        """The UID as upper-case hex without separators (the form of :mod:`reader.events`)."""
        return self.uid.hex().upper()


def sam_configuration(mode: int = SAM_NORMAL_MODE, timeout: int = 0x14, irq: bool = True) -> bytes:
    """SAMConfiguration command frame; ``timeout`` is in units of 50 ms (virtual card mode only)."""
    return encode_command(CMD_SAM_CONFIGURATION, bytes([mode, timeout, 1 if irq else 0]))


def rf_max_retries(atr: int = 0xFF, psl: int = 0x01, passive_activation: int = 0xFF) -> bytes:
    """RFConfiguration item 5 (MaxRetries): retries of ATR_REQ, PSL_REQ and passive activation.

    ``0xFF`` means retry forever; ``0`` one try only. The power-on values are ``FF 01 FF``.
    """
    for name, value in (("atr", atr), ("psl", psl), ("passive_activation", passive_activation)):
        if not 0 <= value <= 0xFF:
            raise PN532FrameError(f"MaxRetries {name} must be a byte 0..255, got {value!r}")
    return encode_command(CMD_RF_CONFIGURATION, bytes([RF_CFG_MAX_RETRIES, atr, psl, passive_activation]))


def in_list_passive_target(max_tg: int = 1, brty: int = BRTY_106_TYPE_A) -> bytes:
    """InListPassiveTarget command frame for ``max_tg`` (1 or 2) targets of baud rate/type ``brty``."""
    if max_tg not in (1, 2):
        raise PN532FrameError(f"InListPassiveTarget MaxTg must be 1 or 2, got {max_tg!r}")
    return encode_command(CMD_IN_LIST_PASSIVE_TARGET, bytes([max_tg, brty]))


def in_release(tg: int = 0) -> bytes:
    """InRelease command frame; ``tg`` 0 releases every target."""
    return encode_command(CMD_IN_RELEASE, bytes([tg]))


def _expect(frame: InfoFrame, command: int, min_len: int) -> bytes:
    if frame.tfi != TFI_CHIP or frame.command != command + 1:
        raise PN532FrameError(
            f"expected the response to command {command:#04x} (D5 {command + 1:02X}), "
            f"got TFI {frame.tfi:#04x} data {frame.data.hex(' ')}"
        )
    if len(frame.data) < min_len:
        raise PN532FrameError(f"response {frame.data.hex(' ')} is shorter than {min_len} bytes")
    return frame.data[1:]


def parse_firmware_version(frame: InfoFrame) -> FirmwareVersion:
    """Decode ``D5 03 IC Ver Rev Support``."""
    p = _expect(frame, CMD_GET_FIRMWARE_VERSION, 5)
    return FirmwareVersion(p[0], p[1], p[2], p[3])


def parse_in_list_passive_target(frame: InfoFrame) -> list[TargetA]:
    """Decode ``D5 4B NbTg [Tg SENS_RES(2) SEL_RES NFCIDLength NFCID1 [ATSLength ATS]]...``.

    ATS bytes are present only for ISO 14443-4 cards (SEL_RES bit 6 set); they are skipped.
    """
    p = _expect(frame, CMD_IN_LIST_PASSIVE_TARGET, 2)
    count, pos, targets = p[0], 1, []
    if count > 2:
        raise PN532FrameError(f"InListPassiveTarget reports {count} targets; at most 2 exist: {p.hex(' ')}")
    for _ in range(count):
        if pos + 5 > len(p):
            raise PN532FrameError(f"truncated target data in {p.hex(' ')}")
        tg, sens_res, sel_res, uid_len = p[pos], bytes(p[pos + 1 : pos + 3]), p[pos + 3], p[pos + 4]
        pos += 5
        if uid_len not in (4, 7, 10) or pos + uid_len > len(p):
            raise PN532FrameError(f"NFCIDLength {uid_len} does not fit the response {p.hex(' ')}")
        uid = bytes(p[pos : pos + uid_len])
        pos += uid_len
        if sel_res & 0x20 and pos < len(p):  # ISO 14443-4 compliant: an ATS follows
            pos += p[pos]
        targets.append(TargetA(tg, sens_res, sel_res, uid))
    return targets


def target_a_payload(tg: int, uid: bytes, sens_res: bytes | None = None, sel_res: int | None = None) -> bytes:
    """One target's data as InListPassiveTarget reports it (for the simulator and the tests).

    Defaults: a MIFARE Classic 1K for a 4-byte UID (SENS_RES ``00 04``, SEL_RES ``08``), an NTAG /
    Ultralight for 7 bytes (``00 44``, ``00``), a 10-byte UID with SENS_RES ``00 84``.
    """
    if len(uid) not in (4, 7, 10):
        raise PN532FrameError(f"a type A UID has 4, 7 or 10 bytes, got {len(uid)}: {uid.hex()}")
    default_sens = {4: b"\x00\x04", 7: b"\x00\x44", 10: b"\x00\x84"}[len(uid)]
    default_sel = 0x08 if len(uid) == 4 else 0x00
    sens = default_sens if sens_res is None else sens_res
    sel = default_sel if sel_res is None else sel_res
    return bytes([tg]) + sens + bytes([sel, len(uid)]) + uid
