"""Giving freed memory back to the system: a dropped screen's widgets are garbage once it is gone, but the C
library keeps the pages of its heap for the next allocation; ``malloc_trim`` returns the free ones (the
kiosk's resident memory, bench/bench_memory.py). Where there is no glibc it does nothing.

The collector: what the app holds after start-up (Kivy, the kv rules, fonts, the editions, the built screens:
a few hundred thousand objects) lives till the end, yet each of the collector's automatic full passes walks
it all again: 100-300 ms on the main thread, a frame that late (bench/bench_ui.py's spikes). :func:`keep` puts
it out of the collector's way (``gc.freeze``); the automatic passes then walk only what came after.
:func:`give_back` looks at everything again (a dropped screen may be among the objects kept), then keeps
what survived; the app calls it once the table is quiet (:data:`QUIET_S`), not between two taps."""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from functools import cache
from typing import Any


@cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


QUIET_S = 2.0
"""Seconds without an input before a dropped screen's memory is given back (its full collection is a pause)."""


def keep() -> None:
    """Collect the garbage, then keep every object left out of the collector's automatic passes."""
    gc.collect()
    gc.freeze()


def give_back() -> None:
    """Collect all the garbage (the objects kept by :func:`keep` too), give the C heap's free pages back to the
    system (glibc only), and keep what is left out of the collector's way again."""
    gc.unfreeze()
    gc.collect()
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
    gc.freeze()


def release(screen: Any) -> None:
    """Free what a screen about to be dropped holds (its ``release()``, when it has one) and give the memory
    back, before the next screen is built: the two are never in memory together (the peak of memory,
    bench/bench_memory.py). The same frame shows the next screen, so the emptied one is never drawn."""
    drop = getattr(screen, "release", None)
    if drop is not None:
        drop()
        give_back()
