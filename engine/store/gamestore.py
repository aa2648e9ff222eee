"""Where the banker's games live: the :class:`GameStore` protocol and its journal implementation.

The banker never opens files itself: it asks a store to start a durable game (``new_game``) or to
resume the last one (``resume``), and to keep the banker's record (what only the banker knows,
:mod:`engine.store.bankerrecord`; optional: a store without ``load_record`` / ``save_record`` keeps none). :class:`JournalStore` implements that over
:class:`engine.store.journal.Journal` and :class:`engine.store.durable.DurableGame`, so every command the banker
issues is on disk before its events are shown. Amounts in ``options`` are ``int`` in money units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import Any, Protocol

from engine.commands import PlayerSpec, StartGame
from engine.editions import Edition, load_edition
from engine.events import Event
from engine.rulesets.registry import get_ruleset
from engine.store.bankerrecord import BankerRecordStore
from engine.store.durable import DurableGame
from engine.store.journal import Journal, JournalError


class GameStore(Protocol):
    """Starts and resumes durable games for the banker."""

    @property
    def edition(self) -> Edition:
        """The edition of new games (and of the board shown while registering players)."""
        ...

    @property
    def options(self) -> Mapping[str, object]:
        """The rule options of new games (names of the edition's ruleset's options)."""
        ...

    def new_game(
        self, edition_id: str, players: Sequence[PlayerSpec], options: Mapping[str, object], seed: int,
        input_id: str | None = None,
    ) -> DurableGame:
        """Create a game, apply its ``StartGame`` durably (with the ``input_id`` that started it, if any)."""
        ...

    def resume(self) -> DurableGame | None:
        """The latest game, rebuilt exactly as its last durable event left it; None if there is none."""
        ...

    def events(self, game: DurableGame) -> Sequence[Event]:
        """Every durable event of ``game`` in order (the banker reports the ones of ``StartGame``)."""
        ...


class JournalStore:
    """A :class:`GameStore` over one :class:`Journal` (the installation's SQLite file)."""

    def __init__(
        self, journal: Journal, edition_id: str = "ultimate-uk", options: Mapping[str, object] | None = None
    ) -> None:
        self.journal = journal
        self._record = BankerRecordStore(journal.path, journal.connection)  # written in the input's transaction
        if not journal.read_only:
            with suppress(JournalError):  # (a full disk): the first record written makes it
                self._record.create()
        self._edition = load_edition(edition_id)
        checked = get_ruleset(self._edition.ruleset).options.from_mapping(dict(options or {}))
        self._options: dict[str, object] = {
            k: v for k, v in checked.as_dict().items() if k in dict(options or {})
        }

    @property
    def edition(self) -> Edition:
        """The edition of new games."""
        return self._edition

    @property
    def options(self) -> Mapping[str, object]:
        """The options given for new games (only the ones that differ from the defaults' names given)."""
        return dict(self._options)

    def new_game(
        self, edition_id: str, players: Sequence[PlayerSpec], options: Mapping[str, object], seed: int,
        input_id: str | None = None,
    ) -> DurableGame:
        """Create the game in the journal and apply ``StartGame`` (on disk when this returns), journaled
        with the ``input_id`` of the input that started it, if any."""
        edition = self._edition if edition_id == self._edition.id else load_edition(edition_id)
        return DurableGame.start(self.journal, edition, StartGame(tuple(players), dict(options), seed), input_id)

    def resume(self) -> DurableGame | None:
        """Reopen the latest game of the journal, or None for a fresh installation."""
        game_id = self.journal.latest_game()
        return None if game_id is None else DurableGame.open(self.journal, game_id)

    def events(self, game: DurableGame) -> Sequence[Event]:
        """The durable events of ``game`` (the in-memory game holds exactly the journal's events)."""
        return game.game.events

    # -- what the banker resumes besides the games (optional for other stores) -------------------------
    def latest_game(self) -> int | None:
        """The id of the journal's latest game (None for a fresh installation)."""
        return self.journal.latest_game()

    def input_ids(self, game: DurableGame) -> Mapping[str, int]:
        """Input id -> command number, for ``game``'s commands journaled with an input id."""
        return self.journal.input_ids(game.game_id)

    def input_firsts(self, game: DurableGame) -> Mapping[str, int]:
        """Input id -> the first command number, for the ids journaled with several commands."""
        return self.journal.input_firsts(game.game_id)

    def load_record(self) -> dict[str, Any] | None:
        """The banker's record last saved (:mod:`engine.store.bankerrecord`), or None."""
        return self._record.load()

    def save_record(self, record: Mapping[str, Any]) -> None:
        """Save the banker's record now, on its own (as :meth:`finish_input` with no command)."""
        self.begin_input()
        self.finish_input(record)

    def begin_input(self) -> None:
        """An input of the banker starts: the commands it applies and its record are committed together by
        :meth:`finish_input` (engine/store/writes.py)."""
        self.journal.begin_input()

    def finish_input(self, record: Mapping[str, Any] | None) -> bool:
        """The input is over: its commands and ``record`` (None: unchanged) committed in one transaction,
        one fsync; an input without a command writes its record without waiting for the disk. True when
        the record (if any) was written. :class:`JournalError` when the commit failed (nothing of the input
        is on disk: the banker rebuilds the game from the journal); a record alone that cannot be written
        is not fatal (False: the banker writes it again after the next input)."""
        write = None if record is None else (lambda conn: self._record.write(conn, record))
        committing = self.journal.committing
        try:
            self.journal.finish_input(write)
        except JournalError:
            if committing:
                raise
            return False
        return True
