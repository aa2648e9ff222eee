"""The firmware's main.py under CPython, on fake Pico hardware: USB serial, MFRC522, buzzer, LED.

main.py is MicroPython glue (``machine``, ``micropython``, ``time.ticks_ms``...). Its source is run here
with those names bound to fakes (its import lines are replaced by the fakes; nothing else is changed):
the SPI bus is the fake MFRC522 of test_bridge_mfrc522.py, time is virtual (``sleep_ms`` advances it),
and the watchdog's ``feed()`` drives a scripted scenario and finally stops the endless loop.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_bridge_mfrc522 import FakeCard, FakeChip

from firmware_sim.bridge import FIRMWARE_DIR, load_firmware_module
from reader.protocol import Frame, FrameDecoder, encode

pytestmark = pytest.mark.timeout(30)


class StopLoop(Exception):
    """Raised by the fake watchdog to end main.py's endless loop."""


class Board:
    """Fake Pico peripherals, a virtual millisecond clock and a script run at watchdog feeds."""

    def __init__(self, chip: FakeChip, script: dict[int, Callable[[Board], None]], feeds: int) -> None:
        self.chip = chip
        self.script = script
        self.feeds_left = feeds
        self.feed_count = 0
        self.now_ms = 0
        self.host_in = bytearray()  # bytes the host sent, not yet read by the firmware
        self.host_out = bytearray()  # bytes the firmware wrote to USB
        self.pins: dict[int, int] = {}
        self.pwm: dict[str, int] = {"freq": 0, "duty": 0}
        self.tones: list[int] = []  # every frequency started, in order
        self.kbd_intr: int | None = None

    # ------------------------------------------------------------------ modules for main.py

    def machine(self) -> SimpleNamespace:
        board = self

        class Pin:
            OUT, IN, PULL_UP = 1, 0, 1

            def __init__(self, pin_id: int, mode: int = 0, pull: int | None = None, value: int | None = None) -> None:
                self.id = pin_id
                if value is not None:
                    self.value(value)

            def value(self, v: int | None = None) -> int:
                if v is None:
                    return board.pins.get(self.id, 1)  # inputs read high (pull-ups)
                board.pins[self.id] = v
                if self.id == 17:  # the MFRC522's chip select
                    board.chip.value(v)
                return v

        class PWM:
            def __init__(self, pin: Pin) -> None:
                self.pin = pin

            def freq(self, f: int) -> None:
                board.pwm["freq"] = f
                board.tones.append(f)

            def duty_u16(self, d: int) -> None:
                board.pwm["duty"] = d

        class WDT:
            def __init__(self, timeout: int) -> None:
                assert timeout >= 1000

            def feed(self) -> None:
                board.feed_count += 1
                action = board.script.get(board.feed_count)
                if action is not None:
                    action(board)
                if board.feed_count >= board.feeds_left:
                    raise StopLoop

        def spi(*_args: Any, **kwargs: Any) -> FakeChip:
            assert kwargs["polarity"] == 0 and kwargs["phase"] == 0
            return board.chip

        return SimpleNamespace(Pin=Pin, PWM=PWM, WDT=WDT, SPI=spi)

    def time(self) -> SimpleNamespace:
        def sleep_ms(ms: int) -> None:
            self.now_ms += ms

        return SimpleNamespace(ticks_ms=lambda: self.now_ms, ticks_add=lambda a, b: a + b,
                               ticks_diff=lambda a, b: a - b, sleep_ms=sleep_ms)

    def sys(self) -> SimpleNamespace:
        def read(n: int) -> bytes:
            data = bytes(self.host_in[:n])
            del self.host_in[:n]
            return data

        stdin = SimpleNamespace(buffer=SimpleNamespace(read=read))
        stdout = SimpleNamespace(buffer=SimpleNamespace(write=self.host_out.extend))
        return SimpleNamespace(stdin=stdin, stdout=stdout)

    def select(self) -> SimpleNamespace:
        board = self

        class Poll:
            def register(self, _obj: object, _mask: int) -> None:
                pass

            def poll(self, _timeout: int) -> list[tuple[object, int]]:
                return [(None, 1)] if board.host_in else []

        return SimpleNamespace(poll=Poll, POLLIN=1)

    def micropython(self) -> SimpleNamespace:
        def kbd_intr(c: int) -> None:
            self.kbd_intr = c

        return SimpleNamespace(kbd_intr=kbd_intr)

    # ------------------------------------------------------------------ running

    def run(self, loops: bool = True) -> list[Frame]:
        """Run main.py; ``loops``: it must reach its endless loop (ended by the watchdog script)."""
        source = (FIRMWARE_DIR / "main.py").read_text()
        source, n = re.subn(r"^(import \w+|from machine import .*)$", "pass", source, flags=re.M)
        assert n == 8, f"main.py's imports changed ({n} import lines); update the fakes"
        namespace: dict[str, Any] = {
            "__name__": "__main__",
            "machine": self.machine(),
            "micropython": self.micropython(),
            "time": self.time(),
            "sys": self.sys(),
            "select": self.select(),
            "protocol": load_firmware_module("protocol"),
            "bridge_app": load_firmware_module("bridge_app"),
            "mfrc522": load_firmware_module("mfrc522"),
        }
        m = namespace["machine"]
        namespace.update(Pin=m.Pin, PWM=m.PWM, SPI=m.SPI, WDT=m.WDT)
        code = compile(source, str(FIRMWARE_DIR / "main.py"), "exec")
        if loops:
            with pytest.raises(StopLoop):
                exec(code, namespace)
        else:
            exec(code, namespace)
        return FrameDecoder().feed(bytes(self.host_out))


def send(data: bytes) -> Callable[[Board], None]:
    return lambda board: board.host_in.extend(data)


def test_main_reports_cards_answers_the_host_and_plays_cues() -> None:
    chip = FakeChip([])
    card = FakeCard("04A22B1C5D6E80")
    script: dict[int, Callable[[Board], None]] = {
        5: send(encode("VER?") + encode("PING", 5)),
        50: lambda b: b.chip.cards.append(card),
        230: send(encode("ACK", "04A22B1C5D6E80")),  # the TAP came at ~60 ms and repeats every 4 polls
        400: lambda b: b.chip.cards.remove(card),
        500: send(encode("BEEP", "ok") + encode("LED", "green")),
    }
    board = Board(chip, script, feeds=700)
    frames = board.run()
    hello = Frame("HELLO", ("bridge", "2", "2.0.0"))
    tap, gone = Frame("TAP", ("04A22B1C5D6E80",)), Frame("GONE", ("04A22B1C5D6E80",))
    taps = frames.count(tap)
    assert 2 <= taps <= 3, f"the TAP repeats about every 120 ms until the ACK at 230 ms: {frames}"
    empty = Frame("EMPTY", ())  # the card state after each HELLO: no card yet
    assert frames == [hello, empty, hello, empty, Frame("PONG", ("5",))] + [tap] * taps + [gone]
    assert board.kbd_intr == -1
    assert board.tones == [2000] and board.pwm["duty"] == 0  # the "ok" beep played and stopped
    assert (board.pins[10], board.pins[11], board.pins[12]) == (0, 1, 0)  # green
    assert board.pins[20] == 1  # the MFRC522's reset line held high


def test_main_says_so_when_the_chip_is_missing() -> None:
    chip = FakeChip([])
    chip.regs[0x37] = 0x00  # VersionReg reads 00: nothing on the bus
    board = Board(chip, {}, feeds=50)
    frames = board.run()
    assert frames == [Frame("HELLO", ("bridge", "2", "2.0.0")), Frame("EMPTY", ()),
                      Frame("ERR", ("5", "no MFRC522 on SPI"))]
    assert (board.pins[10], board.pins[11], board.pins[12]) == (1, 0, 0)  # red


def test_maintenance_jumper_keeps_the_repl(capsys: pytest.CaptureFixture[str]) -> None:
    board = Board(FakeChip([]), {}, feeds=10)
    board.pins[22] = 0
    source = (FIRMWARE_DIR / "main.py").read_text()
    assert "PIN_MAINTENANCE" in source
    assert board.run(loops=False) == []  # run() returns at once: no watchdog, no loop, no frame
    assert board.feed_count == 0
    assert "maintenance pin low" in capsys.readouterr().out
