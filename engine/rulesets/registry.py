"""The ruleset registry: the one place that knows which rulesets exist.

An edition file names its ruleset (``ruleset = "ultimate"``); :func:`get_ruleset` turns the name into the
:class:`~engine.rulesets.api.Ruleset` that the ruleset's package exports as ``RULESET``. The game, the
banker, the simulator and the journal's record codec ask it, so adding a ruleset is a new folder under
``engine/rulesets/`` and one line in :data:`RULESETS`. Rulesets are imported lazily (the first time a game
of that ruleset is made), so importing the registry imports no ruleset.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Protocol

from engine.errors import EditionError
from engine.rulesets.api import Ruleset


class Edition(Protocol):
    """What the registry reads of an edition (engine/editions.py's, which imports this module)."""

    @property
    def ruleset(self) -> str: ...

RULESETS: dict[str, str] = {
    "ultimate": "engine.rulesets.ultimate.ruleset",
    "classic": "engine.rulesets.classic.ruleset",
}
"""Ruleset name -> the module exporting ``RULESET``."""

WITH_GESTURES: frozenset[str] = frozenset({"ultimate", "classic"})
"""The rulesets whose ``RULESET`` names gestures for the banker (:attr:`Ruleset.gestures`), known without
importing them: the banker's setup lists their editions, and a table playing one ruleset then imports no
other (tests/engine/test_editions.py checks the set against every ruleset)."""


@cache
def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; :class:`EditionError` for a name no registry line has."""
    if name not in RULESETS:
        raise EditionError(f"unknown ruleset {name!r}; expected one of {sorted(RULESETS)}")
    ruleset = importlib.import_module(RULESETS[name]).RULESET
    if not isinstance(ruleset, Ruleset) or ruleset.name != name:
        raise EditionError(f"ruleset package {RULESETS[name]} does not export RULESET named {name!r}")
    return ruleset


def ruleset_of(edition: Edition) -> Ruleset:
    """The ruleset ``edition`` is played by."""
    return get_ruleset(edition.ruleset)


def ruleset_names() -> tuple[str, ...]:
    """Every registered ruleset name, sorted."""
    return tuple(sorted(RULESETS))
