"""``cards enroll ... --write [--lock] [--force]``: the card also gets the NDEF record that names it.

The record (:mod:`ui.cardrecord`: edition, kind, number) goes through the reader the card came on
(:meth:`reader.base.Reader.write_record`), which reads what the card holds first. The card is enrolled only
once its record is on it: a card whose record cannot be written is not enrolled, and the command exits
non-zero. Refused (status 2, nothing written, nothing enrolled): a locked card (read-only for good; even
``--force`` cannot change it), a card carrying another record (another role, another edition, another app's
data) unless ``--force``. A write the reader could not finish is status 4. A card that carries the very
record already is enrolled and left as it is. ``--lock`` makes the record read-only for good (asked for,
never by default). The refusals are said in the installation's language (:mod:`ui.cardtext`).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Protocol, TextIO

from reader.base import Reader, ReaderError, RecordRefused
from reader.registry import Card
from ui.cardrecord import CardRecordError, decode, encode, record_for
from ui.cardtext import render

WRITE_REFUSED = 2
"""Exit status: the card carries a locked or another record (nothing written, nothing enrolled)."""
WRITE_FAILED = 4
"""Exit status: the reader could not write the record (nothing enrolled)."""


class TapWaiter(Protocol):
    """What writing asks of ui/cli/cards.py's ``TapWaiter`` (which imports this module: typed by what it
    reads, so the two modules make no import circle): the reader the last card was tapped on."""

    @property
    def last_reader(self) -> Reader | None: ...


CardWriter = Callable[["TapWaiter", Card], int]
"""Writes a card's record (before it is enrolled) through the waiter's last reader; 0 when the card carries
it, else :data:`WRITE_REFUSED` or :data:`WRITE_FAILED` with the reason said on standard error."""


def says(current: bytes | None) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A key and params naming what a card's memory holds (``sticker.says*``), for a refusal's ``current``."""
    if not current:
        return "sticker.says_nothing", ()
    try:
        record = decode(current)
    except CardRecordError as exc:
        return "sticker.says_unreadable", (("reason_key", exc.key), *exc.params)
    if record is None:
        return "sticker.says_foreign", ()
    if record.kind == "banker":
        return "sticker.says_banker", ()
    params = (("kind_key", f"cardrole.{record.kind}"), ("number", str(record.number)))
    if record.edition == "-":
        return "sticker.says_shared", params
    return "sticker.says", (*params, ("record_edition_key", f"edition.{record.edition}"))


def refusal_text(exc: RecordRefused, lang: str) -> str:
    """The sentence for a refused write in ``lang``: "locked" for a locked card, else what it carries."""
    key, params = says(exc.current)
    current = render(key, params, lang)
    sentence = "cards.write_locked" if exc.locked else "cards.write_other"
    return render(sentence, (("uid", exc.uid), ("current", current)), lang)


def card_writer(args: argparse.Namespace, edition: str, out: TextIO, err: TextIO, as_json: bool,
                lang: str = "en") -> CardWriter | None:
    """The writer ``--write`` asks for (None without it); ``--lock`` locks each record after writing it,
    ``--force`` writes over another record; refusals in ``lang``."""
    if not getattr(args, "write", False):
        return None
    lock = bool(getattr(args, "lock", False))
    force = bool(getattr(args, "force", False))

    def fail(payload: dict[str, object], text: str, status: int) -> int:
        if as_json:
            out.write(json.dumps(payload, ensure_ascii=False) + "\n")
            out.flush()
        err.write(f"boardbank cards: {text}\n")
        err.flush()
        return status

    def write(waiter: TapWaiter, card: Card) -> int:
        record = record_for(edition, card.kind, card.value)
        reader = waiter.last_reader
        try:
            if reader is None:
                raise ReaderError("no reader to write through")
            reader.write_record(card.uid, encode(record), lock=lock, replace=force)
        except RecordRefused as exc:
            return fail({"refused": {"uid": card.uid, "locked": exc.locked}}, refusal_text(exc, lang),
                        WRITE_REFUSED)
        except ReaderError as exc:
            return fail({"failed": {"uid": card.uid, "error": str(exc)}},
                        render("cards.write_failed", (("uid", card.uid), ("error", str(exc))), lang), WRITE_FAILED)
        payload = {"written": {"uid": card.uid, "record": record.label(), "locked": lock}}
        out.write((json.dumps(payload) if as_json else
                   f"wrote {record.label()} on {card.uid}" + (" (locked)" if lock else "")) + "\n")
        out.flush()
        return 0

    return write
