"""The PN532 harness of the one reader suite: the chip simulator on a pty, the driver on its link.

``present``/``remove`` put a card in and out of the simulated field; ``unplug``/``replug`` close the
pty and open a new one behind the same symlink (a power cycle: the chip is asleep again and the
driver must wake it). The PN532 driver senses removal (the target stops answering its polls).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator

from harness import Harness, SimDeviceHarness

from firmware_sim.pn532 import PN532Device


@contextlib.contextmanager
def pn532_harness() -> Iterator[Harness]:
    with tempfile.TemporaryDirectory(prefix="bb-pn532-") as tmp:
        device = PN532Device(link=os.path.join(tmp, "ttyPN532"), seed=532)
        device.start()
        try:
            yield SimDeviceHarness("pn532", device, "pn532://{path}", senses_removal=True)
        finally:
            device.stop()


HARNESSES = {"pn532": pn532_harness}
