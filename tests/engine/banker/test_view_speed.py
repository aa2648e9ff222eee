"""The banker's view built faster, and nothing else changed (bench/bench_banker.py measures the speed).

- ``view.actions`` is probed once per view, only for the triggers with rows in the state: it must be what
  asking ``may()`` trigger by trigger gives, and what the ``transitions`` machine's own ``may_<trigger>()``
  says, in every state of both rulesets.
- ``Context.check`` keeps the engine's answers per game state: a command applied (or undone) makes it ask
  again; a rebuilt game object is another game.
- The machine's rows are ``QuietTransition``: with the library's logger enabled for debug the same inputs
  give the same reactions (and the library logs as before).
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any

import pytest

from engine import commands as c
from engine.banker.quiet import QuietTransition
from engine.banker.tapscript import CardTable, ManualClock, run_script, steps_of
from engine.banker.view import ACTION_TRIGGERS
from engine.game import Game


def _pairs(path: Path, name: str) -> Any:
    """The pairs test module at ``path`` (its states' tap-script prefixes and ``make``)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


classic_pairs = _pairs(Path(__file__).parent / "test_classic_pairs.py", "speed_classic_pairs")
ultimate_pairs = _pairs(Path(__file__).parents[1] / "test_banker_pairs.py", "speed_ultimate_pairs")


def _one_by_one(banker: Any) -> tuple[str, ...]:
    """The view's actions as they were made before: ``may()`` asked trigger by trigger."""
    return tuple(t for t in ACTION_TRIGGERS if banker.may(t))


def _machine_says(banker: Any) -> tuple[str, ...]:
    """The triggers whose ``may_<trigger>()`` (the library's own) holds, probing as ``may()`` does."""
    said = []
    banker._probing = True
    try:
        for trigger in ACTION_TRIGGERS:
            probe = getattr(banker, f"may_{trigger}", None)
            if probe is not None and probe():
                said.append(trigger)
    finally:
        banker._probing = False
    return tuple(said)


@pytest.mark.parametrize("state", list(classic_pairs.PREFIX), ids=[s.value for s in classic_pairs.PREFIX])
def test_classic_view_actions_are_the_machines(state: object, tmp_path: Path) -> None:
    banker, _journal = classic_pairs.make(tmp_path, state)  # type: ignore[arg-type]
    view = banker.view
    assert view.actions == _one_by_one(banker) == _machine_says(banker), state
    assert banker.view == view  # probing changed nothing the screen shows


@pytest.mark.parametrize("state", list(ultimate_pairs.PREFIX), ids=[s.value for s in ultimate_pairs.PREFIX])
def test_ultimate_view_actions_are_the_machines(state: object, tmp_path: Path) -> None:
    banker, _clock, _journal = ultimate_pairs.make(tmp_path, state)  # type: ignore[arg-type]
    view = banker.view
    assert view.actions == _one_by_one(banker) == _machine_says(banker), state
    assert banker.view == view


def test_the_engines_answers_are_asked_again_after_a_command_and_after_undo(tmp_path: Path) -> None:
    banker, _journal = classic_pairs.make(tmp_path, classic_pairs.S.IDLE)
    ctx = banker.ctx
    command = c.EndTurn("p1")
    assert ctx.check(command) is None and ctx.check(command) is None  # asked, then kept
    assert ctx.allowed(command)
    ctx.apply(command)  # p1's turn has ended: the same command is refused now
    assert ctx.check(command) is not None and ctx.check(command) == ctx.game.check(command)
    ctx.apply(c.Undo())
    assert ctx.check(command) is None  # undone: asked again
    asked = []
    game = ctx.game
    real = Game.check

    def counting(self: Game, cmd: c.Command) -> object:
        asked.append(cmd)
        return real(self, cmd)

    Game.check = counting  # type: ignore[method-assign]
    try:
        ctx.check(command), ctx.check(command)
        assert asked == []  # kept for this state
        ctx.durable._game = Game.replay(game.edition, game.events)  # type: ignore[union-attr]
        ctx.check(command)
        assert asked == [command]  # another game object: asked again
    finally:
        Game.check = real  # type: ignore[method-assign]


def test_the_machines_rows_are_quiet_and_debug_logging_changes_nothing(tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    banker, _journal = classic_pairs.make(tmp_path, classic_pairs.S.IDLE)
    assert all(isinstance(t, QuietTransition) for e in banker.machine.events.values()
               for rows in e.transitions.values() for t in rows)
    script = ["tap 000000A1", "press go", "tap 00000103", "tap 000000A2", "press build", "tap 000000A1",
              "press sell", "press cancel", "press luxury_tax", "tap 000000A1"]
    said = []
    for level in (logging.WARNING, logging.INFO, logging.DEBUG):
        (tmp_path / str(level)).mkdir()
        fresh, _ = classic_pairs.make(tmp_path / str(level), classic_pairs.S.IDLE)
        caplog.clear()
        with caplog.at_level(level, logger="transitions.core"):
            reactions = run_script(steps_of(script), fresh, ManualClock(), CardTable().enroll)
        said.append([(r.error, tuple(type(e).__name__ for e in r.events), r.prompt, r.view.actions, r.view.state)
                     for r in reactions])
        logged = [r for r in caplog.records if r.name == "transitions.core" and r.levelno <= logging.INFO]
        assert bool(logged) is (level <= logging.INFO)
    assert said[0] == said[1] == said[2]
