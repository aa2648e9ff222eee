"""``boardbank export DB --format story``: a game's journal told one line per entry, in a language.

Each line is ``seq<TAB>sentence`` for every event that has one (:mod:`ui.story.sentences`); with receipts,
each money entry is followed by a line ``seq<TAB>= receipt`` (rule, arithmetic and source). The journal is
only read. Amounts are shown in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TextIO

from engine.receipts import walk
from ui.story.names import Names
from ui.story.receipts import receipt_text
from ui.story.sentences import sentence


def story_lines(game: Any, lang: str, receipts: bool = False) -> Iterator[str]:
    """The lines of the story of ``game`` (an :class:`engine.game.Game`) in ``lang``."""
    names = Names.from_game(game, lang)
    for event, receipt in walk(game.edition, game.events):
        text = sentence(event, names, receipt)
        if text:
            yield f"{event.seq}\t{text}"
        if receipts and receipt is not None:
            yield f"{event.seq}\t= {receipt_text(receipt, names)}"


def export_story(game: Any, lang: str, out: TextIO, receipts: bool = False) -> int:
    """Write the story of ``game`` to ``out``; return the number of lines."""
    count = 0
    for line in story_lines(game, lang, receipts):
        out.write(line + "\n")
        count += 1
    return count
