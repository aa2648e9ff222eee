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


@pytest.mark.parametrize("cls", EVENTS, ids=lambda cls: cls.__qualname__)
def test_the_makers_make_the_same_events(cls: type) -> None:
    """``MAKERS[cls](seq, command, fields)`` (what ``Game.emit`` calls) is exactly ``cls(seq, command,
    *fields)``: the same type, fields, equality, hash and repr, and frozen afterwards; it refuses a missing
    or extra field."""
    from engine.frozen import MAKERS
    if _compiled(cls):
        pytest.skip("a compiled event is made by calling it")
    maker = MAKERS[cls]
    names = [f.name for f in dataclasses.fields(cls)]
    values = [f"v{i}" for i in range(len(names))]
    made, called = maker(values[0], values[1], tuple(values[2:])), cls(*values)
    assert type(made) is cls
    assert made == called and hash(made) == hash(called) and repr(made) == repr(called)
    assert [getattr(made, n) for n in names] == values
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.seq = 5  # type: ignore[attr-defined]
    with pytest.raises((TypeError, ValueError)):
        maker(values[0], values[1], tuple(values[2:-1]) if len(values) > 2 else ())
    with pytest.raises((TypeError, ValueError)):
        maker(values[0], values[1], (*values[2:], 99))


def test_game_emits_through_the_makers() -> None:
    """A game's emitted events are the frozen classes themselves (not their makers)."""
    from engine.commands import PlayerSpec, StartGame
    from engine.editions import load_edition
    from engine.game import Game
    game = Game(load_edition("ultimate-uk"))
    events = game.apply(StartGame((PlayerSpec("p1"), PlayerSpec("p2")), seed=3))
    assert events and all(type(e) in ULTIMATE_FOLD for e in events)
