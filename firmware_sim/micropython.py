"""MicroPython's modules, as far as the bridge firmware's ``main.py`` uses them, for running it under CPython.

:class:`Board` builds one set of shim modules per simulated Pico: ``machine`` (``Pin``, ``SPI`` wired
to a :class:`firmware_sim.mfrc522.MFRC522Chip`, ``PWM``, ``WDT``), ``micropython`` (``kbd_intr``,
``const``), ``time`` (CPython's, plus ``ticks_ms``, ``ticks_add``, ``ticks_diff``, ``sleep_ms``),
``select`` (``poll`` on the USB input) and ``sys`` (``stdin``/``stdout`` with ``.buffer``: the USB
serial port). :func:`firmware_sim.firmware.run_main` makes ``main.py``'s imports find these (and the
firmware's own modules) instead of CPython's, without changing a line of it.

The board also records what the firmware does to its pins: ``pins`` (pin number -> level),
``tones`` (buzzer frequencies started, Hz), ``kbd_intr``, ``wdt_timeout_ms``. Times are milliseconds
of ``time.monotonic()``, as ``ticks_ms`` counts them; ticks do not wrap.
"""

from __future__ import annotations

import builtins
import threading
import time as _time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from firmware_sim.mfrc522 import MFRC522Chip

PIN_CS = 17  # main.py's PIN_CS: the MFRC522's chip select


def exec_micropython(path: Path, modules: Mapping[str, Any], name: str = "__main__") -> dict[str, Any]:
    """Execute the MicroPython source file ``path`` with ``import X`` (and ``from X import ...``) finding
    ``modules[X]`` first, CPython's modules otherwise; return its namespace. Nothing goes into
    ``sys.modules``. Exceptions of the code (FirmwareStopped included) propagate."""
    real_import = builtins.__import__

    def shim_import(module: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if level == 0 and module in modules:
            return modules[module]
        return real_import(module, globals, locals, fromlist, level)

    namespace_builtins = dict(vars(builtins))
    namespace_builtins["__import__"] = shim_import
    namespace: dict[str, Any] = {"__name__": name, "__file__": str(path), "__builtins__": namespace_builtins}
    exec(compile(Path(path).read_text(), str(path), "exec"), namespace)
    return namespace


class FirmwareStopped(BaseException):
    """Raised inside main.py's loop (at the watchdog's feed) to end the simulated firmware."""


class Board:
    """A simulated Pico: the shims, the MFRC522 on SPI0, and the USB link (``usb_out`` takes frames)."""

    def __init__(self, chip: MFRC522Chip, usb_out: Callable[[bytes], None]) -> None:
        self.chip = chip
        self.usb_out = usb_out
        self._usb_in = bytearray()
        self._lock = threading.Lock()
        self.stop = threading.Event()
        self.pins: dict[int, int] = {}
        self.tones: list[int] = []
        self.kbd_intr: int | None = None
        self.wdt_timeout_ms: int | None = None
        self.feeds = 0
        self._selected = False

    # ------------------------------------------------------------------ the USB side

    def usb_in(self, data: bytes) -> None:
        """Bytes from the host, for the firmware's next ``sys.stdin.buffer.read``."""
        with self._lock:
            self._usb_in += data

    def _read(self, n: int) -> bytes:
        with self._lock:
            data = bytes(self._usb_in[:n])
            del self._usb_in[:n]
        return data

    def _ready(self) -> bool:
        with self._lock:
            return bool(self._usb_in)

    # ------------------------------------------------------------------ chip select and SPI

    def _cs(self, level: int) -> None:
        if level == 0 and not self._selected:
            self._selected = True
            self.chip.select()
        elif level and self._selected:
            self._selected = False

    def _spi(self, out: bytes) -> bytes:
        """Bytes clocked through the bus; the chip sees them only while its chip select is low."""
        if not self._selected:
            return bytes(len(out))  # nothing drives MISO
        return bytes(self.chip.exchange(b) for b in out)

    # ------------------------------------------------------------------ the modules

    def modules(self) -> dict[str, Any]:
        """The shim modules by the names main.py imports."""
        return {
            "machine": self._machine(),
            "micropython": SimpleNamespace(kbd_intr=self._kbd_intr, const=lambda x: x),
            "time": self._time(),
            "select": self._select(),
            "sys": self._sys(),
        }

    def _kbd_intr(self, c: int) -> None:
        self.kbd_intr = c

    def _machine(self) -> ModuleType:
        board = self
        machine = ModuleType("machine")

        class Pin:
            IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 1, 2

            def __init__(self, pin_id: int, mode: int = 0, pull: int | None = None, value: int | None = None) -> None:
                self.id = pin_id
                if value is not None:
                    self.value(value)

            def value(self, v: int | None = None) -> int:
                if v is None:
                    return board.pins.get(self.id, 1)  # inputs read high: pull-ups, no jumper
                board.pins[self.id] = 1 if v else 0
                if self.id == PIN_CS:
                    board._cs(board.pins[self.id])
                return board.pins[self.id]

            __call__ = value

            def on(self) -> None:
                self.value(1)

            def off(self) -> None:
                self.value(0)

        class SPI:
            def __init__(self, bus: int = -1, baudrate: int = 1_000_000, polarity: int = 0, phase: int = 0, **_: Any) -> None:
                if (polarity, phase) != (0, 0):
                    raise ValueError(f"the MFRC522 needs SPI mode 0, got polarity {polarity} phase {phase}")
                self.bus = bus

            def init(self, *_args: Any, **_kwargs: Any) -> None:
                pass

            def write(self, buf: bytes) -> None:
                board._spi(bytes(buf))

            def read(self, n: int, write: int = 0) -> bytes:
                return board._spi(bytes([write]) * n)

            def readinto(self, buf: bytearray, write: int = 0) -> None:
                buf[:] = board._spi(bytes([write]) * len(buf))

            def write_readinto(self, wbuf: bytes, rbuf: bytearray) -> None:
                rbuf[:] = board._spi(bytes(wbuf))

        class PWM:
            def __init__(self, pin: Pin) -> None:
                self.pin = pin
                self._duty = 0

            def freq(self, f: int | None = None) -> int:
                if f is not None:
                    board.tones.append(f)
                return board.tones[-1] if board.tones else 0

            def duty_u16(self, d: int | None = None) -> int:
                if d is not None:
                    self._duty = d
                return self._duty

        class WDT:
            def __init__(self, id: int = 0, timeout: int = 5000) -> None:
                board.wdt_timeout_ms = timeout

            def feed(self) -> None:
                board.feeds += 1
                if board.stop.is_set():
                    raise FirmwareStopped

        machine.Pin, machine.SPI, machine.PWM, machine.WDT = Pin, SPI, PWM, WDT  # type: ignore[attr-defined]
        return machine

    def _time(self) -> SimpleNamespace:
        def ticks_ms() -> int:
            return int(_time.monotonic() * 1000)

        def sleep_ms(ms: int) -> None:
            _time.sleep(ms / 1000.0)

        return SimpleNamespace(
            ticks_ms=ticks_ms, ticks_add=lambda a, b: a + b, ticks_diff=lambda a, b: a - b,
            sleep_ms=sleep_ms, sleep=_time.sleep, time=_time.time,
        )

    def _select(self) -> SimpleNamespace:
        board = self

        class Poll:
            def register(self, _obj: object, _mask: int = 1) -> None:
                pass

            def poll(self, timeout: int = -1) -> list[tuple[object, int]]:
                return [(None, 1)] if board._ready() else []

        return SimpleNamespace(poll=Poll, POLLIN=1)

    def _sys(self) -> SimpleNamespace:
        stdin = SimpleNamespace(buffer=SimpleNamespace(read=self._read))
        stdout = SimpleNamespace(buffer=SimpleNamespace(write=self.usb_out))
        return SimpleNamespace(stdin=stdin, stdout=stdout, implementation=SimpleNamespace(name="micropython"))

    def os(self, sysname: str = "rp2") -> SimpleNamespace:
        """An ``os`` whose ``uname()`` names the port (``rp2``: the Pico), for drivers that set SPI up by board."""
        return SimpleNamespace(uname=lambda: (sysname, sysname, "1.22.0", "v1.22.0", f"simulated {sysname} board"))
