"""No collector pause of the whole heap between two taps (bench/bench_ui.py measured 75-350 ms full passes
during its taps, the latency's worst): the start-up heap is kept out of the collector's automatic passes
(``memory.keep``: ``gc.freeze``), a dropped screen's memory is still given back (``memory.give_back`` looks at
everything again), and that full pass waits until no input came for ``memory.QUIET_S``."""

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


def test_give_back_frees_a_cycle_that_was_kept() -> None:
    probe = _Cycle()
    ref = weakref.ref(probe)
    memory.keep()  # the cycle is kept out of the collector's way while it is in use...
    del probe
    gc.collect()  # ...so even a full pass leaves it once it is garbage
    assert ref() is not None
    memory.give_back()  # a dropped screen: everything is looked at again, then kept
    assert ref() is None


def test_the_full_pass_waits_for_a_quiet_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.touch.screens import root

    given: list[str] = []
    later: list[float] = []
    monkeypatch.setattr(memory, "give_back", lambda: given.append("now"))
    monkeypatch.setattr(root.Clock, "schedule_once", lambda fn, after: later.append(after))
    sm = SimpleNamespace(transition=None, screens=[])
    app = SimpleNamespace(root=SimpleNamespace(ids=SimpleNamespace(sm=sm)),
                          controller=SimpleNamespace(last_input=time.monotonic()))
    app._give_back = lambda: root.BoardBankApp._give_back(app)  # type: ignore[attr-defined]
    root.BoardBankApp._give_back(app)  # type: ignore[arg-type]
    assert given == [] and later == [root.GIVE_BACK_AFTER_S]  # a tap just now: later
    app.controller.last_input = time.monotonic() - memory.QUIET_S - 0.1
    root.BoardBankApp._give_back(app)  # type: ignore[arg-type]
    assert given == ["now"] and len(later) == 1
