"""The bridge firmware, simulated on a pseudo-terminal: the executable spec of protocol v2.

This runs the firmware's OWN code, ``hardware/firmware/protocol.py`` and ``hardware/firmware/bridge_app.py``
(loaded by path), behind a :class:`~firmware_sim.device.SimDevice`; only the MFRC522 polling of
``main.py`` is replaced by the ``tap``/``remove`` commands, and its poll loop's repeats of an
unacknowledged ``TAP`` by a timer that ticks every :data:`POLL_S`. Faults: ``dup`` repeats the last card report,
``badsum`` corrupts the next frame's checksum, and the framework's garbage/stall/unplug/replug.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

from firmware_sim.device import SimDevice
from firmware_sim.sim_cards import CardShelf, TapSpec

FIRMWARE_DIR = Path(__file__).resolve().parent.parent / "hardware" / "firmware"
POLL_S = 0.03  # seconds: the board's poll period (main.POLL_MS); an unacknowledged TAP repeats every 4 polls
_LOADED: dict[str, ModuleType] = {}
_LOAD_LOCK = threading.Lock()


def load_firmware_module(name: str) -> ModuleType:
    """Import ``hardware/firmware/<name>.py`` under CPython, as the module ``bb_firmware_<name>``.

    The firmware's modules import each other by bare name (MicroPython's flat file system); while one
    loads, the siblings it needs are visible under those bare names, and restored afterwards.
    """
    with _LOAD_LOCK:
        return _load_unlocked(name)


_DEPS: dict[str, tuple[str, ...]] = {"bridge_app": ("protocol",)}


def _load_unlocked(name: str) -> ModuleType:
    if name in _LOADED:
        return _LOADED[name]
    path = FIRMWARE_DIR / f"{name}.py"
    if not path.is_file():
        raise ImportError(f"the firmware module {name!r} is missing: expected the file {path}")
    siblings = {dep: _load_unlocked(dep) for dep in _DEPS.get(name, ())}
    saved = {dep: sys.modules.get(dep) for dep in siblings}
    spec = importlib.util.spec_from_file_location(f"bb_firmware_{name}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the firmware module {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules.update(siblings)
    try:
        spec.loader.exec_module(module)
    finally:
        for dep, old in saved.items():
            if old is None:
                sys.modules.pop(dep, None)
            else:
                sys.modules[dep] = old
    sys.modules[spec.name] = module
    _LOADED[name] = module
    return module


class BridgeDevice(SimDevice):
    """Our Pico + MFRC522 bridge, running the real firmware logic; ``beeps`` and ``leds`` record cues."""

    def __init__(self, link: str | None = None, *, seed: int | None = None) -> None:
        super().__init__(link, seed=seed)
        self._protocol = load_firmware_module("protocol")
        self._app_module = load_firmware_module("bridge_app")
        self._app_lock = threading.RLock()
        self.beeps: list[str] = []
        self.leds: list[str] = []
        self.shelf = CardShelf()
        """The cards with memory ``tap UID KIND ...`` presented (:mod:`firmware_sim.sim_cards`)."""
        self.app: Any = self._new_app()
        self._next_repeat = 0.0

    def _new_app(self) -> Any:
        return self._app_module.BridgeApp(
            send=self.write, beep=self.beeps.append, led=self.leds.append,
            version=f"{self._app_module.FIRMWARE_VERSION}+sim", memory=self.shelf.memory, classic=self.shelf.classic,
        )

    @property
    def card(self) -> str | None:
        """The UID the firmware believes is on the reader."""
        with self._app_lock:
            card: str | None = self.app.card
            return card

    def on_plugged(self) -> None:
        """Power-on: the firmware boots and says HELLO."""
        with self._app_lock:
            self.app.boot()

    def on_replug(self) -> None:
        """A replug reboots the Pico: fresh firmware state, then HELLO and the card still lying there, if any."""
        with self._app_lock:
            card = self.app.card
            self.app = self._new_app()
            self.app.card = card  # the first poll after boot finds the card still lying there
            self.app.boot()

    def on_tick(self, now: float) -> None:
        """The poll loop's part that the host can see without a card moving: repeating an unacknowledged TAP."""
        if now < self._next_repeat:
            return
        self._next_repeat = now + POLL_S
        with self._app_lock:
            self.app.tick()

    def on_host_bytes(self, data: bytes) -> None:
        with self._app_lock:
            self.app.feed(data)
            for key, value in self.app.counters.items():
                self.counters[f"fw_{key}"] = value

    def tap(self, uid: str) -> None:
        """A card arrives (``uid``: hex, separators allowed) and stays until remove(): the card with memory
        presented before under that UID, if any (:meth:`present`), else a card with a UID only."""
        cleaned = "".join(ch for ch in uid if ch not in " :-").upper()
        if len(cleaned) not in (8, 14, 20) or any(ch not in "0123456789ABCDEF" for ch in cleaned):
            raise ValueError(f"a card UID is hex of 4, 7 or 10 bytes, got {uid!r}")
        with self._app_lock:
            self.app.card_seen(cleaned)

    def present(self, spec: TapSpec) -> None:
        """A ``tap`` line's card (:mod:`firmware_sim.sim_cards`): an NTAG or a MIFARE Classic with memory,
        kept by UID, whose pages and blocks the firmware's READ / WRITE and MREAD / MWRITE reach."""
        self.shelf.present(spec)
        self.tap(spec.uid)

    def remove(self) -> None:
        with self._app_lock:
            self.app.card_absent()

    def dup(self) -> None:
        """Send the last card report (TAP or GONE) again."""
        with self._app_lock:
            frame: bytes = self.app.last_card_frame
        if frame:
            self.counters["dups"] += 1
            self.write(frame)

    def badsum(self) -> None:
        with self._app_lock:
            self.app.corrupt_next = True
        self.counters["badsum_requests"] += 1
