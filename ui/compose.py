"""Wiring: the installation's SQLite file, the journal, the card registry, the readers and the banker.

Shared by ``boardbank headless`` and the Kivy app (``boardbank run``): :func:`build` turns the command-line
arguments into a :class:`Built` with everything opened but no reader started (the caller starts them with
its own sink: a queue for headless, the UI's main-thread hand-off for the app). Amounts are ``int`` in the
edition's money unit.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.banker.machine import Banker
from engine.editions import Edition, load_edition
from engine.errors import EditionError, OptionError
from engine.options import parse_option_text
from engine.rulesets.registry import get_ruleset
from engine.store.degraded import open_degraded, table_reader
from engine.store.faults import classify, storage_words
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal, JournalError
from reader.base import Reader, open_reader
from reader.registry import CardRegistry
from ui.checkpoint import IdleCheckpointer
from ui.paths import resolve_db
from ui.settings import SettingsError, SettingsStore

DEFAULT_EDITION = "ultimate-uk"

log = logging.getLogger(__name__)


class ComposeError(ValueError):
    """The arguments cannot be wired into a banker (bad option, edition or reader URL)."""


class AdjustableClock:
    """Monotonic seconds plus an offset that ``advance`` moves on (``wait`` steps of scripts); thread-safe.

    With ``manual=True`` the clock ignores real time altogether (deterministic scripts and tests).
    """

    def __init__(self, manual: bool = False, base: Callable[[], float] = time.monotonic) -> None:
        self._manual = manual
        self._base = base
        self._start = base()
        self._offset = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            real = 0.0 if self._manual else self._base() - self._start
            return real + self._offset

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds`` (>= 0)."""
        if seconds < 0:
            raise ComposeError(f"the clock only moves forward; got {seconds!r} seconds")
        with self._lock:
            self._offset += seconds


@dataclass
class Built:
    """Everything a front end needs; :meth:`close` stops the readers and closes the database."""

    banker: Banker
    registry: CardRegistry
    journal: Journal
    edition: Edition
    db: Path
    clock: AdjustableClock
    readers: list[Reader] = field(default_factory=list)
    options: dict[str, object] = field(default_factory=dict)
    settings: SettingsStore | None = None  # the installation's settings (banker's and UI's)
    checkpointer: IdleCheckpointer | None = None  # the journal's checkpoints when the table is idle
    read_only: str | None = None  # why the unit came up read-only (a full disk, a read-only mount), else None
    notice: str = ""  # one line when ``--edition`` asked for another game than the one resumed (not obeyed)
    share: Any = None  # the live page for phones (ui/share) while ``--share`` runs, else None

    def advance(self, seconds: float) -> None:
        """Move the banker's clock on by ``seconds`` (``wait`` steps)."""
        self.clock.advance(seconds)

    def close(self) -> None:
        """Stop the share, every reader and the checkpoints, then close the registry and the journal; idempotent."""
        if self.share is not None:
            from ui.share.wiring import stop_share

            stop_share(self)
        for reader in self.readers:
            reader.stop()
        self.readers = []
        if self.checkpointer is not None:
            self.checkpointer.stop()
            self.checkpointer = None
        self.registry.close()
        if self.settings is not None:
            self.settings.close()
        self.journal.close()


def saver(settings: SettingsStore) -> Callable[[Mapping[str, object]], None]:
    """The banker's ``on_settings``: save into ``settings``; a failed write is logged, the game goes on."""

    def save(values: Mapping[str, object]) -> None:
        try:
            settings.save(values)
        except SettingsError as exc:
            log.warning("the settings were not saved: %s", exc)

    return save


def parse_options(texts: Sequence[str]) -> dict[str, object]:
    """``["max_players=6", "auction=off"]`` -> a mapping of rule options (checked by the engine later)."""
    options: dict[str, object] = {}
    for text in texts:
        try:
            name, value = parse_option_text(text)
        except ValueError as exc:
            raise ComposeError(f"bad --option {text!r}: {exc}") from exc
        options[name] = value
    return options


def check_edition(edition_id: str, options: Mapping[str, object]) -> None:
    """Raise :class:`ComposeError` for an unknown edition or options its ruleset refuses (nothing written)."""
    try:
        edition = load_edition(edition_id)
        ruleset = get_ruleset(edition.ruleset)
        ruleset.options.from_mapping({**edition.options, **options})
    except (EditionError, OptionError) as exc:
        raise ComposeError(str(exc)) from None
    if not ruleset.gestures:
        raise ComposeError(f"edition {edition_id}: the {ruleset.name} game has no gestures at the table yet "
                           f"(boardbank sim plays it)")


def new_game_edition(asked: str | None, saved: str | None) -> str:
    """The edition of the next new game: ``--edition`` when given, else the latest game's on the file (the
    family's game), else :data:`DEFAULT_EDITION`. A saved game's own edition never depends on this."""
    if asked:
        return asked
    if saved:
        try:
            load_edition(saved)
            return saved
        except EditionError:  # a user's edition file since removed: new games fall back to the default
            pass
    return DEFAULT_EDITION


def conflict_notice(asked: str | None, resumed: str | None, durable: object | None) -> str:
    """The one line said when ``--edition`` names another edition than the game resumed ("" otherwise):
    the saved game decides its ruleset, edition and options; ``--edition`` is kept for the next new game."""
    if not asked or resumed is None or asked == resumed:
        return ""
    game_id = getattr(durable, "game_id", "?")
    return (f"--edition {asked}: game {game_id} on this file is {resumed} ({load_edition(resumed).ruleset}) "
            f"and resumes as saved; {asked} is the edition of the next new game")


def installation_file(cli_value: str | None) -> Path:
    """The SQLite file to open. A file named by ``--db`` or ``$BOARDBANK_DB`` must be in an existing folder
    (a typo must not create a folder tree); the platform's data folder is created when it is missing."""
    db = resolve_db(cli_value)
    explicit = bool(cli_value) or bool(os.environ.get("BOARDBANK_DB"))
    if explicit and not db.parent.is_dir():
        raise ComposeError(f"--db {db}: the folder {db.parent} does not exist; create it first")
    if db.is_dir():
        raise ComposeError(f"--db {db}: expected a file, this is a folder")
    if not explicit:
        db.parent.mkdir(parents=True, exist_ok=True)
    return db


def build(
    args: argparse.Namespace,
    *,
    default_readers: Sequence[str] | None = None,
    manual_clock: bool | None = None,
    timeout_s: float = 10.0,
    auction_s: float = 10.0,
) -> Built:
    """Open the database named by ``--db`` / ``$BOARDBANK_DB`` / the default, and wire the banker.

    ``default_readers`` are used when no ``--reader`` is given (``["mock://"]`` unless told otherwise).
    The clock is manual (moved only by ``wait``) when ``manual_clock`` is True, or by default when the
    arguments carry a ``--script``. The banker starts with the settings stored in the file (``timeout_s``
    and ``auction_s`` here are the defaults) and saves them there when they are confirmed in its menu.
    """
    options = parse_options(list(getattr(args, "option", None) or []))
    asked = getattr(args, "edition", None)
    db = installation_file(getattr(args, "db", None))
    if asked or not db.exists():  # before anything is written (a new file's games are --edition's)
        check_edition(asked or DEFAULT_EDITION, options)
    read_only: str | None = None
    try:
        journal = Journal.open(db)  # first: the journal creates (or checks) the installation file
    except JournalError as exc:  # a full disk or a read-only mount: up read-only, with the reason
        if not db.is_file() or classify(exc, db).kind not in ("full", "read_only"):
            raise
        journal, read_only = open_degraded(db), storage_words(exc, db)
    try:
        latest = journal.latest_game()
        if latest is not None:
            journal.event_records(latest)  # a damaged game is refused before the other tables are touched
        edition_id = new_game_edition(asked, journal.game_edition(latest) if latest is not None else None)
        check_edition(edition_id, options)
        registry = CardRegistry(table_reader(db)) if read_only else CardRegistry.open(db)
    except BaseException:
        journal.close()
        raise
    try:
        settings = SettingsStore(table_reader(db)) if read_only else SettingsStore.open(db)
    except BaseException:
        registry.close()
        journal.close()
        raise
    try:
        if not asked:  # the edition kept for the next new game (an earlier --edition, else the last started)
            kept = settings.next_edition()
            if kept and kept != edition_id:
                try:
                    check_edition(kept, options)
                    edition_id = kept
                except ComposeError:  # an edition file since removed, or --option it refuses: as before
                    pass
        elif not read_only and settings.next_edition() != asked:
            saver(settings)({"next_edition": asked})  # kept: lit by every New game until a game starts
        store = JournalStore(journal, edition_id, options)
        manual = bool(getattr(args, "script", None)) if manual_clock is None else manual_clock
        clock = AdjustableClock(manual=manual)
        seeds = random.SystemRandom()
        banker = Banker(store, registry.lookup, clock, seed_source=lambda: seeds.randrange(1, 2**31),
                        **settings.banker(timeout_s, auction_s), on_settings=saver(settings),
                        pin_clock=time.monotonic,  # the PIN's lock: real time, which no `wait` line moves
                        edition_asked=bool(asked))
        urls = list(getattr(args, "reader", None) or (["mock://"] if default_readers is None else default_readers))
        readers = [open_reader(url) for url in urls]
    except BaseException:
        settings.close()
        registry.close()
        journal.close()
        raise
    resumed = banker.durable.game.edition if banker.durable is not None else None
    notice = conflict_notice(asked, resumed.id if resumed is not None else None, banker.durable)
    if notice:
        log.info("%s", notice)
    return Built(banker, registry, journal, resumed or banker.setup_edition, db, clock, readers, options,
                 settings, None if read_only else IdleCheckpointer(db).start(), read_only, notice)
