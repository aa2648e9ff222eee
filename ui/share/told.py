"""The one place the share asks what a journal entry means: :func:`tell`.

Today it says the entry with ui/share/payments.py (what the money was for, who paid whom, the entry's own
figures). The story module (ui/story: one sentence per journal entry in the table's language, and each
payment's receipt with its rule and arithmetic) is meant to take its place here, and only here: the page
shows whatever ``text`` and ``receipt`` this returns, computed on the unit in the phone's language. Its
receipts need the state before the entry; ``game_events`` is every event of the game the share holds, in
order (the entry among them), for that.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.banker.viewmodel import ViewModel
from ui.share.payments import Told, fallback


def tell(event: Any, game_events: Sequence[Any], view: ViewModel | None, lang: str) -> Told:
    """``event`` for a phone in ``lang``: its kind (what the money was for, "" for none), one line of text
    ("" for an entry a table need not see) and its receipt ("" for none). Amounts in the words are the
    edition's money, formatted as the unit's screen does; ``view`` names the players and places."""
    del game_events  # the story's receipts will fold them; the words of today need only the entry
    return fallback(event, view, lang)
