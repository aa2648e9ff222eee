"""boardbank bridge firmware: Raspberry Pi Pico + MFRC522 (SPI) + buzzer + RGB LED, protocol v2 over USB.

MicroPython (v1.20 or later) runs this file at boot. It polls the MFRC522 about every 30 ms, reports
cards as ``TAP``/``GONE`` frames on the USB serial port, answers the host's ``PING``/``VER?`` and plays
``BEEP``/``LED``; frames carry a CRC-16/CCITT and a ``TAP`` is repeated until the host's ``ACK``
(hardware/protocol.md). All protocol behaviour lives in bridge_app.py (shared with the simulator); this file is
only the hardware glue. Pins are in hardware/wiring.md. Copy protocol.py, bridge_app.py, mfrc522.py and
main.py to the Pico (``mpremote cp *.py :``).

Maintenance: hold GP22 low (a jumper to GND) while plugging in to get the REPL instead of the bridge.
"""

import select
import sys
import time

import bridge_app
import mfrc522
import micropython
import protocol
from machine import PWM, SPI, WDT, Pin

POLL_MS = 30  # milliseconds between card polls
PIN_SCK, PIN_MOSI, PIN_MISO, PIN_CS, PIN_RST = 18, 19, 16, 17, 20  # SPI0
PIN_BUZZER = 15  # passive piezo buzzer, driven by PWM
PIN_RED, PIN_GREEN, PIN_BLUE = 10, 11, 12  # common-cathode RGB LED through 220 ohm resistors
PIN_MAINTENANCE = 22  # low at boot: stay in the REPL

# (frequency in Hz, duration in ms) steps; 0 Hz is a pause
SOUNDS = {
    "ok": ((2000, 80),),
    "err": ((400, 150), (0, 60), (400, 250)),
    "go": ((1300, 90), (0, 30), (1700, 90), (0, 30), (2200, 160)),
}
COLOURS = {
    "off": (0, 0, 0), "red": (1, 0, 0), "green": (0, 1, 0), "blue": (0, 0, 1),
    "yellow": (1, 1, 0), "white": (1, 1, 1),
}


class Buzzer:
    """Plays a sound's steps without blocking the poll loop."""

    def __init__(self, pin):
        self.pwm = PWM(Pin(pin))
        self.pwm.duty_u16(0)
        self.steps = []
        self.until = 0

    def play(self, kind):
        self.steps = list(SOUNDS.get(kind, ()))
        self.until = time.ticks_ms()

    def service(self):
        if not self.steps and self.until is None:
            return
        now = time.ticks_ms()
        if time.ticks_diff(now, self.until) < 0:
            return
        if not self.steps:
            self.pwm.duty_u16(0)
            self.until = None
            return
        freq, ms = self.steps.pop(0)
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(32768)
        else:
            self.pwm.duty_u16(0)
        self.until = time.ticks_add(now, ms)


class Led:
    def __init__(self, pins):
        self.pins = [Pin(p, Pin.OUT, value=0) for p in pins]

    def show(self, colour):
        levels = COLOURS.get(colour, (0, 0, 0))
        for i in range(3):  # MicroPython's zip() has no strict=
            self.pins[i].value(levels[i])


def usb_writer():
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:
        return out.write
    return lambda data: sys.stdout.write(data.decode())


def run():
    if Pin(PIN_MAINTENANCE, Pin.IN, Pin.PULL_UP).value() == 0:
        print("maintenance pin low: bridge not started")
        return
    micropython.kbd_intr(-1)  # a 0x03 byte on the line must not stop the firmware
    Pin(PIN_RST, Pin.OUT, value=1)
    spi = SPI(0, baudrate=4_000_000, polarity=0, phase=0,
              sck=Pin(PIN_SCK), mosi=Pin(PIN_MOSI), miso=Pin(PIN_MISO))
    reader = mfrc522.MFRC522(spi, Pin(PIN_CS, Pin.OUT, value=1))
    buzzer = Buzzer(PIN_BUZZER)
    led = Led((PIN_RED, PIN_GREEN, PIN_BLUE))
    app = bridge_app.BridgeApp(send=usb_writer(), beep=buzzer.play, led=led.show, memory=reader.ntag,
                               classic=reader.classic)
    chip_ok = True
    try:
        reader.init()
    except mfrc522.MFRC522Error:
        chip_ok = False
    app.boot()
    if not chip_ok:
        app.error(protocol.E_CHIP, "no MFRC522 on SPI")
        led.show("red")
    inp = getattr(sys.stdin, "buffer", sys.stdin)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    wdt = WDT(timeout=4000)  # a hung loop reboots the Pico (the host sees ReaderLost, then HELLO)
    next_poll = time.ticks_ms()
    while True:
        wdt.feed()
        while poller.poll(0):
            data = inp.read(1)
            if not data:
                break
            app.feed(data if isinstance(data, bytes) else data.encode())
        now = time.ticks_ms()
        if chip_ok and time.ticks_diff(now, next_poll) >= 0:
            next_poll = time.ticks_add(now, POLL_MS)
            try:
                uid = reader.poll()
            except mfrc522.MFRC522Error:
                uid = None
                app.error(protocol.E_CHIP, "chip error")
            app.poll(uid)
        buzzer.service()
        time.sleep_ms(1)


run()
