"""The PN532's command set (UM0701-02 §7), as a pure state machine: command and parameters in, answer out.

:class:`PN532Chip` knows nothing of frames, ACKs or the serial line (that is
:class:`firmware_sim.pn532.PN532Device`); :meth:`PN532Chip.execute` returns the response payload
(the bytes after ``D5 <code+1>``), :data:`SYNTAX_ERROR` for the syntax-error frame, or a
:class:`Pending` when the chip would keep searching for a card (InListPassiveTarget with
MxRtyPassiveActivation 0xFF, InAutoPoll). Times are seconds.

Commands and what is simulated (the manual's section in brackets):

* Diagnose 0x00 [7.2.1]: 0x00 communication line test (the parameters echoed, normal and extended
  frames), 0x01 ROM and 0x02 RAM test (status 0x00), 0x06 attention request (0x00 with an active
  target, 0x01 without), 0x07 antenna self test (0x00); other tests: syntax error;
* GetFirmwareVersion 0x02 (PN532 1.6, support 0x07), GetGeneralStatus 0x04, ReadRegister 0x06,
  WriteRegister 0x08 (:mod:`firmware_sim.pn532_ciu`), SetSerialBaudRate 0x10 (recorded: a pty has no
  baud rate), SetParameters 0x12 (recorded), SAMConfiguration 0x14, PowerDown 0x16, RFConfiguration
  0x32 (MaxRetries and the RF field are used; the other items are checked for length and stored);
* InDataExchange 0x40 and InCommunicateThru 0x42 to the card (:mod:`firmware_sim.pn532_card`):
  status 0x01 (timeout) when no card answers; InCommunicateThru adds and strips the CRC_A as
  TxCRCEn/RxCRCEn say, and reports a 4-bit ACK/NAK as a CRC error (0x02) when RxCRCEn is on;
* InDeselect 0x44, InListPassiveTarget 0x4A (106 kbps type A with or without InitiatorData; FeliCa
  212/424, type B 106 and Jewel find nothing), InRelease 0x52, InAutoPoll 0x60 (types 0x00, 0x10 and
  0x20 match a type A card; PollNr 0xFF polls until a card comes).

Anything else gets the syntax-error frame, as does a command with parameters of the wrong shape.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_sim.pn532_card import SimCard, crc_a
from firmware_sim.pn532_ciu import CIU_RX_MODE, CIU_TX_MODE, RegisterFile

FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])
"""GetFirmwareVersion payload: IC 0x32 (PN532), Ver 1, Rev 6, Support 0x07 (ISO 14443A, B, 18092)."""
MAX_RETRIES_FOREVER = 0xFF
STATUS_OK = 0x00
STATUS_TIMEOUT = 0x01
STATUS_CRC = 0x02
STATUS_WRONG_CONTEXT = 0x27  # table 7-1: command not acceptable in the current context
AUTOPOLL_PERIOD_S = 0.150  # InAutoPoll's Period unit
AUTOPOLL_TYPE_A = (0x00, 0x10)  # generic passive 106 kbps, MIFARE
AUTOPOLL_TYPE_4A = 0x20  # passive 106 kbps ISO/IEC 14443-4A
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)  # SetSerialBaudRate BR
RF_ITEM_LENGTHS = {0x01: 1, 0x02: 3, 0x04: 1, 0x05: 3, 0x0A: 11, 0x0B: 8, 0x0C: 3, 0x0D: 9}


class _SyntaxError:
    def __repr__(self) -> str:
        return "SYNTAX_ERROR"


SYNTAX_ERROR = _SyntaxError()


@dataclass
class Pending:
    """A search still going on: ``command`` (0x4A or 0x60) with its ``params``; ``deadline`` is the
    time.monotonic() second when InAutoPoll gives up (None: until a card comes or the host aborts)."""

    command: int
    params: bytes
    deadline: float | None = None


Answer = bytes | _SyntaxError | Pending


class PN532Chip:
    """The chip's state and commands; ``card`` is the card in the field (None: empty field)."""

    def __init__(self) -> None:
        self.registers = RegisterFile()
        self.card: SimCard | None = None
        self.power_on()

    def power_on(self) -> None:
        """The state after a power cycle: LowVbat, defaults everywhere."""
        self.registers.reset()
        self.sam_configured = False
        self.max_retries_passive = MAX_RETRIES_FOREVER
        self.rf_settings: dict[int, bytes] = {}
        self.rf_on = False
        self.parameters = 0x00
        self.baud = 115200
        self.activated = False

    def power_down(self) -> None:
        """PowerDown: the RF field goes off and targets are released; the SAM mode, registers, settings
        and baud rate are kept (the chip's RAM survives)."""
        self.rf_on = False
        self.activated = False

    # ------------------------------------------------------------------ dispatch

    def execute(self, command: int, p: bytes, now: float) -> Answer:
        """Run one command (``p``: its parameters); see the module docstring."""
        handler = _HANDLERS.get(command)
        if handler is None:
            return SYNTAX_ERROR
        return handler(self, p, now)

    def diagnose(self, p: bytes, now: float) -> Answer:
        if not p:
            return SYNTAX_ERROR
        if p[0] == 0x00:
            return bytes(p)
        if p[0] in (0x01, 0x02, 0x07) and len(p) == 1:
            return bytes([STATUS_OK])
        if p[0] == 0x06 and len(p) == 1:
            return bytes([STATUS_OK if self.activated and self.card is not None else STATUS_TIMEOUT])
        return SYNTAX_ERROR

    def firmware(self, p: bytes, now: float) -> Answer:
        return FIRMWARE if not p else SYNTAX_ERROR

    def general_status(self, p: bytes, now: float) -> Answer:
        if p:
            return SYNTAX_ERROR
        targets = b"\x01\x01\x00\x00\x00" if self.activated else b"\x00"  # NbTg [Tg BrRx BrTx Type]
        return bytes([0x00, 1 if self.rf_on else 0]) + targets + b"\x00"  # Err Field ... SAM status

    def read_register(self, p: bytes, now: float) -> Answer:
        if not p or len(p) % 2:
            return SYNTAX_ERROR
        return bytes(self.registers.read(p[i] << 8 | p[i + 1]) for i in range(0, len(p), 2))

    def write_register(self, p: bytes, now: float) -> Answer:
        if not p or len(p) % 3:
            return SYNTAX_ERROR
        for i in range(0, len(p), 3):
            self.registers.write(p[i] << 8 | p[i + 1], p[i + 2])
        return b""

    def set_serial_baud_rate(self, p: bytes, now: float) -> Answer:
        if len(p) != 1 or p[0] >= len(BAUD_RATES):
            return SYNTAX_ERROR
        self.baud = BAUD_RATES[p[0]]
        return b""

    def set_parameters(self, p: bytes, now: float) -> Answer:
        if len(p) != 1:
            return SYNTAX_ERROR
        self.parameters = p[0]
        return b""

    def sam_configuration(self, p: bytes, now: float) -> Answer:
        if not 1 <= len(p) <= 3 or p[0] not in (1, 2, 3, 4):
            return SYNTAX_ERROR
        self.sam_configured = True
        return b""

    def power_down_command(self, p: bytes, now: float) -> Answer:
        if not 1 <= len(p) <= 2:
            return SYNTAX_ERROR
        return bytes([STATUS_OK])  # the device puts the chip to sleep once this answer is out

    def rf_configuration(self, p: bytes, now: float) -> Answer:
        if not p or RF_ITEM_LENGTHS.get(p[0], len(p) - 1) != len(p) - 1:
            return SYNTAX_ERROR
        item = p[0]
        self.rf_settings[item] = bytes(p[1:])
        if item == 0x01:
            self.rf_on = bool(p[1] & 0x01)
        elif item == 0x05:
            self.max_retries_passive = p[3]
        return b""

    # ------------------------------------------------------------------ targets

    def in_list_passive_target(self, p: bytes, now: float) -> Answer:
        if len(p) < 2 or p[0] not in (1, 2) or p[1] > 4 or not self.sam_configured:
            return SYNTAX_ERROR  # before SAMConfiguration the chip is in LowVbat: no RF field
        brty, data = p[1], p[2:]
        if (brty in (1, 2) and len(data) != 5) or (brty == 3 and len(data) not in (1, 2)) or (brty == 4 and data):
            return SYNTAX_ERROR
        self.rf_on = True
        found = self._select(data) if brty == 0 else None
        if found is not None:
            return b"\x01" + found
        if brty == 0:
            self.registers.left_reqa()
        if self.max_retries_passive == MAX_RETRIES_FOREVER:
            return Pending(0x4A, bytes(p))
        return b"\x00"

    def _select(self, initiator_data: bytes) -> bytes | None:
        card = self.card
        if card is None or not card.matches(initiator_data):
            return None
        self.activated = True
        self.registers.activated_type_a()
        card.selected()
        return card.target

    def in_auto_poll(self, p: bytes, now: float) -> Answer:
        if len(p) < 3 or len(p) > 17 or p[0] == 0 or not 1 <= p[1] <= 0x0F or not self.sam_configured:
            return SYNTAX_ERROR
        found = self._auto_poll_match(p[2:])
        if found is not None:
            return found
        if p[0] == 0xFF:
            return Pending(0x60, bytes(p))
        return Pending(0x60, bytes(p), now + p[0] * len(p[2:]) * p[1] * AUTOPOLL_PERIOD_S)

    def _auto_poll_match(self, types: bytes) -> bytes | None:
        card = self.card
        if card is None:
            return None
        for kind in types:
            if kind in AUTOPOLL_TYPE_A or (kind == AUTOPOLL_TYPE_4A and card.sel_res & 0x20):
                target = self._select(b"")
                assert target is not None
                return bytes([0x01, kind, len(target)]) + target
        return None

    def complete(self, pending: Pending, now: float) -> bytes | None:
        """A card came (or the deadline passed): the answer that ends ``pending``, or None to go on."""
        if pending.command == 0x4A:
            found = self._select(pending.params[2:]) if pending.params[1] == 0 else None
            return b"\x01" + found if found is not None else None
        found = self._auto_poll_match(pending.params[2:])
        if found is not None:
            return found
        if pending.deadline is not None and now >= pending.deadline:
            return b"\x00"
        return None

    def in_release(self, p: bytes, now: float) -> Answer:
        return self._end_target(p)

    def in_deselect(self, p: bytes, now: float) -> Answer:
        return self._end_target(p)

    def _end_target(self, p: bytes) -> Answer:
        if len(p) != 1:
            return SYNTAX_ERROR
        if p[0] in (0, 1) and (self.activated or p[0] == 0):
            self.activated = False
            return bytes([STATUS_OK])
        return bytes([STATUS_WRONG_CONTEXT])

    def _active_card(self) -> SimCard | None:
        return self.card if self.activated else None

    def in_data_exchange(self, p: bytes, now: float) -> Answer:
        if not p:
            return SYNTAX_ERROR
        if p[0] & 0x3F != 1 or not self.activated:
            return bytes([STATUS_WRONG_CONTEXT])
        card = self._active_card()
        if card is not None and card.blocks is not None:  # MIFARE Classic: the chip's own Crypto1
            return card.classic(bytes(p[1:]))
        answer = card.answer(bytes(p[1:])) if card is not None else None
        if answer is None or len(answer) == 1:  # silence, or a 4-bit ACK/NAK the firmware reports as an error
            return bytes([STATUS_TIMEOUT if answer is None else STATUS_CRC])
        return bytes([STATUS_OK]) + answer

    def in_communicate_thru(self, p: bytes, now: float) -> Answer:
        if not p:
            return SYNTAX_ERROR
        card = self._active_card() if self.rf_on else None
        data = bytes(p)
        if not self.registers.crc(CIU_TX_MODE):  # the host sent the CRC_A itself
            if len(data) < 3 or crc_a(data[:-2]) != data[-2:]:
                return bytes([STATUS_TIMEOUT])  # a card ignores a frame with a wrong CRC
            data = data[:-2]
        answer = card.answer(data) if card is not None else None
        if answer is None:
            return bytes([STATUS_TIMEOUT])
        if len(answer) == 1:  # a 4-bit ACK/NAK carries no CRC
            return bytes([STATUS_CRC if self.registers.crc(CIU_RX_MODE) else STATUS_OK]) + answer
        if not self.registers.crc(CIU_RX_MODE):
            answer += crc_a(answer)  # the chip passes the card's CRC_A on instead of checking it
        return bytes([STATUS_OK]) + answer


_HANDLERS = {
    0x00: PN532Chip.diagnose,
    0x02: PN532Chip.firmware,
    0x04: PN532Chip.general_status,
    0x06: PN532Chip.read_register,
    0x08: PN532Chip.write_register,
    0x10: PN532Chip.set_serial_baud_rate,
    0x12: PN532Chip.set_parameters,
    0x14: PN532Chip.sam_configuration,
    0x16: PN532Chip.power_down_command,
    0x32: PN532Chip.rf_configuration,
    0x40: PN532Chip.in_data_exchange,
    0x42: PN532Chip.in_communicate_thru,
    0x44: PN532Chip.in_deselect,
    0x4A: PN532Chip.in_list_passive_target,
    0x52: PN532Chip.in_release,
    0x60: PN532Chip.in_auto_poll,
}
