"""Cards with memory for the simulators' ``tap`` (``python -m firmware_sim``; hardware/protocol.md, "Simulated
cards with memory").

``tap UID`` presents a card that has a UID and nothing else to read, as before. ``tap UID KIND [CONTENT]
[locked]`` presents a card with memory, kept by UID for the simulator's life (tapped again with ``tap UID``
it comes back with what was written on it):

* ``KIND``: ``ntag213``, ``ntag215``, ``ntag216`` (an NFC Forum Type 2 Tag, 7-byte UID) or ``classic`` (a
  MIFARE Classic 1K, 4-byte UID, new from the factory: transport keys);
* ``CONTENT``: ``blank`` (the default: an NTAG's empty NDEF message; a Classic without the MAD), a
  boardbank record's text in quotes (``"1 classic-us deed 7"``: the MIME record
  ``application/vnd.boardbank.card`` with that payload, as hardware/cards.md lays it out), or ``ndef:HEX``
  (any NDEF message, written as it is);
* ``locked``: the memory is then made read-only for good, as ``cards enroll --write --lock`` makes it.

The memory is the one the MFRC522 and PN532 simulators' cards keep (:mod:`firmware_sim.mfrc522_cards`,
:mod:`firmware_sim.classic_blocks`): the lock bits and access bits refuse what a real card refuses.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from firmware_sim.classic_blocks import ClassicMemory
from firmware_sim.mfrc522_cards import Card, ClassicCard, NtagCard
from reader import classic
from reader.events import normalize_uid

KINDS: dict[str, str] = {"ntag213": "NTAG213", "ntag215": "NTAG215", "ntag216": "NTAG216", "classic": "CLASSIC"}
RECORD_TYPE = b"application/vnd.boardbank.card"
USAGE = 'tap UID [ntag213|ntag215|ntag216|classic [blank|"RECORD TEXT"|ndef:HEX] [locked]]'


@dataclass(frozen=True, slots=True)
class TapSpec:
    """One ``tap`` line: the UID (normalized hex), and for a card with memory its kind, message, lock."""

    uid: str
    kind: str | None = None
    message: bytes | None = None
    locked: bool = False


def boardbank_record(text: str) -> bytes:
    """The NDEF message of one short MIME record ``application/vnd.boardbank.card`` with ``text`` (bytes as
    they are: the simulator writes what it is told, forged records included)."""
    payload = text.encode("utf-8")
    if len(payload) > 255:
        raise ValueError(f"a record text of at most 255 bytes, got {len(payload)}")
    return bytes([0xD2, len(RECORD_TYPE), len(payload)]) + RECORD_TYPE + payload


def parse_tap(line: str) -> TapSpec:
    """``tap`` and its words (see the module docstring); :class:`ValueError` naming the usage otherwise."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise ValueError(f"{exc}; expected {USAGE}") from None
    if len(words) < 2 or words[0].lower() != "tap" or len(words) > 5:
        raise ValueError(f"tap needs one UID (hex, 4/7/10 bytes), then what the card is: {USAGE}, got {line.strip()!r}")
    uid = normalize_uid(words[1])
    if len(words) == 2:
        return TapSpec(uid)
    kind = words[2].lower()
    if kind not in KINDS:
        raise ValueError(f"a card kind is one of {', '.join(KINDS)}, got {words[2]!r}; expected {USAGE}")
    if (kind == "classic") != (len(uid) == 8):
        raise ValueError(f"a {kind} card has a {'4' if kind == 'classic' else '7'}-byte UID, got {uid}")
    rest = words[3:]
    locked = bool(rest) and rest[-1].lower() == "locked"
    rest = rest[:-1] if locked else rest
    if len(rest) > 1:
        raise ValueError(f"expected {USAGE}, got {line.strip()!r}")
    content = rest[0] if rest else "blank"
    if content.lower() == "blank":
        message = None
    elif content.lower().startswith("ndef:"):
        try:
            message = bytes.fromhex(content[5:])
        except ValueError:
            raise ValueError(f"ndef: takes hex bytes, got {content!r}") from None
    else:
        message = boardbank_record(content)
    return TapSpec(uid, kind, message, locked)


def _classic_io(memory: ClassicMemory) -> tuple[classic.Auth, classic.Read, classic.Write]:
    """Authenticate / read / write a simulated Classic's blocks as a reader would (each under its key)."""
    state: dict[str, bool] = {}

    def auth(block: int, key_b: bool, key: bytes) -> bool:
        state["b"] = key_b
        return memory.key(block // 4, key_b) == key

    def read(block: int) -> bytes:
        data = memory.read(block, state.get("b", False))
        if data is None:
            raise classic.ClassicError(f"block {block} refused the read")
        return data

    def write(block: int, data: bytes) -> None:
        if not memory.write(block, data, state.get("b", False)):
            raise classic.ClassicError(f"block {block} refused the write")

    return auth, read, write


def store(memory: ClassicMemory, message: bytes | None, locked: bool) -> None:
    """Format a new Classic's memory with ``message`` in the NFC Forum layout (and lock it)."""
    if message is not None or locked:
        classic.write_ndef(*_classic_io(memory), message or b"", lock=locked, replace=True)


def make_card(spec: TapSpec) -> Card:
    """The card a ``tap`` with a kind presents (see the module docstring)."""
    uid = bytes.fromhex(spec.uid)
    if spec.kind == "classic":
        card = ClassicCard(uid)
        store(card.memory, spec.message, spec.locked)
        return card
    ntag = NtagCard(uid, KINDS[spec.kind or "ntag213"])
    if spec.message is not None:
        ntag.store_ndef(spec.message)
    if spec.locked:
        ntag.pages[2][2:4] = b"\xff\xff"  # static lock bytes: pages 3-15
        ntag.pages[ntag.dynamic_lock][0:3] = b"\xff\xff\xff"  # dynamic lock bytes: the rest of the data area
    return ntag


class CardShelf:
    """The cards with memory a simulator was given, by UID (kept across taps), and the bridge firmware's
    ``memory`` and ``classic`` callbacks on them (hardware/firmware/bridge_app.py)."""

    def __init__(self) -> None:
        self.cards: dict[str, Card] = {}

    def present(self, spec: TapSpec) -> Card | None:
        """The card a ``tap`` presents: a new one with a kind, the one kept under that UID without, or None
        (a card with a UID only)."""
        if spec.kind is not None:
            self.cards[spec.uid] = make_card(spec)
        return self.cards.get(spec.uid)

    def memory(self, op: str, uid: str, page: int, data: bytes | None) -> bytes | bool | None:
        """An NTAG's READ (16 bytes from ``page``, rolling over) or WRITE (one page; False if refused)."""
        card = self.cards.get(uid)
        if not isinstance(card, NtagCard) or not 0 <= page < len(card.pages):
            return None if op == "read" else False
        if op == "read":
            return b"".join(bytes(card.pages[(page + i) % len(card.pages)]) for i in range(4))
        return data is not None and card.write_page(page, data)

    def classic(self, op: str, uid: str, block: int, key_b: bool, key: bytes, data: bytes | None) -> bytes | bool | None:
        """A Classic's block read or written after authenticating its sector with ``key``."""
        card = self.cards.get(uid)
        memory = card.memory if isinstance(card, ClassicCard) else None
        if memory is None or memory.key(block // 4, key_b) != key:
            return None if op == "read" else False
        if op == "read":
            return memory.read(block, key_b)
        return data is not None and memory.write(block, data, key_b)
