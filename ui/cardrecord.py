"""The NDEF record a boardbank card carries: what the card is (edition, kind, number), and its resolution.

The record (hardware/cards.md, "What a card says") is one NDEF record of MIME type
``application/vnd.boardbank.card`` whose payload is UTF-8 text, ``1 EDITION KIND [NUMBER]``: ``1`` the
version of this format, ``EDITION`` the edition id (``-`` for the cards every edition shares: bank cards
and the banker card), ``KIND`` one of player, deed, event, banker, and the number of a player, deed or
event card. Encoded and decoded with ndeflib; the reader only moves the bytes. ndeflib is imported when a
card's record is first encoded or decoded (about 1 MiB with its uuid and platform imports, which a table
of cards without records never needs: bench/bench_memory.py).

:func:`resolve` says what a tapped card is: its role in the installation's registry where it has one
(the source of truth), else the role its record names (then enrolled, so the next tap needs no read);
a card whose record and registry disagree is refused, both named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reader.registry import CardRegistry, RegistryError, Role, check_role

RECORD_TYPE = "application/vnd.boardbank.card"
FORMAT_VERSION = "1"
SHARED = "-"
"""The edition field of the cards every edition shares (bank cards, the banker card)."""
SHARED_KINDS = frozenset({"player", "banker"})


class CardRecordError(ValueError):
    """Bytes that are not a boardbank card record, or a record that names no role."""


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


def decode(message: bytes) -> CardRecord | None:
    """The boardbank record in the NDEF ``message``, None when it holds none (another app's data, or an
    empty tag); :class:`CardRecordError` for a boardbank record that cannot be read."""
    import ndef

    try:
        records = list(ndef.message_decoder(bytes(message)))
    except (ndef.DecodeError, ValueError):
        return None
    for record in records:
        if record.type != RECORD_TYPE:
            continue
        words = bytes(record.data).decode("utf-8", "replace").split()
        if len(words) not in (3, 4) or words[0] != FORMAT_VERSION or not words[1]:
            raise CardRecordError(f"expected '1 EDITION KIND [NUMBER]' in a {RECORD_TYPE} record, got {words}")
        number = None
        if len(words) == 4:
            if not words[3].isdigit():
                raise CardRecordError(f"expected a card number, got {words[3]!r}")
            number = int(words[3])
        try:
            check_role(words[2], number)
        except RegistryError as exc:
            raise CardRecordError(str(exc)) from None
        return CardRecord(words[1], words[2], number)
    return None


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a tap is: ``role`` (None: refused or unknown), ``source`` (registry / record / none) and, for a
    refusal, ``refusal`` (a message key) with ``params`` naming both sides."""

    role: Role | None
    source: str
    refusal: str = ""
    params: tuple[tuple[str, str], ...] = ()


def _role_text(role: Role) -> str:
    return role[0] if role[1] is None else f"{role[0]} {role[1]}"


def resolve(uid: str, message: bytes | None, registry: CardRegistry, edition: str) -> Resolution:
    """The role of the card ``uid`` whose NDEF ``message`` was read (None: not read) in a game of ``edition``.

    Registry first; a record that contradicts it is refused with both named (``error.card_record_disagrees``);
    a record alone gives the role and enrols it (so the registry learns the card); a record of another
    edition is refused (``error.card_other_edition``).
    """
    known = registry.lookup(uid)
    try:
        record = decode(message) if message else None
    except CardRecordError as exc:
        return Resolution(known, "registry" if known else "none", "" if known else "error.card_record_unreadable",
                          (("uid", uid), ("reason", str(exc))))
    if record is not None and record.edition not in (SHARED, edition):
        return Resolution(None, "record", "error.card_other_edition",
                          (("uid", uid), ("record", record.label()), ("edition", edition)))
    if known is not None:
        if record is not None and record.role != known:
            return Resolution(None, "registry", "error.card_record_disagrees",
                              (("uid", uid), ("registry", _role_text(known)), ("record", record.label())))
        return Resolution(known, "registry")
    if record is None:
        return Resolution(None, "none")
    holder = registry.holder(record.kind, record.number)
    if holder is not None:  # the registry gives that role to another card
        return Resolution(None, "registry", "error.card_record_disagrees",
                          (("uid", uid), ("registry", f"{_role_text(record.role)} is card {holder}"),
                           ("record", record.label())))
    try:
        registry.enroll(uid, record.kind, record.number)
    except RegistryError as exc:
        return Resolution(None, "record", "error.card_record_unreadable", (("uid", uid), ("reason", str(exc))))
    return Resolution(record.role, "record")


def card_resolver(banker: Any, registry: CardRegistry) -> Callable[[Any], Any]:
    """For the touch screen's controller: ``event`` (a CardPresented) -> a refusal Reaction of ``banker``'s
    view (the ``err`` cue, the refusal's key and params) or None when the banker should take the tap. The
    edition is the one the banker's view shows at the tap (setup may change it)."""
    from engine.banker.reaction import Reaction
    from engine.banker.viewmodel import Cue

    def verdict(event: Any) -> Any:
        resolution = resolve(event.uid, getattr(event, "record", None), registry, str(banker.view.edition))
        if not resolution.refusal:
            return None
        view = banker.view
        return Reaction((), (Cue.ERROR,), view.prompt, resolution.refusal, view, dict(resolution.params))

    return verdict
