"""The whole bridge firmware on a pseudo-terminal: ``hardware/firmware/main.py``, unmodified, under CPython.

Where :mod:`firmware_sim.bridge` runs only the firmware's protocol logic, this runs its ``main.py``
(the poll loop, the watchdog, the buzzer and LED glue) and its own MFRC522 driver
(``hardware/firmware/mfrc522.py``) against a register-level MFRC522 (:mod:`firmware_sim.mfrc522`) on
a simulated Pico (:mod:`firmware_sim.micropython`). ``tap`` puts a card in the chip's field and the
firmware finds it by polling, as on the board; so ``serial://`` reads UIDs through the real firmware
code path.

How main.py runs unchanged: it is executed in a namespace whose ``__import__`` hands it the board's
shim modules for ``machine``, ``micropython``, ``time``, ``select`` and ``sys``, and the firmware's
own ``protocol``, ``bridge_app`` and ``mfrc522`` (loaded from ``hardware/firmware``); nothing is put
into CPython's ``sys.modules`` under those names, so several simulated boards (and the tests' own
imports) live in one process. The firmware runs in a thread; unplugging powers the board off (the
thread ends at the next watchdog feed), replugging boots it again, with the cards still in the field.

Faults: ``garbage``, ``stall``, ``unplug``, ``replug`` (a power cycle), ``dup`` (the last frame
again), ``badsum`` (the next frame's CRC damaged).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from firmware_sim.bridge import FIRMWARE_DIR, load_firmware_module
from firmware_sim.device import SimDevice
from firmware_sim.mfrc522 import MFRC522Chip
from firmware_sim.micropython import Board, FirmwareStopped, exec_micropython
from firmware_sim.sim_cards import CardShelf, TapSpec
from reader.events import normalize_uid

log = logging.getLogger(__name__)
FIRMWARE_MODULES = ("protocol", "bridge_app", "mfrc522")
_HEX = b"0123456789ABCDEF"


def run_main(board: Board) -> None:
    """Execute ``hardware/firmware/main.py`` on ``board`` until the board stops it (see the module docstring)."""
    modules: dict[str, Any] = dict(board.modules())
    modules.update({name: load_firmware_module(name) for name in FIRMWARE_MODULES})
    exec_micropython(FIRMWARE_DIR / "main.py", modules)


class FirmwareDevice(SimDevice):
    """main.py + its MFRC522 driver + a simulated MFRC522, behind a pty. ``chip`` is the MFRC522;
    ``board`` the running Pico (its pins, tones); counters add ``boots`` and ``crashes``."""

    def __init__(self, link: str | None = None, *, seed: int | None = None) -> None:
        super().__init__(link, seed=seed)
        self.chip = MFRC522Chip()
        self._fw_lock = threading.RLock()
        self._thread_fw: threading.Thread | None = None
        self._corrupt_next = False
        self.board = Board(self.chip, self._usb_out)
        self.crash: BaseException | None = None

    # ------------------------------------------------------------------ power

    def _boot(self) -> None:
        with self._fw_lock:
            self._halt()
            self.board = Board(self.chip, self._usb_out)
            board = self.board
            thread = threading.Thread(target=self._run, args=(board,), name="sim-firmware-main", daemon=True)
            self._thread_fw = thread
            self.counters["boots"] += 1
            thread.start()

    def _halt(self) -> None:
        with self._fw_lock:
            thread, self._thread_fw = self._thread_fw, None
            self.board.stop.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def _run(self, board: Board) -> None:
        try:
            run_main(board)
        except FirmwareStopped:
            return
        except BaseException as exc:  # the firmware crashed: on the board the watchdog would reboot it
            self.crash = exc
            self.counters["crashes"] += 1
            log.exception("simulated firmware crashed")

    def on_plugged(self) -> None:
        """Power on: main.py boots (HELLO, then it polls the MFRC522)."""
        self._boot()

    def on_replug(self) -> None:
        """Plugged in again: a fresh boot, the cards still lying on the antenna."""
        self._boot()

    def unplug(self) -> None:
        """The USB cable is pulled: the pty vanishes and the board loses power."""
        super().unplug()
        self._halt()

    def stop(self) -> None:
        """Power off and close the pty."""
        self._halt()
        super().stop()

    # ------------------------------------------------------------------ USB

    def _usb_out(self, data: bytes) -> None:
        data = bytes(data)
        with self._fw_lock:
            corrupt, self._corrupt_next = self._corrupt_next, False
        if corrupt and len(data) > 2 and data[-2] in _HEX:  # flip the low bit of the CRC's last digit
            data = data[:-2] + bytes([_HEX[_HEX.index(data[-2]) ^ 1]]) + data[-1:]
        self.write(data)

    def on_host_bytes(self, data: bytes) -> None:
        self.board.usb_in(data)

    def badsum(self) -> None:
        """The next frame goes out with a damaged CRC."""
        super().badsum()
        with self._fw_lock:
            self._corrupt_next = True

    # ------------------------------------------------------------------ cards

    def tap(self, uid: str) -> None:
        """A card (hex, 4/7/10 bytes) is put on the antenna (replacing any card there) and stays: the card
        with memory presented before under that UID, if any (:meth:`present`), else a UID-only card."""
        self.present(TapSpec(normalize_uid(uid)))

    def present(self, spec: TapSpec) -> None:
        """A ``tap`` line's card (:mod:`firmware_sim.sim_cards`): an NTAG or a MIFARE Classic with memory,
        kept by UID, read and written by the firmware through the simulated MFRC522."""
        shelf: CardShelf = self.__dict__.setdefault("_shelf", CardShelf())
        card = shelf.present(spec)
        self.chip.remove()
        self.chip.insert(card if card is not None else bytes.fromhex(spec.uid))

    def remove(self) -> None:
        """The card is lifted off the antenna."""
        self.chip.remove()

    @property
    def card(self) -> str | None:
        """The UID of the card on the antenna, or None."""
        cards = list(self.chip.cards)
        return cards[0].uid.hex().upper() if cards else None
