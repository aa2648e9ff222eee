"""The MFRC522's timer unit and Status1Reg, for :class:`firmware_sim.mfrc522.MFRC522Chip`.

MFRC522 datasheet rev. 3.9: the timer (8.5; TModeReg and TPrescalerReg 9.3.3.10, TReloadReg 9.3.3.11,
TCounterValReg 9.3.3.12) counts TReload down to zero at 13.56 MHz / (2·TPrescaler + 1) (+2 instead of
+1 with TPrescalEven in DemodReg), sets TimerIRq when it gets there, and reloads with TAutoRestart;
Status1Reg (9.3.1.8) shows CRCOk, CRCReady, IRq, TRunning, HiAlert and LoAlert.
"""

from __future__ import annotations

from collections.abc import Callable

COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, STATUS1, STATUS2, WATER_LEVEL = 0x02, 0x03, 0x04, 0x05, 0x07, 0x08, 0x0B
DEMOD, CRC_RESULT_MSB, CRC_RESULT_LSB = 0x19, 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, T_COUNTER_H, T_COUNTER_L = 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F
IRQ_TIMER = 0x01
FIFO_SIZE = 64
CLOCK_HZ = 13_560_000


class TimerAndStatus:
    """The timer and Status1Reg over a chip's ``regs``, ``fifo`` and ``clock`` (seconds)."""

    regs: bytearray
    fifo: bytearray
    clock: Callable[[], float]
    _timer: tuple[float, int] | None

    def _status1(self) -> int:
        """Status1Reg (9.3.1.8): CRCOk, CRCReady, IRq, TRunning, HiAlert, LoAlert."""
        level, water = len(self.fifo), self.regs[WATER_LEVEL] & 0x3F
        value = 0x20  # CRCReady: the coprocessor finishes at once here
        if self.regs[CRC_RESULT_MSB] == 0 and self.regs[CRC_RESULT_LSB] == 0:
            value |= 0x40
        if (self.regs[COM_IEN] & self.regs[COM_IRQ] & 0x7F) or (self.regs[DIV_IEN] & self.regs[DIV_IRQ] & 0x14):
            value |= 0x10
        if self._timer is not None:
            value |= 0x08
        if FIFO_SIZE - level <= water:
            value |= 0x02
        if level <= water:
            value |= 0x01
        return value

    def _tick_s(self) -> float:
        prescaler = (self.regs[T_MODE] & 0x0F) << 8 | self.regs[T_PRESCALER]
        even = bool(self.regs[DEMOD] & 0x10)  # TPrescalEven
        return (2 * prescaler + (2 if even else 1)) / CLOCK_HZ

    def _reload(self) -> int:
        return self.regs[T_RELOAD_H] << 8 | self.regs[T_RELOAD_L]

    def _start_timer(self) -> None:
        self._timer = (self.clock(), self._reload())

    def _counter(self) -> int:
        if self._timer is None:
            return self.regs[T_COUNTER_H] << 8 | self.regs[T_COUNTER_L]
        start, reload = self._timer
        return max(0, reload - int((self.clock() - start) / self._tick_s()))

    def _run_timer(self) -> None:
        """The timer reached zero since it started: TimerIRq; reloaded with TAutoRestart, else stopped."""
        if self._timer is None:
            return
        start, reload = self._timer
        tick = self._tick_s()
        if self.clock() - start < (reload + 1) * tick:
            return
        self.regs[COM_IRQ] |= IRQ_TIMER
        if self.regs[T_MODE] & 0x10:  # TAutoRestart
            self._timer = (start + (reload + 1) * tick, reload)
        else:
            self._timer = None
            self.regs[T_COUNTER_H] = self.regs[T_COUNTER_L] = 0

