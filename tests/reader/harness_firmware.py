"""The real bridge firmware in the one reader suite: ``hardware/firmware/main.py`` under CPython with its own
MFRC522 driver on a simulated MFRC522 (firmware_sim/firmware.py), read through ``serial://``.

``present``/``remove`` put a card on the simulated antenna and lift it; the firmware finds it by
polling, as on the board. ``unplug``/``replug`` pull the USB cable (the board loses power) and plug
it in again (it boots).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator

from harness import Harness, SimDeviceHarness

from firmware_sim.firmware import FirmwareDevice


@contextlib.contextmanager
def firmware_harness() -> Iterator[Harness]:
    with tempfile.TemporaryDirectory(prefix="bb-firmware-") as tmp:
        device = FirmwareDevice(link=os.path.join(tmp, "ttyFIRMWARE"))
        device.start()
        try:
            yield SimDeviceHarness("firmware", device, "serial://{path}?baud=115200", senses_removal=True)
        finally:
            device.stop()
            assert device.crash is None, f"the firmware crashed: {device.crash!r}"


HARNESSES = {"firmware": firmware_harness}
