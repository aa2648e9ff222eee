"""No collector pause of the whole heap between two taps (bench/bench_ui.py measured 75-350 ms full passes
during its taps, the latency's worst): the start-up heap is kept out of the collector's automatic passes
(``memory.keep``: ``gc.freeze``), with the resident screens once built; a dropped screen's memory is still given
back: a short pass frees a screen built after that, at once, and only a screen that was kept gets the pass over
everything (``memory.Keeper``), once no input came for ``memory.QUIET_S``."""

from __future__ import annotations

import gc
import time
import weakref
from types import SimpleNamespace
from typing import Any

import pytest

from ui.touch import memory


class _Cycle:
    """An object in a reference cycle with itself: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def _unfrozen() -> Any:
    yield
    gc.unfreeze()  # the rest of the test session collects as before


def test_keep_takes_the_heap_out_of_the_automatic_passes() -> None:
    memory.keep()
    assert gc.get_freeze_count() > 1000
    assert gc.get_count()[0] < 50  # nothing left in the youngest generation to walk


def test_give_back_of_everything_frees_a_cycle_that_was_kept() -> None:
    probe = _Cycle()
    ref = weakref.ref(probe)
    memory.keep()  # the cycle is kept out of the collector's way while it is in use...
    del probe
    gc.collect()  # ...so even a full pass leaves it once it is garbage
    assert ref() is not None
    memory.give_back()  # the short pass does not look at it either
    assert ref() is not None
    memory.give_back(everything=True)  # a kept screen dropped: everything is looked at again, then kept
    assert ref() is None
    assert gc.get_freeze_count() > 1000


def test_the_short_pass_frees_what_came_after_the_keep() -> None:
    memory.keep()
    frozen = gc.get_freeze_count()
    probe = _Cycle()
    ref = weakref.ref(probe)
    alive = [_Cycle() for _ in range(2000)]  # made after the keep, still in use
    del probe
    memory.give_back()
    assert ref() is None
    assert gc.get_freeze_count() < frozen + len(alive) - 100  # what came after is not kept by the short pass
    memory.give_back(everything=True)
    assert gc.get_freeze_count() >= len(alive)  # the pass over everything keeps what is left again


def test_the_keeper_walks_everything_only_for_a_dropped_kept_screen_on_a_quiet_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    passes: list[bool] = []
    monkeypatch.setattr(memory, "give_back", lambda everything=False: passes.append(everything))
    keeper = memory.Keeper()
    keeper.keep(["setup", "table"])
    keeper.dropped("dice")  # built after the keep
    assert keeper.give_back(["table", "build"], quiet=True) is False
    keeper.dropped("table")  # up when the heap was kept
    assert keeper.give_back(["build"], quiet=False) is True  # a tap just came: the short pass, ask again
    assert keeper.give_back(["build"], quiet=True) is False
    assert passes == [False, False, True]
    assert keeper.kept == {"build"}  # kept again with the pass over everything
    keeper.dropped("build")
    assert keeper.give_back([], quiet=True) is False
    assert passes == [False, False, True, True]


def test_the_app_asks_again_for_a_kept_screen_once_the_table_is_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.touch.screens import root

    passes: list[bool] = []
    later: list[float] = []
    monkeypatch.setattr(memory, "give_back", lambda everything=False: passes.append(everything))
    monkeypatch.setattr(root.Clock, "schedule_once", lambda fn, after: later.append(after))
    sm = SimpleNamespace(transition=None, screens=[], screen_names=["table"])
    app = SimpleNamespace(root=SimpleNamespace(ids=SimpleNamespace(sm=sm)), keeper=memory.Keeper(),
                          controller=SimpleNamespace(last_input=time.monotonic()))
    app.keeper.keep(["table", "event"])
    app.keeper.dropped("event")
    root.BoardBankApp._give_back(app)  # type: ignore[arg-type]
    assert passes[-1] is False and later == [memory.QUIET_S]  # a tap just now: the short pass, then later
    app.controller.last_input = time.monotonic() - memory.QUIET_S - 0.1
    root.BoardBankApp._give_back(app)  # type: ignore[arg-type]
    assert passes[-1] is True and later == [memory.QUIET_S]
