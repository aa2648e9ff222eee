"""A game whose every command is on disk before its events are handed out.

:class:`DurableGame` pairs an in-memory :class:`~engine.game.Game` with a :class:`~engine.store.journal.Journal`:
``apply`` applies the command in memory, appends the command and its events to the journal in one
transaction, and only then returns the events. If the write fails, the in-memory game is rebuilt from
the journal (so nothing is half applied) and the error is raised. Amounts are ``int`` in the edition's
money unit, as everywhere in the engine.
"""

from __future__ import annotations

from engine.commands import Command, StartGame
from engine.editions import Edition, load_edition
from engine.events import Event
from engine.game import Game
from engine.records import command_to_record
from engine.store.journal import Journal, JournalError


class DurableGame:
    """A :class:`Game` whose accepted commands are durable in ``journal`` under ``game_id``."""

    def __init__(self, journal: Journal, game_id: int, game: Game) -> None:
        self.journal = journal
        self.game_id = game_id
        self._game = game
        self._broken: BaseException | None = None

    @property
    def game(self) -> Game:
        """The in-memory game (read it; change it only through :meth:`apply`)."""
        return self._game

    @classmethod
    def start(cls, journal: Journal, edition: Edition, command: StartGame, input_id: str | None = None) -> DurableGame:
        """Create a game in the journal and apply its ``StartGame`` command durably, in one transaction (a
        refused command or a failed write leaves no game behind)."""
        game = Game(edition)
        events = game.apply(command)
        game_id = journal.start_game(edition.id, command.seed, dict(command.options), command_to_record(command),
                                     events, input_id)
        return cls(journal, game_id, game)

    @classmethod
    def open(cls, journal: Journal, game_id: int, edition: Edition | None = None) -> DurableGame:
        """Rebuild the game ``game_id`` exactly as its last durable event left it.

        ``edition``: the edition object to play with (e.g. a user's file loaded with ``load_edition_file``);
        by default the edition the game was recorded with is loaded by its id.
        """
        return cls(journal, game_id, cls._rebuild(journal, game_id, edition))

    @staticmethod
    def _rebuild(journal: Journal, game_id: int, edition: Edition | None) -> Game:
        recorded = journal.game_edition(game_id)
        if edition is None:
            edition = load_edition(recorded)
        elif edition.id != recorded:
            raise JournalError(f"game {game_id} was recorded with edition {recorded!r}, not {edition.id!r}")
        _, events = journal.load(game_id, edition.ruleset)
        return Game.replay(edition, events)

    def apply(self, command: Command, input_id: str | None = None) -> tuple[Event, ...]:
        """Apply ``command``, make it durable (with the ``input_id`` of the input that caused it, if any),
        then return its events. Inside an input of the banker (``Journal.begin_input``) the command joins
        the input's transaction: it is durable, with the banker's record, when ``finish_input`` returns,
        and the banker shows nothing before that.

        Raises ``IllegalCommand`` (nothing changes) for a refused command, and :class:`JournalError`
        if the write failed: the in-memory game is then rebuilt from the journal. If even the rebuild
        fails, the game falls back to its last acknowledged state in memory and this object refuses
        every further command (reopen the journal).
        """
        if self._broken is not None:
            raise JournalError(
                f"game {self.game_id}: the journal failed earlier and the game could not be rebuilt "
                f"({self._broken}); reopen it with DurableGame.open"
            )
        events = self._game.apply(command)
        try:
            self.journal.append(self.game_id, command_to_record(command), events, input_id)
        except BaseException as exc:
            try:
                self._game = self._rebuild(self.journal, self.game_id, self._game.edition)
            except BaseException as rebuild_exc:
                # The disk cannot tell us what is durable: fall back to the last acknowledged state,
                # rebuilt in memory without this command, so nothing unacknowledged is ever shown.
                before = self._game.events[: len(self._game.events) - len(events)]
                self._game = Game.replay(self._game.edition, before)
                self._broken = rebuild_exc
            if isinstance(exc, JournalError) or not isinstance(exc, Exception):
                raise
            raise JournalError(f"game {self.game_id}: writing {command!r} failed: {exc!r}") from exc
        return events

    def reload(self) -> None:
        """Rebuild the game from the journal (after the input's transaction was rolled back: a failed
        commit); raises :class:`JournalError` when the journal no longer has this game."""
        self._game = self._rebuild(self.journal, self.game_id, self._game.edition)
        self._broken = None
