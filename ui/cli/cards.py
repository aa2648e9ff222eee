"""``boardbank cards list|enroll|forget``: manage the card registry from the command line.

* ``cards list [--json]``: every enrolled card;
* ``cards enroll ROLE [VALUE] --uid UID``: enroll a card by its UID (for scripts);
* ``cards enroll ROLE [VALUE] --reader URL...``: wait (``--timeout`` seconds, 30 by default) for a card
  to be presented on any of the readers, then enroll it;
* ``cards enroll all [PLAYERS] --reader URL...``: guided enrolment of the whole box ("tap the bank card of
  player 1", "tap title deed 1", ...), skipping cards already enrolled;
* ``cards forget UID``: remove a card.

The database is ``--db``, else ``$BOARDBANK_DB``, else ``boardbank.sqlite3`` in the platform's user data
directory (the same rule as ``ui/paths.py``; ``reader/`` does not import ``ui``). Exit status 0 on
success, 2 for a refused request (the message says what was expected), 3 when no card came in time.
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

from engine.store.schema import JournalError
from reader.base import Reader, ReaderError, open_reader
from reader.events import CardPresented, ReaderEvent
from reader.registry import Card, CardRegistry, EnrollmentGuide, RegistryError, parse_role
from ui.cli.dbfile import refuse_unusable

APP_NAME = "boardbank"
DB_FILE = "boardbank.sqlite3"


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


def wait_for_tap(urls: list[str], timeout_s: float) -> str | None:
    """Start the readers at ``urls``, return the UID of the first card presented, or None after timeout."""
    waiter = TapWaiter(urls)
    try:
        return waiter.next(timeout_s)
    finally:
        waiter.close()


_STEP_TEXT = {"player": "the bank card of player {value}", "deed": "title deed {value}",
              "event": "event card {value}", "banker": "the banker card"}


def guided_enroll(registry: CardRegistry, urls: list[str], players: int, timeout_s: float,
                  out: TextIO, err: TextIO, as_json: bool) -> int:
    """Walk the box's cards (bank cards, 22 deeds, 23 event cards, banker card) not yet enrolled.

    Each step asks for one card and waits ``timeout_s`` seconds; a refused card is reported and the same
    step asks again; a timeout stops (what was enrolled stays) with status 3.
    """
    guide = EnrollmentGuide.standard(registry, players=players)
    waiter = TapWaiter(urls)
    try:
        while (step := guide.step()) is not None:
            err.write(f"tap {_STEP_TEXT[step.kind].format(value=step.value)} ({guide.remaining} to go)\n")
            uid = waiter.next(timeout_s)
            if uid is None:
                err.write(f"boardbank cards: no card presented within {timeout_s:g} s; stopping\n")
                return 3
            try:
                card = guide.offer(uid)
            except (RegistryError, ValueError) as exc:
                waiter.cue("err")
                err.write(f"boardbank cards: {exc}\n")
                continue
            waiter.cue("ok")
            _emit(out, as_json, {"enrolled": _card_dict(card)}, f"enrolled {card.uid} as {card.label()}")
        return 0
    finally:
        waiter.close()


def _emit(out: TextIO, as_json: bool, payload: dict[str, object], text: str) -> None:
    out.write((json.dumps(payload, ensure_ascii=False) if as_json else text) + "\n")
    out.flush()


def cards_main(args: argparse.Namespace) -> int:
    """The ``cards`` subcommand (see the module docstring); returns the exit status."""
    out, err = sys.stdout, sys.stderr
    as_json = bool(getattr(args, "json", False))
    db = Path(args.db) if getattr(args, "db", None) else default_db_path()
    words: list[str] = list(getattr(args, "args", []) or [])
    try:
        refuse_unusable(db)  # a damaged or foreign file is refused before anything opens it for writing
        registry = CardRegistry.open(db)
    except (RegistryError, JournalError) as exc:
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
        if words and words[0] == "all":
            urls = list(getattr(args, "reader", None) or [])
            if not urls or len(words) > 2:
                raise RegistryError("expected: cards enroll all [PLAYERS] --reader URL (guided enrolment)")
            players = int(words[1]) if len(words) == 2 and words[1].isdigit() else 4
            return guided_enroll(registry, urls, players, float(getattr(args, "timeout", None) or 30.0),
                                 out, err, as_json)
        kind, value = parse_role(words)
        uid = getattr(args, "uid", None)
        if not uid:
            urls = list(getattr(args, "reader", None) or [])
            if not urls:
                raise RegistryError("expected --uid UID or at least one --reader URL to read the card from")
            timeout = float(getattr(args, "timeout", None) or 30.0)
            role_text = kind if value is None else f"{kind} {value}"
            if not as_json:
                err.write(f"tap the card for {role_text} on {', '.join(urls)} ...\n")
            uid = wait_for_tap(urls, timeout)
            if uid is None:
                err.write(f"boardbank cards: no card presented within {timeout:g} s\n")
                return 3
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
