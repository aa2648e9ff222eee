"""The handlers the transition table names, grouped by concern: modules of plain functions
``def name(ctx: Context, event: EventData)`` (conditions return a bool, callbacks None).

:data:`SHARED_HANDLERS` serve every ruleset (setup, the banker menu, leaving a gesture, following the
engine's phase, a deed's landing (buy, decline, rent, the lander's card), the end of an auction, the dice pad when the unit keeps the tokens); a ruleset's own gestures are in its banker plug-in (engine/banker/plugins.py). The
:class:`~engine.banker.machine.Banker` binds every public function defined in these modules to its
context, under the function's name (a name defined twice is an error).
"""

from __future__ import annotations

from types import ModuleType

from engine.banker.gestures import auction, common, deeds, dice, menu, setup

SHARED_HANDLERS: tuple[ModuleType, ...] = (setup, menu, common, deeds, auction, dice)
"""Handler modules of the shared rows (:data:`engine.banker.table.SHARED_ROWS`)."""
