"""``cards enroll ... --write [--lock]``: the enrolled card also gets the NDEF record that names it.

The record (:mod:`ui.cardrecord`: edition, kind, number) goes through the reader the card came on
(:meth:`reader.base.Reader.write_record`); with ``--lock`` the card's memory is made read-only for good
(asked for, never by default). A card that cannot be written stays enrolled: the line says why, and the
registry still knows it; only another unit would not.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Protocol, TextIO

from reader.base import Reader, ReaderError
from reader.registry import Card
from ui.cardrecord import encode, record_for


class TapWaiter(Protocol):
    """What writing asks of ui/cli/cards.py's ``TapWaiter`` (which imports this module: typed by what it
    reads, so the two modules make no import circle): the reader the last card was tapped on."""

    @property
    def last_reader(self) -> Reader | None: ...


CardWriter = Callable[["TapWaiter", Card], bool]
"""Writes an enrolled card's record through the waiter's last reader; True when written."""


def card_writer(args: argparse.Namespace, edition: str, out: TextIO, err: TextIO, as_json: bool) -> CardWriter | None:
    """The writer ``--write`` asks for (None without it); ``--lock`` locks each record after writing it."""
    if not getattr(args, "write", False):
        return None
    lock = bool(getattr(args, "lock", False))

    def write(waiter: TapWaiter, card: Card) -> bool:
        record = record_for(edition, card.kind, card.value)
        reader = waiter.last_reader
        try:
            if reader is None:
                raise ReaderError("no reader to write through")
            reader.write_record(card.uid, encode(record), lock=lock)
        except ReaderError as exc:
            err.write(f"boardbank cards: {card.uid} enrolled, but its record was not written: {exc}\n")
            return False
        payload = {"written": {"uid": card.uid, "record": record.label(), "locked": lock}}
        out.write((json.dumps(payload) if as_json else
                   f"wrote {record.label()} on {card.uid}" + (" (locked)" if lock else "")) + "\n")
        out.flush()
        return True

    return write
