"""``boardbank cards list|enroll|forget``: manage the card registry from the command line.

* ``cards list [--json]``: every enrolled card;
* ``cards enroll ROLE [VALUE] --uid UID``: enroll a card by its UID (for scripts);
* ``cards enroll ROLE [VALUE] --reader URL...``: wait (``--timeout`` seconds, 30 by default) for a card
  to be presented on any of the readers, then enroll it;
* ``cards enroll all [PLAYERS] --reader URL... [--edition ID] [--with-cards]``: guided enrolment of one
  edition's box (:func:`guided_enroll`): the bank cards of players 1..PLAYERS (4 by default), the title
  deeds by their number in the edition, the event cards, the banker card, skipping cards already enrolled.
  The classic game's 32 Chance and Community Chest cards are asked for only with ``--with-cards`` or a
  "y" to the question on a terminal. ``--edition`` defaults to the edition of the installation's latest
  game, else ultimate-uk; each prompt names the card in the installation's language where the edition
  has the texts ("tap title deed 1 — Mediterranean Avenue", "tap Chance card 3 — Trip to Illinois Avenue");
* ``--write`` (with ``--reader``): each card also gets the NDEF record naming it (:mod:`ui.cardrecord`,
  hardware/cards.md), through the reader it came on, before it is enrolled; a card carrying another record
  is refused unless ``--force``, a locked one always; ``--lock`` makes the record read-only for good
  (:mod:`ui.cli.cards_write`);
* ``cards forget UID``: remove a card;
* ``cards print --edition ID [--lang L] [--paper a4|letter] --out FILE.pdf``: a printable card set
  (:mod:`ui.cli.cards_print`).

The database is ``--db``, else ``$BOARDBANK_DB``, else ``boardbank.sqlite3`` in the platform's user data
directory (the same rule as ``ui/paths.py``; ``reader/`` does not import ``ui``). ``--edition`` also
narrows a single ``enroll`` to the edition's numbers (``deed 25`` is refused for ultimate-uk, which has 22).
Exit status 0 on success, 2 for a refused request (the message says what was expected; with ``--write``
also a card whose record is locked or another), 3 when no card came in time, 4 when ``--write`` could not
write the card (nothing enrolled).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sqlite3
import sys
import time
from pathlib import Path
from typing import TextIO

from engine.editions import Edition, list_editions, load_edition
from engine.errors import EditionError
from engine.store import lock
from engine.store.journal import Journal
from engine.store.schema import JournalError
from reader.base import Reader, ReaderError, open_reader
from reader.events import CardPresented, ReaderEvent, normalize_uid
from reader.registry import (
    KIND_LIMITS,
    Card,
    CardRegistry,
    EnrollmentGuide,
    RegistryError,
    Role,
    parse_number,
    parse_role,
)
from ui.cli.cards_box import Box, step_text
from ui.cli.cards_write import CardWriter, card_writer
from ui.cli.dbfile import refuse_unusable

APP_NAME = "boardbank"
DB_FILE = "boardbank.sqlite3"
DEFAULT_EDITION = "ultimate-uk"
"""The edition of the guided enrolment when neither ``--edition`` nor a game in the file says one."""


def default_db_path() -> Path:
    """``$BOARDBANK_DB`` or the platform's user data directory / ``boardbank.sqlite3``."""
    env = os.environ.get("BOARDBANK_DB")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_FILE


def _card_dict(card: Card) -> dict[str, object]:
    return {"uid": card.uid, "kind": card.kind, "value": card.value}


class TapWaiter:
    """Readers started once; :meth:`next` returns the UID of the next card presented (or None on timeout)."""

    def __init__(self, urls: list[str]) -> None:
        self._events: queue.Queue[ReaderEvent] = queue.Queue()
        self._readers: list[Reader] = []
        self.last_reader: Reader | None = None
        """The reader the last card came on (enrolment writes the card's record through it)."""
        try:
            for url in urls:
                reader = open_reader(url)
                reader.start(self._events.put)
                self._readers.append(reader)
        except BaseException:
            self.close()
            raise

    def next(self, timeout_s: float) -> str | None:
        """Wait up to ``timeout_s`` seconds for a card; cue ``tap`` on the readers when one comes."""
        deadline = time.monotonic() + timeout_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                event = self._events.get(timeout=left)
            except queue.Empty:
                return None
            if isinstance(event, CardPresented):
                self.last_reader = next((r for r in self._readers if r.name == event.reader), None)
                self.cue("tap")
                return event.uid

    def cue(self, kind: str) -> None:
        """Play a cue on every reader."""
        for reader in self._readers:
            reader.cue(kind)

    def close(self) -> None:
        """Stop every reader."""
        for reader in self._readers:
            reader.stop()
        self._readers = []


def installation_edition(db: Path) -> str:
    """The edition of the latest game recorded in ``db`` (read only), else :data:`DEFAULT_EDITION`."""
    if not db.is_file():
        return DEFAULT_EDITION
    try:
        with Journal.open(db, read_only=True) as journal:
            game = journal.latest_game()
            edition = DEFAULT_EDITION if game is None else journal.game_edition(game)
    except (JournalError, sqlite3.Error):
        return DEFAULT_EDITION
    return edition if edition in list_editions() else DEFAULT_EDITION


def installation_language(db: Path, fallback: str) -> str:
    """The UI language stored in ``db``'s settings (read only, never created), else ``fallback``."""
    if not db.is_file():
        return fallback
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM settings WHERE key = 'lang'").fetchone()
        finally:
            conn.close()
        value = None if row is None else json.loads(str(row[0]))
    except (sqlite3.Error, ValueError):
        return fallback
    return value if isinstance(value, str) and value.isalpha() else fallback


def _walk(registry: CardRegistry, guide: EnrollmentGuide, waiter: TapWaiter, names: dict[Role, str], later: int,
          timeout_s: float, out: TextIO, err: TextIO, as_json: bool, writer: CardWriter | None = None) -> int:
    """Ask for each card of ``guide`` in turn (``later`` more come after it); 0 done, 3 on a timeout. With
    ``writer`` each card's record is written before it is enrolled; a card refused or not written is said
    and the same step asks again."""
    while (step := guide.step()) is not None:
        err.write(f"tap {step_text(step, names)} ({guide.remaining + later} to go)\n")
        err.flush()
        uid = waiter.next(timeout_s)
        if uid is None:
            err.write(f"boardbank cards: no card presented within {timeout_s:g} s; stopping\n")
            return 3
        try:
            if writer is not None:  # the record first: a card whose record is not written is not enrolled
                registry.check_enroll(uid, step.kind, step.value)
                if writer(waiter, Card(normalize_uid(uid), step.kind, step.value)):
                    waiter.cue("err")
                    continue  # said by the writer; the same step asks again
            card = guide.offer(uid)
        except (RegistryError, ValueError) as exc:
            waiter.cue("err")
            err.write(f"boardbank cards: {exc}\n")
            continue
        waiter.cue("ok")
        name = names.get(card.role)
        _emit(out, as_json, {"enrolled": _card_dict(card)},
              f"enrolled {card.uid} as {card.label()}" + (f" ({name})" if name else ""))
    return 0


def _want_cards(box: Box, count: int, with_cards: bool, urls: list[str], err: TextIO) -> bool:
    """``--with-cards``, else the answer to a y/N question when standard input is a terminal (and no
    ``stdin://`` reader reads it); else no, said in one line."""
    if with_cards:
        return True
    stdin = sys.stdin
    if stdin is None or not stdin.isatty() or any(url.startswith("stdin:") for url in urls):
        err.write(f"the {count} {' and '.join(box.decks)} cards are left out (--with-cards enrolls them too)\n")
        return False
    err.write(f"enroll the {count} {' and '.join(box.decks)} cards too? [y/N] ")
    err.flush()
    return stdin.readline().strip().lower() in ("y", "yes")


def guided_enroll(registry: CardRegistry, urls: list[str], box: Box, timeout_s: float, out: TextIO,
                  err: TextIO, as_json: bool, with_cards: bool = False, writer: CardWriter | None = None) -> int:
    """Walk ``box`` for the cards not yet enrolled: bank cards, title deeds, the event cards (the classic
    Chance and Community Chest cards only if wanted, :func:`_want_cards`), the banker card.

    Each step asks for one card and waits ``timeout_s`` seconds; a refused card (a UID already enrolled as
    another card) is reported in one line, nothing is written and the same step asks again; a timeout
    stops (what was enrolled stays) with status 3.
    """
    edition = box.edition
    events = len(edition.events)
    first = EnrollmentGuide.box(registry, players=box.players, deeds=len(edition.deeds),
                                events=0 if box.optional_cards else events, banker=False, names=box.names)
    cards = EnrollmentGuide.box(registry, players=0, deeds=0, events=events, banker=False)
    banker = 0 if registry.holder("banker", None) is not None else 1
    waiter = TapWaiter(urls)
    try:
        later = banker + (cards.remaining if box.optional_cards and with_cards else 0)
        status = _walk(registry, first, waiter, box.names, later, timeout_s, out, err, as_json, writer)
        if status:
            return status
        wanted = box.optional_cards and cards.remaining > 0 and _want_cards(box, events, with_cards, urls, err)
        rest = EnrollmentGuide.box(registry, players=0, deeds=0, events=events if wanted else 0)
        return _walk(registry, rest, waiter, box.names, 0, timeout_s, out, err, as_json, writer)
    finally:
        waiter.close()


def _emit(out: TextIO, as_json: bool, payload: dict[str, object], text: str) -> None:
    out.write((json.dumps(payload, ensure_ascii=False) if as_json else text) + "\n")
    out.flush()


def _guided_box(args: argparse.Namespace, words: list[str], db: Path) -> Box:
    """The box of ``cards enroll all [PLAYERS]``: PLAYERS strictly 1..8 (4 by default), the edition and the
    language checked before anything opens the file; :class:`RegistryError` / :class:`EditionError`."""
    if not getattr(args, "reader", None) or len(words) > 2:
        raise RegistryError("expected: cards enroll all [PLAYERS] --reader URL (guided enrolment)")
    limit = KIND_LIMITS["player"] or 0
    players = parse_number(words[1], "PLAYERS (how many bank cards)", 1, limit) if len(words) == 2 else 4
    edition = load_edition(getattr(args, "edition", None) or installation_edition(db))
    return Box.of(edition, players, installation_language(db, edition.language))


def _check_in_edition(kind: str, value: int | None, edition: Edition) -> None:
    """Refuse a deed or event number the edition does not have (``--edition`` given)."""
    limit = {"deed": len(edition.deeds), "event": len(edition.events)}.get(kind)
    if limit is not None and value is not None and value > limit:
        raise RegistryError(f"{edition.id} has {kind} cards 1..{limit}, got {kind} {value}")


def cards_main(args: argparse.Namespace) -> int:
    """The ``cards`` subcommand (see the module docstring); returns the exit status."""
    if args.action == "print":  # a printable card set: no installation file involved
        from ui.cli.cards_print import print_main

        return print_main(args)
    out, err = sys.stdout, sys.stderr
    as_json = bool(getattr(args, "json", False))
    db = Path(args.db) if getattr(args, "db", None) else default_db_path()
    words: list[str] = list(getattr(args, "args", []) or [])
    box: Box | None = None
    edition: Edition | None = None
    try:
        refuse_unusable(db)  # a damaged or foreign file is refused before anything opens it for writing
        if args.action == "enroll" and words[:1] == ["all"]:
            box = _guided_box(args, words, db)  # a bad request is refused before the file is touched
        elif args.action == "enroll" and getattr(args, "edition", None):
            edition = load_edition(args.edition)
        writes = args.action != "list"  # a writer holds the file: refused while the kiosk or headless does
        registry = lock.opened(db, CardRegistry.open) if writes else CardRegistry.open(db)
    except (RegistryError, EditionError, JournalError) as exc:
        if as_json and not isinstance(exc, JournalError):
            _emit(out, True, {"error": str(exc)}, "")
        err.write(f"boardbank cards: {exc}\n")
        return 2
    try:
        if args.action == "list":
            cards = registry.cards()
            if as_json:
                _emit(out, True, {"db": str(db), "cards": [_card_dict(c) for c in cards]}, "")
            else:
                for card in cards:
                    out.write(f"{card.uid:<22} {card.label()}\n")
                if not cards:
                    out.write(f"no cards enrolled in {db}\n")
            return 0
        if args.action == "forget":
            if len(words) != 1:
                raise RegistryError(f"expected: cards forget UID, got {' '.join(words)!r}")
            card = registry.forget(words[0])
            _emit(out, as_json, {"forgot": _card_dict(card)}, f"forgot {card.uid} ({card.label()})")
            return 0
        writer = None if not getattr(args, "write", False) else card_writer(
            args, box.edition.id if box else (edition.id if edition else installation_edition(db)), out, err, as_json,
            installation_language(db, "en"))
        if box is not None:
            return guided_enroll(registry, list(args.reader), box, float(getattr(args, "timeout", None) or 30.0),
                                 out, err, as_json, bool(getattr(args, "with_cards", False)), writer)
        kind, value = parse_role(words)
        if edition is not None:
            _check_in_edition(kind, value, edition)
        uid = getattr(args, "uid", None)
        if not uid:
            urls = list(getattr(args, "reader", None) or [])
            if not urls:
                raise RegistryError("expected --uid UID or at least one --reader URL to read the card from")
            timeout = float(getattr(args, "timeout", None) or 30.0)
            role_text = kind if value is None else f"{kind} {value}"
            waiter = TapWaiter(urls)
            try:
                if not as_json:
                    err.write(f"tap the card for {role_text} on {', '.join(urls)} ...\n")
                uid = waiter.next(timeout)
                if uid is None:
                    err.write(f"boardbank cards: no card presented within {timeout:g} s\n")
                    return 3
                replace = bool(getattr(args, "replace", False))
                if writer is not None:  # the record first: nothing enrolled unless it is on the card
                    registry.check_enroll(uid, kind, value, replace=replace)
                    status = writer(waiter, Card(normalize_uid(uid), kind, value))
                    if status:
                        return status
                card = registry.enroll(uid, kind, value, replace=replace)
                _emit(out, as_json, {"enrolled": _card_dict(card)}, f"enrolled {card.uid} as {card.label()}")
            finally:
                waiter.close()
            return 0
        card = registry.enroll(uid, kind, value, replace=bool(getattr(args, "replace", False)))
        _emit(out, as_json, {"enrolled": _card_dict(card)}, f"enrolled {card.uid} as {card.label()}")
        return 0
    except (RegistryError, ValueError) as exc:
        if as_json:
            _emit(out, True, {"error": str(exc)}, "")
        err.write(f"boardbank cards: {exc}\n")
        return 2
    except (ReaderError, sqlite3.Error) as exc:
        err.write(f"boardbank cards: {exc}\n")
        return 2
    finally:
        registry.close()
        if args.action != "list":
            lock.release(db)
