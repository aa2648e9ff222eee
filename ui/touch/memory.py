"""Giving freed memory back to the system: a dropped screen's widgets are garbage once it is gone, but the C
library keeps the pages of its heap for the next allocation; ``malloc_trim`` returns the free ones (the
kiosk's resident memory, bench/bench_memory.py). Where there is no glibc it does nothing."""

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


def give_back() -> None:
    """Collect the garbage, then give the C heap's free pages back to the system (glibc only)."""
    gc.collect()
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


def release(screen: Any) -> None:
    """Free what a screen about to be dropped holds (its ``release()``, when it has one) and give the memory
    back, before the next screen is built: the two are never in memory together (the peak of memory,
    bench/bench_memory.py). The same frame shows the next screen, so the emptied one is never drawn."""
    drop = getattr(screen, "release", None)
    if drop is not None:
        drop()
        give_back()
