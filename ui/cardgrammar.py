"""The grammar of a boardbank card's record (hardware/cards.md, "The record's grammar"), strict.

The payload of the ``application/vnd.boardbank.card`` NDEF record is ASCII text, the words separated by
one space each, nothing before or after::

    record  = "1" SP edition SP kind [SP number]
    edition = "-"                                  with kind player or banker (the cards every edition shares)
            | an edition id this unit knows        with kind deed or event (``classic-us``, ``ultimate-uk`` ...)
    kind    = "player" | "deed" | "event" | "banker"
    number  = ASCII digits, the first not 0         with player, deed, event; within the kind's range;
                                                    none with banker

Anything else is refused with :class:`GrammarError`, whose ``key`` (``cardrecord.*``) and ``params`` say
what was wrong in the catalogs' words (never an English sentence glued into another language's): a
full-width or Arabic-Indic digit, a leading zero (``010``), ``-`` on a deed or event card, an edition named
on a bank or banker card, an unknown kind or edition, a number out of range or missing or extra.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from reader.registry import KIND_LIMITS

FORMAT_VERSION = "1"
SHARED = "-"
"""The edition field of the cards every edition shares (bank cards, the banker card)."""
SHARED_KINDS = frozenset({"player", "banker"})
"""The kinds whose record names no edition (``-``): a bank card or the banker card serves every edition."""
EDITION_KINDS = frozenset({"deed", "event"})
"""The kinds whose record always names its edition: a deed or an event card belongs to one edition's box."""
_NUMBER = re.compile(r"[1-9][0-9]*")
_EDITION_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class GrammarError(ValueError):
    """A payload outside the grammar: ``key`` (a catalog key, ``cardrecord.*``) and ``params`` say why."""

    def __init__(self, key: str, message: str, **params: str) -> None:
        super().__init__(message)
        self.key = key
        self.params: tuple[tuple[str, str], ...] = tuple(params.items())


@dataclass(frozen=True, slots=True)
class Parsed:
    """A payload that follows the grammar: ``edition`` (``-`` for bank and banker cards), ``kind``,
    ``number`` (None for the banker card)."""

    edition: str
    kind: str
    number: int | None


def kind_key(kind: str) -> str:
    """The catalog key of a card kind's noun in a sentence ("deed", "event card", "bank card")."""
    return f"cardrole.{kind}"


def parse(payload: bytes, editions: Iterable[str]) -> Parsed:
    """The payload's fields, checked against the grammar above and the known ``editions``; else
    :class:`GrammarError`."""
    text = bytes(payload).decode("utf-8", "replace")
    if not text.isascii():  # a full-width "３", an Arabic-Indic digit, a Cyrillic letter ...
        word = next(w for w in [*text.split(), text] if not w.isascii())
        raise GrammarError("cardrecord.not_ascii", f"{word!r} is not ASCII: a card's record is ASCII text",
                           word=word)
    words = text.split(" ")
    if not 3 <= len(words) <= 4 or not all(words) or not text.isprintable():
        raise GrammarError("cardrecord.shape", f"expected '1 EDITION KIND [NUMBER]', got {text!r}", text=text)
    version, edition, kind = words[:3]
    if version != FORMAT_VERSION:
        raise GrammarError("cardrecord.version", f"format version {version!r} is not known (expected 1)",
                           word=version)
    if kind not in KIND_LIMITS:
        raise GrammarError("cardrecord.kind", f"{kind!r} is not a card kind (player, deed, event, banker)",
                           word=kind)
    if kind in SHARED_KINDS and edition != SHARED:
        raise GrammarError("cardrecord.edition_named", f"a {kind} card names no edition ('-'), got {edition!r}",
                           kind_key=kind_key(kind), word=edition)
    if kind in EDITION_KINDS:
        if edition == SHARED:
            raise GrammarError("cardrecord.edition_missing", f"a {kind} card names its edition, got '-'",
                               kind_key=kind_key(kind))
        if not _EDITION_ID.fullmatch(edition) or edition not in set(editions):
            raise GrammarError("cardrecord.edition_unknown", f"{edition!r} is not an edition this unit knows",
                               word=edition)
    limit = KIND_LIMITS[kind]
    if limit is None:
        if len(words) == 4:
            raise GrammarError("cardrecord.number_extra", f"the {kind} card has no number, got {words[3]!r}",
                               kind_key=kind_key(kind), word=words[3])
        return Parsed(edition, kind, None)
    if len(words) == 3:
        raise GrammarError("cardrecord.number_missing", f"the {kind} card's number is missing",
                           kind_key=kind_key(kind))
    word = words[3]
    if not _NUMBER.fullmatch(word):  # ASCII digits only (no "３"), no leading zero ("010"), no sign
        raise GrammarError("cardrecord.number_form", f"{word!r} is not a card number (digits 0-9, no leading 0)",
                           word=word)
    number = int(word)
    if number > limit:
        raise GrammarError("cardrecord.number_range", f"{kind} numbers go 1..{limit}, got {word}",
                           kind_key=kind_key(kind), word=word, limit=str(limit))
    return Parsed(edition, kind, number)
