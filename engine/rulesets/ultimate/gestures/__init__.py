"""The Ultimate Banking ruleset's part of the banker: its rows of the transition table and the handlers
they name (docs/flows.md).

This sub-package is the ruleset's plug-in for the banker (engine/banker/): the banker loads it by the name
the ruleset record gives (``Ruleset.gestures``), and it is the only part of a ruleset that may import the
banker. The handler modules (``deeds``, ``actions``, ``cards``, ``auction``, ``debt``) are plain functions
``def name(ctx: Context, event: EventData)`` bound by name to the banker's context. The rows and handlers
(``rows.py``) are imported when the banker first asks for ``ROWS`` or ``HANDLERS``.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.rulesets.ultimate.gestures.view import VIEW as VIEW

__all__ = ["HANDLERS", "ROWS", "VIEW"]


def __getattr__(name: str) -> Any:
    """``ROWS`` and ``HANDLERS`` (engine/rulesets/ultimate/gestures/rows.py), imported when first asked for:
    the view hooks alone (``VIEW``, all ``boardbank replay`` reads) load none of the handlers, nor the banker's
    context and its state machine. Looked up by name, as the banker looks this package up (the seam of
    engine/banker/plugins.py): ``rows`` imports the handler modules of this package."""
    if name in ("ROWS", "HANDLERS"):
        return getattr(importlib.import_module(f"{__name__}.rows"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
