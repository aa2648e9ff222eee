"""The events' quicker ``__init__`` (engine/frozen.py) changes nothing but speed: every event of both rulesets
takes the same arguments, by position or name, refuses a missing or extra one, and stays frozen."""

from __future__ import annotations

import dataclasses
import sys

import pytest

from engine.rulesets.classic.fold import FOLD as CLASSIC_FOLD
from engine.rulesets.ultimate.fold import FOLD as ULTIMATE_FOLD

EVENTS = sorted({*CLASSIC_FOLD, *ULTIMATE_FOLD}, key=lambda cls: cls.__qualname__)


def _compiled(cls: type) -> bool:
    """Whether ``cls`` comes from a module compiled by mypyc (``make fast``): its own typed, native
    ``__init__`` is kept."""
    return not str(getattr(sys.modules[cls.__module__], "__file__", "")).endswith(".py")


@pytest.mark.parametrize("cls", EVENTS, ids=lambda cls: cls.__qualname__)
def test_event_construction_and_frozenness_unchanged(cls: type) -> None:
    if _compiled(cls):
        pytest.skip("a compiled event keeps mypyc's typed __init__")
    names = [f.name for f in dataclasses.fields(cls)]
    values = list(range(len(names)))
    by_position, by_name = cls(*values), cls(**dict(zip(names, values, strict=True)))
    assert by_position == by_name and hash(by_position) == hash(by_name)
    assert [getattr(by_position, n) for n in names] == values
    assert repr(by_position).startswith(f"{cls.__name__}(seq=0, command=1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        by_position.seq = 5  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        cls(*values[:-1])
    with pytest.raises(TypeError):
        cls(*values, 99)


def test_the_events_are_quickened() -> None:
    """Plain Python events get the slot setters' __init__ (a compiled build keeps its native one)."""
    from engine import events as ev
    if not _compiled(ev.SalaryPaid):
        assert "_set_seq" in ev.SalaryPaid.__init__.__code__.co_varnames
