"""The card registry: which role each physical card (UID) plays at the table.

A role is a plain ``(kind, value)`` pair: ``("player", 1..8)`` for a bank card, ``("deed", N)`` for a title
deed, ``("event", N)`` for an event card and ``("banker", None)`` for the banker's card. The banker
receives the role as it is stored: a tapped deed card is ``tap_deed`` with its number, an event card
``tap_event`` with its number. The numbers are the edition's (engine/editions/*.toml):

* a deed's value is its ``number`` in the edition: 1..22 in Ultimate Banking, 1..28 in the classic game
  (board order, railroads and utilities included);
* an event card's value is its ``id`` in the edition: 1..23 for the Ultimate Banking event cards; in the
  classic game 1..32, the ``[[cards]]`` ids: Chance card n (labelled "Cn", n = 1..16) is id n, Community
  Chest card n ("CCn", n = 1..16) is id 16 + n. The classic banker maps the id to the card drawn.

The registry knows no game rule and no edition: it checks a value against the largest of any edition
(:data:`KIND_LIMITS`), the caller narrows it to its edition (:class:`EnrollmentGuide` walks one box). It
never imports the engine. The roles live in the installation's SQLite file, next to the journal, in their
own table (``card_registry``); a card keeps its role across games.

Rules of the registry:

* a UID has at most one role; enrolling it for another role is refused (:class:`RegistryError`);
* a role is held by at most one card; enrolling a second card for a taken role is refused unless
  ``replace=True`` (a lost card is replaced by a new one);
* enrolling a UID again for the role it already has is a no-op.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from reader.events import normalize_uid

Role = tuple[str, int | None]
"""A card's role: ``(kind, value)``; ``value`` is None only for the banker card."""

KIND_LIMITS: dict[str, int | None] = {"player": 8, "deed": 28, "event": 32, "banker": None}
"""Known kinds and the highest value of each over every edition (``None``: the kind has no value): 8 bank
cards, 28 deeds and 32 event cards (the classic game; Ultimate Banking has 22 and 23)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS card_registry (
    uid   TEXT PRIMARY KEY,
    kind  TEXT NOT NULL,
    value INTEGER,
    UNIQUE (kind, value)
)
"""


class RegistryError(ValueError):
    """A registry request that cannot be honoured (bad role, UID taken, unknown UID)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One enrolled card: its normalized ``uid`` and its role."""

    uid: str
    kind: str
    value: int | None

    @property
    def role(self) -> Role:
        """The ``(kind, value)`` pair the banker receives."""
        return (self.kind, self.value)

    def label(self) -> str:
        """A short human label, e.g. ``"deed 16"`` or ``"banker"``."""
        return self.kind if self.value is None else f"{self.kind} {self.value}"


def check_role(kind: str, value: int | None) -> Role:
    """Validate a role and return it; :class:`RegistryError` names what was expected."""
    if kind not in KIND_LIMITS:
        raise RegistryError(f"unknown card kind {kind!r}; expected one of {sorted(KIND_LIMITS)}")
    limit = KIND_LIMITS[kind]
    article = "an" if kind[0] in "aeiou" else "a"  # "an event card", never "a event card"
    if limit is None:
        if value is not None:
            raise RegistryError(f"{article} {kind} card has no number, got {value!r}")
        return (kind, None)
    if value is None or isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        raise RegistryError(f"{article} {kind} card needs a number 1..{limit}, got {value!r}")
    return (kind, value)


def parse_number(text: str, what: str, low: int, high: int) -> int:
    """``text`` as a whole number ``low..high``: ASCII digits only (no sign, space, ``_`` or other
    scripts' digits); :class:`RegistryError` in one line naming ``what`` and the range otherwise."""
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise RegistryError(f"{what} must be a whole number {low}..{high}, got {text!r}")
    return int(text)


def parse_role(words: Sequence[str]) -> Role:
    """Parse ``["deed", "16"]`` / ``["banker"]`` into a checked role (the number in ASCII digits only)."""
    if not words or len(words) > 2:
        raise RegistryError(f"expected ROLE [VALUE] such as 'player 1' or 'banker', got {' '.join(words)!r}")
    value: int | None = None
    if len(words) == 2:
        if not (words[1].isascii() and words[1].isdigit()):
            raise RegistryError(f"a card number must be an integer (digits 0-9), got {words[1]!r}")
        value = int(words[1])
    return check_role(words[0], value)


def connect_installation_db(path: str | Path) -> sqlite3.Connection:
    """A connection to the installation's SQLite file for a small table of our own (the card registry, the
    settings): WAL, ``synchronous=FULL`` (a committed change survives a power cut), a 5 s busy timeout,
    shareable between threads under the caller's lock. Raises ``sqlite3.DatabaseError``."""
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level="DEFERRED")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA busy_timeout=5000")
    return db


class CardRegistry:
    """UID -> role, stored in an SQLite file (WAL, ``synchronous=FULL``); safe to share between threads."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.execute(_SCHEMA)

    @classmethod
    def open(cls, path: str | Path) -> CardRegistry:
        """Open (creating if needed) the registry table in the SQLite file at ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = connect_installation_db(path)
        except sqlite3.DatabaseError as exc:
            raise RegistryError(f"cannot open the card registry in {str(path)!r}: {exc}") from exc
        return cls(db)

    @classmethod
    def in_memory(cls) -> CardRegistry:
        """A registry that lives only as long as the object (tests, dry runs)."""
        return cls(sqlite3.connect(":memory:", check_same_thread=False))

    def close(self) -> None:
        """Close the connection; the object must not be used afterwards."""
        with self._lock:
            self._db.close()

    def lookup(self, uid: str) -> Role | None:
        """The role of ``uid`` (any accepted spelling), or None for an unknown or malformed UID."""
        try:
            key = normalize_uid(uid)
        except ValueError:
            return None
        with self._lock:
            row = self._db.execute("SELECT kind, value FROM card_registry WHERE uid = ?", (key,)).fetchone()
        return None if row is None else (str(row[0]), None if row[1] is None else int(row[1]))

    __call__ = lookup

    def holder(self, kind: str, value: int | None) -> str | None:
        """The UID holding a role, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT uid FROM card_registry WHERE kind = ? AND value IS ?", (kind, value)
            ).fetchone()
        return None if row is None else str(row[0])

    def enroll(self, uid: str, kind: str, value: int | None = None, *, replace: bool = False) -> Card:
        """Give ``uid`` the role ``(kind, value)``; returns the enrolled card.

        Refused (:class:`RegistryError`) when the UID already has another role, or when the role is held
        by another card and ``replace`` is False. With ``replace`` the other card loses the role.
        """
        key = normalize_uid(uid)
        role = check_role(kind, value)
        with self._lock, self._db:
            current, other = self._conflicts(key, role, replace)
            if current is not None:
                return current
            if other is not None:
                self._db.execute("DELETE FROM card_registry WHERE uid = ?", (other,))
            self._db.execute("INSERT INTO card_registry (uid, kind, value) VALUES (?, ?, ?)", (key, *role))
        return Card(key, *role)

    def check_enroll(self, uid: str, kind: str, value: int | None = None, *, replace: bool = False) -> Card | None:
        """What :meth:`enroll` would do, without writing: the card already enrolled for this role (nothing to
        do), None (it would be enrolled), or the same :class:`RegistryError` it would raise."""
        key = normalize_uid(uid)
        role = check_role(kind, value)
        with self._lock:
            return self._conflicts(key, role, replace)[0]

    def _conflicts(self, key: str, role: Role, replace: bool) -> tuple[Card | None, str | None]:
        """(the card if ``key`` already has ``role``, the UID that loses ``role`` with ``replace``) or
        :class:`RegistryError` when ``key`` has another role or ``role`` is another card's."""
        row = self._db.execute("SELECT kind, value FROM card_registry WHERE uid = ?", (key,)).fetchone()
        if row is not None:
            current = Card(key, str(row[0]), row[1])
            if current.role == role:
                return current, None
            raise RegistryError(
                f"card {key} is already enrolled as {current.label()}; forget it before enrolling it "
                f"as {Card(key, *role).label()}"
            )
        other = self._db.execute("SELECT uid FROM card_registry WHERE kind = ? AND value IS ?", role).fetchone()
        if other is not None and not replace:
            raise RegistryError(
                f"{Card(key, *role).label()} is already card {other[0]}; forget that card first "
                f"(or enroll with replace) to use {key}"
            )
        return None, None if other is None else str(other[0])

    def forget(self, uid: str) -> Card:
        """Remove ``uid`` from the registry and return what it was; :class:`RegistryError` if unknown."""
        key = normalize_uid(uid)
        with self._lock, self._db:
            row = self._db.execute("SELECT kind, value FROM card_registry WHERE uid = ?", (key,)).fetchone()
            if row is None:
                raise RegistryError(f"card {key} is not enrolled; nothing to forget")
            self._db.execute("DELETE FROM card_registry WHERE uid = ?", (key,))
        return Card(key, str(row[0]), row[1])

    def cards(self) -> list[Card]:
        """Every enrolled card, ordered by kind then value."""
        with self._lock:
            rows = self._db.execute("SELECT uid, kind, value FROM card_registry").fetchall()
        order = list(KIND_LIMITS)
        cards = [Card(str(u), str(k), None if v is None else int(v)) for u, k, v in rows]
        return sorted(cards, key=lambda c: (order.index(c.kind) if c.kind in order else 99, c.value or 0))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM card_registry").fetchone()[0])


@dataclass(frozen=True, slots=True)
class EnrollStep:
    """One step of a guided enrolment: the role wanted, and a prompt key + params for the screen."""

    kind: str
    value: int | None
    prompt: str
    params: tuple[tuple[str, str | int], ...]


class EnrollmentGuide:
    """Walks the banker through enrolling a set of cards: "tap the bank card for player 1", "tap deed 1 ...".

    ``names`` optionally maps ``(kind, value)`` to a display name (e.g. deed 1 -> "Old Kent Road"); the
    caller supplies it from the edition, the registry itself knows none.
    """

    def __init__(
        self,
        registry: CardRegistry,
        roles: Sequence[Role],
        names: dict[Role, str] | None = None,
        *,
        skip_enrolled: bool = True,
    ) -> None:
        self._registry = registry
        self._names = names or {}
        checked = [check_role(kind, value) for kind, value in roles]
        if skip_enrolled:
            checked = [r for r in checked if registry.holder(*r) is None]
        self._todo = checked
        self._index = 0

    @classmethod
    def box(
        cls,
        registry: CardRegistry,
        *,
        players: int = 4,
        deeds: int = 22,
        events: int = 23,
        banker: bool = True,
        names: dict[Role, str] | None = None,
        skip_enrolled: bool = True,
    ) -> EnrollmentGuide:
        """One box in the order of the walk: bank cards 1..``players``, title deeds 1..``deeds``, event cards
        1..``events`` (0: none), then the banker card when ``banker``; a count out of range is refused."""
        for what, count in (("player", players), ("deed", deeds), ("event", events)):
            limit = KIND_LIMITS[what] or 0
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= limit:
                raise RegistryError(f"a box holds 0..{limit} {what} cards, got {count!r}")
        roles: list[Role] = [("player", n) for n in range(1, players + 1)]
        roles += [("deed", n) for n in range(1, deeds + 1)] + [("event", n) for n in range(1, events + 1)]
        if banker:
            roles.append(("banker", None))
        return cls(registry, roles, names, skip_enrolled=skip_enrolled)

    @classmethod
    def standard(
        cls, registry: CardRegistry, players: int = 4, names: dict[Role, str] | None = None
    ) -> EnrollmentGuide:
        """The Ultimate Banking box: ``players`` bank cards, 22 deeds, 23 event cards, the banker card."""
        return cls.box(registry, players=players, deeds=22, events=23, names=names)

    @property
    def plan(self) -> tuple[Role, ...]:
        """The roles still waiting for a card, in the order they will be asked for."""
        return tuple(self._todo[self._index:])

    @property
    def done(self) -> bool:
        """True when every role of the plan has a card."""
        return self._index >= len(self._todo)

    @property
    def remaining(self) -> int:
        """How many roles still wait for a card."""
        return len(self._todo) - self._index

    def step(self) -> EnrollStep | None:
        """The role wanted now (None when done)."""
        if self.done:
            return None
        kind, value = self._todo[self._index]
        params: list[tuple[str, str | int]] = [("kind", kind)]
        if value is not None:
            params.append(("value", value))
        name = self._names.get((kind, value))
        if name:
            params.append(("name", name))
        key = {"player": "enroll.tap_player", "deed": "enroll.tap_deed", "event": "enroll.tap_event"}
        return EnrollStep(kind, value, key.get(kind, "enroll.tap_banker"), tuple(params))

    def offer(self, uid: str) -> Card:
        """Enroll ``uid`` for the current step and advance; :class:`RegistryError` (step kept) if refused."""
        step = self.step()
        if step is None:
            raise RegistryError(f"enrolment is complete; card {uid!r} was not expected")
        card = self._registry.enroll(uid, step.kind, step.value)
        self._index += 1
        return card

    def skip(self) -> None:
        """Leave the current role without a card and move on."""
        if not self.done:
            self._index += 1
