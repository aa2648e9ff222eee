"""``boardbank cards list|enroll|forget``: manage the card registry from the command line.

* ``cards list [--json]``: every enrolled card;
* ``cards enroll ROLE [VALUE] --uid UID``: enroll a card by its UID (for scripts);
* ``cards enroll ROLE [VALUE] --reader URL...``: wait (``--timeout`` seconds, 30 by default) for a card
  to be presented on any of the readers, then enroll it;
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
import sys
from pathlib import Path
from typing import TextIO

from reader.base import Reader, ReaderError, open_reader
from reader.events import CardPresented, ReaderEvent
from reader.registry import Card, CardRegistry, RegistryError, parse_role

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


def wait_for_tap(urls: list[str], timeout_s: float) -> str | None:
    """Start the readers at ``urls``, return the UID of the first card presented, or None after timeout."""
    events: queue.Queue[ReaderEvent] = queue.Queue()
    readers: list[Reader] = []
    try:
        for url in urls:
            reader = open_reader(url)
            reader.start(events.put)
            readers.append(reader)
        while True:
            try:
                event = events.get(timeout=timeout_s)
            except queue.Empty:
                return None
            if isinstance(event, CardPresented):
                for reader in readers:
                    reader.cue("tap")
                return event.uid
    finally:
        for reader in readers:
            reader.stop()


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
        registry = CardRegistry.open(db)
    except RegistryError as exc:
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
    except ReaderError as exc:
        err.write(f"boardbank cards: {exc}\n")
        return 2
    finally:
        registry.close()
