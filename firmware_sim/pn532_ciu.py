"""The PN532's register file as ReadRegister (0x06) and WriteRegister (0x08) see it (UM0701-02 §7.2.4-5).

The contactless interface unit (CIU) of the PN532 is mapped at XRAM addresses 0x6301-0x633F; the
values after a power-on reset are those the manual's CIU register table gives (they are the
PN512's). Other addresses (the 80C51's SFRs at 0xFFxx, the rest of the XRAM) read as written, 0x00
before. What is modelled beyond storage:

* ``CIU_FIFOData`` (0x6339) is a 64-byte FIFO: writes append, reads take the oldest byte (0x00 when
  empty); ``CIU_FIFOLevel`` (0x633A) reads the fill level, and writing its bit 7 (FlushBuffer) empties it;
* after InListPassiveTarget at 106 kbps type A finds nothing, the FIFO still holds the REQA byte 0x26
  that the chip sent (drivers read it to tell "no answer" from "answered, but not selectable");
* activating a type A target sets TxCRCEn/RxCRCEn (bit 7 of ``CIU_TxMode``/``CIU_RxMode``), as the
  firmware does, and those bits decide whether InCommunicateThru adds and strips the CRC_A.

Not modelled: every other side effect (commands written to ``CIU_Command`` are stored, not run;
timers, IRQ bits and the analogue settings do nothing). Addresses are 16-bit, values bytes.
"""

from __future__ import annotations

from collections import deque

CIU_TX_MODE = 0x6302
CIU_RX_MODE = 0x6303
CIU_TX_CONTROL = 0x6304
CIU_FIFO_DATA = 0x6339
CIU_FIFO_LEVEL = 0x633A
CRC_ENABLE = 0x80  # TxCRCEn / RxCRCEn
FIFO_SIZE = 64  # bytes

# power-on values of the CIU registers (UM0701-02 §8.6, the CIU register map)
CIU_RESET: dict[int, int] = {
    0x6301: 0x3B,  # CIU_Mode
    0x6302: 0x00,  # CIU_TxMode
    0x6303: 0x00,  # CIU_RxMode
    0x6304: 0x80,  # CIU_TxControl
    0x6305: 0x00,  # CIU_TxAuto
    0x6306: 0x10,  # CIU_TxSel
    0x6307: 0x84,  # CIU_RxSel
    0x6308: 0x84,  # CIU_RxThreshold
    0x6309: 0x4D,  # CIU_Demod
    0x630A: 0x00,  # CIU_FelNFC1
    0x630B: 0x00,  # CIU_FelNFC2
    0x630C: 0x62,  # CIU_MifNFC
    0x630D: 0x00,  # CIU_ManualRCV
    0x630E: 0x00,  # CIU_TypeB
    0x6311: 0xFF,  # CIU_CRCResultMSB
    0x6312: 0xFF,  # CIU_CRCResultLSB
    0x6313: 0x88,  # CIU_GsNOff
    0x6314: 0x26,  # CIU_ModWidth
    0x6315: 0x87,  # CIU_TxBitPhase
    0x6316: 0x48,  # CIU_RFCfg
    0x6317: 0x88,  # CIU_GsNOn
    0x6318: 0x20,  # CIU_CWGsP
    0x6319: 0x20,  # CIU_ModGsP
    0x631A: 0x00,  # CIU_TMode
    0x631B: 0x00,  # CIU_TPrescaler
    0x631C: 0x00,  # CIU_TReloadVal_hi
    0x631D: 0x00,  # CIU_TReloadVal_lo
    0x6321: 0x00,  # CIU_TestSel1
    0x6322: 0x00,  # CIU_TestSel2
    0x6323: 0x80,  # CIU_TestPinEn
    0x6324: 0x00,  # CIU_TestPinValue
    0x6326: 0x40,  # CIU_AutoTest
    0x6327: 0x80,  # CIU_Version
    0x6331: 0x20,  # CIU_Command (receiver off)
    0x6332: 0x80,  # CIU_CommIEn
    0x6333: 0x00,  # CIU_DivIEn
    0x6334: 0x14,  # CIU_CommIrq
    0x6335: 0x00,  # CIU_DivIrq
    0x6336: 0x00,  # CIU_Error
    0x6337: 0x21,  # CIU_Status1
    0x6338: 0x00,  # CIU_Status2
    0x633B: 0x08,  # CIU_WaterLevel
    0x633C: 0x10,  # CIU_Control
    0x633D: 0x00,  # CIU_BitFraming
    0x633E: 0x80,  # CIU_Coll
}


class RegisterFile:
    """The chip's registers: :meth:`read` and :meth:`write` by 16-bit address (see the module docstring)."""

    def __init__(self) -> None:
        self._values: dict[int, int] = {}
        self.fifo: deque[int] = deque(maxlen=FIFO_SIZE)
        self.reset()

    def reset(self) -> None:
        """Power-on values (a power cycle; a PowerDown keeps the registers)."""
        self._values = dict(CIU_RESET)
        self.fifo.clear()

    def read(self, address: int) -> int:
        """The value at ``address`` (0x0000-0xFFFF); a read of the FIFO takes its oldest byte."""
        if address == CIU_FIFO_DATA:
            return self.fifo.popleft() if self.fifo else 0x00
        if address == CIU_FIFO_LEVEL:
            return len(self.fifo)
        return self._values.get(address, 0x00)

    def write(self, address: int, value: int) -> None:
        """Store ``value`` (a byte) at ``address``; the FIFO registers act as described above."""
        value &= 0xFF
        if address == CIU_FIFO_DATA:
            self.fifo.append(value)
        elif address == CIU_FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        else:
            self._values[address] = value

    def crc(self, address: int) -> bool:
        """Whether TxCRCEn/RxCRCEn (bit 7) is set in ``CIU_TxMode`` or ``CIU_RxMode``."""
        return bool(self._values.get(address, 0) & CRC_ENABLE)

    def activated_type_a(self) -> None:
        """What the firmware leaves behind after activating a 106 kbps type A target: CRC on both ways."""
        for address in (CIU_TX_MODE, CIU_RX_MODE):
            self._values[address] = (self._values.get(address, 0) & 0x0F) | CRC_ENABLE

    def left_reqa(self) -> None:
        """InListPassiveTarget at 106 kbps type A found nothing: its REQA (0x26) stays in the FIFO."""
        self.fifo.clear()
        self.fifo.append(0x26)
