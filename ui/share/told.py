"""The one place the share asks what a journal entry means: :func:`tell`.

The words come from the story module (ui/story: one sentence per journal entry in the table's language, and
each payment's receipt with its rule, its arithmetic and the rule's source); ui/share/payments.py still gives
the entry's ``kind`` (what the money was for: the page lists only entries that moved money) and its words
when the page has no view yet. The receipts need the state before the entry, so a :class:`ReceiptBook` is
fed ``game_events`` (every event of the game the share holds, in order) as they grow; a shorter or another
list starts it afresh. Everything is computed on the unit, in the phone's language; the page only shows it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from engine.banker.viewmodel import ViewModel
from engine.receipts import Receipt, ReceiptBook
from ui.share.payments import Told, fallback
from ui.story.names import Names
from ui.story.receipts import receipt_text
from ui.story.sentences import sentence


class _Receipts:
    """The receipts of the events of the one game the share holds, folded once each, by ``seq``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: Sequence[Any] | None = None
        self._first: Any = None
        self._fed = 0
        self._book = ReceiptBook()
        self._by_seq: dict[int, Receipt | None] = {}

    def of(self, event: Any, game_events: Sequence[Any]) -> Receipt | None:
        """The receipt of ``event`` (one of ``game_events``), None where it moves no money."""
        with self._lock:
            first = game_events[0] if game_events else None
            if first is not self._first or len(game_events) < self._fed:
                self._first, self._fed, self._book, self._by_seq = first, 0, ReceiptBook(), {}
            if len(game_events) > self._fed:
                for done, receipt in self._book.add(list(game_events[self._fed:])):
                    self._by_seq[int(done.seq)] = receipt
                self._fed = len(game_events)
            return self._by_seq.get(int(event.seq))


_RECEIPTS = _Receipts()


def tell(event: Any, game_events: Sequence[Any], view: ViewModel | None, lang: str) -> Told:
    """``event`` for a phone in ``lang``: its kind (what the money was for, "" for none), one line of text
    ("" for an entry a table need not see) and its receipt ("" for none). Amounts in the words are the
    edition's money, formatted as the unit's screen does; ``view`` names the players and places."""
    words = fallback(event, view, lang)
    if view is None or not words.kind:
        return words
    names = Names.from_view(view, lang)
    receipt = _RECEIPTS.of(event, game_events)
    text = sentence(event, names, receipt) or words.text
    return Told(words.kind, text, receipt_text(receipt, names) if receipt is not None else words.receipt)
