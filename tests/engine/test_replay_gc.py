"""Game.replay pauses the cyclic garbage collector during the fold and leaves it as it found it, also when
the events are damaged (docs/engine-api.md, the fold's speed)."""

from __future__ import annotations

import dataclasses
import gc

import pytest

from engine.editions import load_edition
from engine.errors import RecordError
from engine.game import Game
from engine.rulesets.ultimate.sim import GameRunner

ED = load_edition("ultimate-uk")


def _events() -> tuple[object, ...]:
    game = Game(ED)
    GameRunner(ED, 3, 5, game=game, check_invariants=False).play()
    return game.events


@pytest.mark.parametrize("enabled", [True, False])
def test_replay_restores_the_collector(enabled: bool) -> None:
    events = _events()
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert Game.replay(ED, events).events == events  # type: ignore[arg-type]
        assert gc.isenabled() is enabled
        damaged = (*events[:5], dataclasses.replace(events[5], seq=99), *events[6:])  # type: ignore[call-overload]
        with pytest.raises(RecordError):
            Game.replay(ED, damaged)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
