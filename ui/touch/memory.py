"""Giving freed memory back to the system: a dropped screen's widgets are garbage once it is gone, but the C
library keeps the pages of its heap for the next allocation; ``malloc_trim`` returns the free ones (the
kiosk's resident memory, bench/bench_memory.py). Where there is no glibc it does nothing.

The collector: what the app holds for the whole game (Kivy, the kv rules, fonts, the editions, the resident
table and board: a few hundred thousand objects) lives till the end, yet each of the collector's automatic
full passes walks it all again: 100-300 ms on the main thread, a frame that late (bench/bench_ui.py's spikes).
A :class:`Keeper` puts it out of the collector's way (``gc.freeze``) once started and again once the resident
screens are built; the automatic passes then walk only what came after. A dropped screen built after that is
among the walked objects: :meth:`Keeper.give_back` frees it with a short pass, at once. A dropped screen that
was kept with the rest (it was up when the heap was kept: the screen a resumed game opened on, or the one up
at the last such pass) needs a pass over everything (60-80 ms), which the keeper runs only then, once no input
came for :data:`QUIET_S`: never between two taps. Setup's is run at once, at the tap that starts the game."""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Iterable
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


def keep() -> None:
    """Collect the garbage, then keep every object left out of the collector's automatic passes."""
    gc.collect()
    gc.freeze()


def give_back(everything: bool = False) -> None:
    """Collect the garbage (``everything``: the objects kept by :func:`keep` too, then keep what is left again)
    and give the C heap's free pages back to the system (glibc only)."""
    if everything:
        gc.unfreeze()
    gc.collect()
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
    if everything:
        gc.freeze()


QUIET_S = 2.0
"""Seconds without an input before a pass over everything (a pause of 60-80 ms on this machine's software
renderer) may run: never between two taps."""


LEFT = object()
"""What a screen manager's transition names as its last switch's end once that screen is freed (Kivy allows no
None there, and reads it again only when the next switch sets it)."""


class Keeper:
    """Which screens were kept out of the collector's way (:func:`keep`), so that dropping one of them gets
    the pass over everything that frees it (once the table is quiet), and dropping any other only the short
    pass, at once."""

    def __init__(self) -> None:
        self.kept: frozenset[str] = frozenset()  # the names of the screens up when the heap was last kept
        self._everything = False  # a kept screen was dropped since the last pass over everything

    def keep(self, screens: Iterable[str]) -> None:
        """Keep the heap, with the screens called ``screens`` that are up now."""
        keep()
        self.kept = frozenset(screens)

    def dropped(self, name: str) -> None:
        """The screen called ``name`` is dropped: its memory goes at a :meth:`give_back`."""
        self._everything = self._everything or name in self.kept

    def give_back(self, screens: Iterable[str], quiet: bool) -> bool:
        """Free the dropped screens and give the memory back; ``screens``: the names of the screens up now;
        ``quiet``: no input came for :data:`QUIET_S`, so a pass over everything may run. True when a kept
        screen is still waiting for that pass (ask again once the table is quiet)."""
        everything = self._everything and quiet
        give_back(everything)
        if everything:
            self._everything, self.kept = False, frozenset(screens)
        return self._everything

    def release(self, manager: Any, name: str) -> None:
        """Free the screen called ``name`` that is about to be left for good (its ``release()``, when it has one,
        drops what it holds), take it out of ``manager`` (a Kivy ScreenManager) and give the memory back, before
        the next screen is built: the two are never in memory together (the peak of memory,
        bench/bench_memory.py). The same frame shows the next screen, so the emptied one is never drawn. The
        screen may have been kept (it was up when the heap was kept at start): everything is looked at, once,
        after the screen has left the manager, so the screen itself goes too, not only what it held (kept, it
        stayed in memory till a quiet table's pass, which a game of quick taps never reached)."""
        screen = manager.get_screen(name)
        drop = getattr(screen, "release", None)
        if drop is None:
            return
        drop()
        manager.remove_widget(screen)
        transition = getattr(manager, "transition", None)
        for end in ("screen_in", "screen_out"):  # the last switch's ends, read again only by the next switch
            if transition is not None and not transition.is_active and getattr(transition, end, None) is screen:
                setattr(transition, end, LEFT)
        del screen, drop  # nothing on this frame holds the screen while the collector looks
        give_back(everything=True)
        self.kept = frozenset(manager.screen_names)
