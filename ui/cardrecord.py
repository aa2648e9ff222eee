"""The NDEF record a boardbank card carries: what the card is (edition, kind, number), and its resolution.

The record (hardware/cards.md, "What a card says") is one NDEF record of MIME type
``application/vnd.boardbank.card`` whose payload is ASCII text, ``1 EDITION KIND [NUMBER]``, read by the
strict grammar of :mod:`ui.cardgrammar` (``-`` for the edition of bank and banker cards and only theirs,
the number in ASCII digits without a leading zero). Encoded and decoded with ndeflib; the reader only moves
the bytes. ndeflib is imported when a card's record is first encoded or decoded (about 1 MiB with its uuid
and platform imports, which a table of cards without records never needs: bench/bench_memory.py).

:func:`resolve` says what a tapped card is: its role in the installation's registry where it has one
(the source of truth), else the role its record names (then enrolled, so the next tap needs no read).
Refused, each with a catalog key whose parameters name both sides: a record that contradicts the registry,
a record naming a role the registry gives another card, a record of another edition, a record outside
the grammar, and a record saying "banker" on a card the registry does not know as the banker card (the
banker card is enrolled only through the banker's own enrolment, never by what a sticker says).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reader.registry import CardRegistry, RegistryError, Role, check_role
from ui.cardgrammar import FORMAT_VERSION, SHARED, SHARED_KINDS, GrammarError, kind_key, parse

RECORD_TYPE = "application/vnd.boardbank.card"
__all__ = ["FORMAT_VERSION", "RECORD_TYPE", "SHARED", "CardRecord", "CardRecordError", "Resolution",
           "card_resolver", "decode", "encode", "record_for", "resolve"]


class CardRecordError(GrammarError):
    """A boardbank record outside the grammar (:mod:`ui.cardgrammar`): ``key`` and ``params`` say why."""


@dataclass(frozen=True, slots=True)
class CardRecord:
    """What a card says it is: ``edition`` (``-`` for bank and banker cards), ``kind``, ``number``."""

    edition: str
    kind: str
    number: int | None

    @property
    def role(self) -> Role:
        return (self.kind, self.number)

    def label(self) -> str:
        """``classic-uk deed 3``, ``player 2``, ``banker``."""
        role = self.kind if self.number is None else f"{self.kind} {self.number}"
        return role if self.edition == SHARED else f"{self.edition} {role}"


def record_for(edition: str, kind: str, number: int | None) -> CardRecord:
    """The record of role (``kind``, ``number``) in ``edition`` (bank and banker cards: shared)."""
    check_role(kind, number)
    return CardRecord(SHARED if kind in SHARED_KINDS else edition, kind, number)


def encode(record: CardRecord) -> bytes:
    """The NDEF message (one MIME record) holding ``record``."""
    import ndef

    words = [FORMAT_VERSION, record.edition, record.kind] + ([] if record.number is None else [str(record.number)])
    return b"".join(ndef.message_encoder([ndef.Record(RECORD_TYPE, "", " ".join(words).encode())]))


def _editions() -> list[str]:
    from engine.editions import list_editions

    return list_editions()


def decode(message: bytes) -> CardRecord | None:
    """The boardbank record in the NDEF ``message``, None when it holds none (another app's data, or an
    empty tag); :class:`CardRecordError` for a boardbank record outside the grammar."""
    import ndef

    try:
        records = list(ndef.message_decoder(bytes(message)))
    except (ndef.DecodeError, ValueError):
        return None
    for record in records:
        if record.type != RECORD_TYPE:
            continue
        try:
            parsed = parse(bytes(record.data), _editions())
        except GrammarError as exc:
            raise CardRecordError(exc.key, str(exc), **dict(exc.params)) from None
        return CardRecord(parsed.edition, parsed.kind, parsed.number)
    return None


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a tap is: ``role`` (None: refused or unknown), ``source`` (registry / record / none) and, for a
    refusal, ``refusal`` (a catalog key) with ``params`` naming both sides (``*_key`` params are catalog
    keys themselves, rendered in the reader's language: :func:`ui.cardtext.render`)."""

    role: Role | None
    source: str
    refusal: str = ""
    params: tuple[tuple[str, str], ...] = ()


def _said(record: CardRecord) -> tuple[tuple[str, str], ...]:
    """The parameters naming what a record says: ``kind_key`` (its noun's catalog key) and ``number``."""
    return (("kind_key", kind_key(record.kind)), ("number", "" if record.number is None else str(record.number)))


def _beyond_edition(record: CardRecord) -> int:
    """The edition's count of the record's kind when its number is beyond it (a deed or event card whose
    record names the game's edition), else 0. The grammar checks the largest of any edition."""
    if record.edition == SHARED or record.number is None:
        return 0
    from engine.editions import load_edition

    edition = load_edition(record.edition)
    count = len(edition.deeds) if record.kind == "deed" else len(edition.events)
    return count if record.number > count else 0


def resolve(uid: str, message: bytes | None, registry: CardRegistry, edition: str) -> Resolution:
    """The role of the card ``uid`` whose NDEF ``message`` was read (None: not read) in a game of ``edition``.

    Registry first. Refused (``role`` None, both sides named in ``params``): ``error.sticker_unreadable``
    (``reason_key``: the grammar's ``cardrecord.*``), ``error.sticker_other_edition``,
    ``error.sticker_banker`` (a record saying banker on a card not enrolled as the banker card),
    ``error.sticker_disagrees`` (the registry knows the card as something else) and
    ``error.sticker_role_taken`` (the registry gives that role to another card); a deed or event number
    beyond the game edition's own count is ``error.sticker_unreadable`` too (``cardrecord.number_range``).
    A record alone otherwise gives the role and enrols it, so the registry learns the card.
    """
    known = registry.lookup(uid)
    try:
        record = decode(message) if message else None
    except CardRecordError as exc:
        if known is not None:  # the registry decides; an unreadable sticker does not stop a known card
            return Resolution(known, "registry")
        return Resolution(None, "none", "error.sticker_unreadable", (("uid", uid), ("reason_key", exc.key),
                                                                     *exc.params))
    if record is None:
        return Resolution(known, "registry" if known is not None else "none")
    if record.edition not in (SHARED, edition):
        return Resolution(None, "record", "error.sticker_other_edition",
                          (("uid", uid), *_said(record), ("record_edition_key", f"edition.{record.edition}"),
                           ("edition", edition)))
    beyond = _beyond_edition(record)
    if beyond:  # deed 25 of an edition of 22 deeds: no such card in this game's box
        return Resolution(None, "none", "error.sticker_unreadable",
                          (("uid", uid), ("reason_key", "cardrecord.number_range"), ("kind_key", kind_key(record.kind)),
                           ("word", str(record.number)), ("limit", str(beyond))))
    if record.kind == "banker" and known != record.role:
        return Resolution(None, "record", "error.sticker_banker", (("uid", uid),))
    if known is not None:
        if record.role == known:
            return Resolution(known, "registry")
        if known[0] == "banker":
            return Resolution(None, "registry", "error.sticker_disagrees_banker", (("uid", uid), *_said(record)))
        return Resolution(None, "registry", "error.sticker_disagrees",
                          (("uid", uid), *_said(record), ("known_kind_key", kind_key(known[0])),
                           ("known_number", str(known[1]))))
    holder = registry.holder(record.kind, record.number)
    if holder is not None:  # the registry gives that role to another card
        return Resolution(None, "registry", "error.sticker_role_taken", (("uid", uid), *_said(record),
                                                                         ("holder", holder)))
    try:
        registry.enroll(uid, record.kind, record.number)
    except RegistryError:  # taken between the look-up and the write (another thread): the same refusal
        return Resolution(None, "registry", "error.sticker_role_taken",
                          (("uid", uid), *_said(record), ("holder", registry.holder(record.kind, record.number) or "")))
    return Resolution(record.role, "record")


def card_resolver(banker: Any, registry: CardRegistry,
                  enrolling: Callable[[], bool] | None = None) -> Callable[[Any], Any]:
    """For the touch screen's controller: ``event`` (a CardPresented) -> a refusal Reaction of ``banker``'s
    view (the ``err`` cue, the refusal's key and params) or None when the banker should take the tap. The
    edition is the one the banker's view shows at the tap (setup may change it). While ``enrolling()`` (the
    menu's card enrolment runs) every tap is left to the enrolment, which gives the card its role."""
    from engine.banker.reaction import Reaction
    from engine.banker.viewmodel import Cue

    def verdict(event: Any) -> Any:
        if enrolling is not None and enrolling():
            return None
        resolution = resolve(event.uid, getattr(event, "record", None), registry, str(banker.view.edition))
        if not resolution.refusal:
            return None
        view = banker.view
        return Reaction((), (Cue.ERROR,), view.prompt, resolution.refusal, view, dict(resolution.params))

    return verdict
