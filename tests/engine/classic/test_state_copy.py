"""A classic state's copy (the undo checkpoints) is the state: every slot set, the mutable dicts its own."""

from __future__ import annotations

from engine.commands import PlayerSpec, StartGame
from engine.editions import load_edition
from engine.game import Game
from engine.rulesets.classic.state import _SLOTS


def test_copy_sets_every_slot_and_owns_its_dicts() -> None:
    game = Game(load_edition("classic-us"))
    game.apply(StartGame((PlayerSpec("p1"), PlayerSpec("p2")), seed=4))
    state = game.state
    copy = state.copy()
    assert all(getattr(copy, name) == getattr(state, name) for name in _SLOTS)
    for name in ("owner", "level", "jail", "held"):
        assert getattr(copy, name) is not getattr(state, name)
    assert copy.ledger.balances is not state.ledger.balances
    copy.owner[1] = "p1"
    assert 1 not in state.owner
