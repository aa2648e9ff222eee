"""Input ids: a driver may give every input an id, so that it can resend after a crash safely.

An id that completed a command is stored with the command in the journal (``DurableGame.apply(...,
input_id)``); :class:`InputIds` knows those of the current game (loaded from the journal on resume, added
as commands are applied) and the last :data:`RECENT_IDS` ids of every input (accepted or refused, with the
command it completed, if any). A known id is answered, never applied again: with the events of its
command from the journal when it completed one, else with the current prompt alone.

Across a restart the recent ids are kept in the banker's record (:mod:`engine.banker.resume`), and the
journal gives every id that completed a command of the resumed game; an id of an input that completed no
command and is older than the last :data:`RECENT_IDS` inputs is forgotten, and would be applied again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.banker.reaction import Reaction

RECENT_IDS = 512
"""How many of the latest input ids are remembered (besides every id of a command of the current game)."""

MAX_ID_LENGTH = 64
"""The longest input id (printable ASCII without spaces)."""

Known = tuple[int | None, int | None]
"""(game id, command number) an input id completed; (game, None) for an input that completed no command."""


def valid_id(text: str) -> bool:
    """Whether ``text`` may be an input id: 1..64 printable ASCII characters, no space."""
    return 1 <= len(text) <= MAX_ID_LENGTH and text.isascii() and text.isprintable() and " " not in text


class InputIds:
    """The ids known: the current game's command ids and the recent inputs' (see the module docstring)."""

    def __init__(self) -> None:
        self.recent: OrderedDict[str, Known] = OrderedDict()
        self.order: dict[str, int] = {}  # id -> when it was last remembered (a running count)
        self.count = 0
        self.game: int | None = None
        self.commands: dict[str, int] = {}  # id -> the last command it completed
        self.firsts: dict[str, int] = {}  # id -> its first command, for an input that applied several

    def use_game(self, game_id: int | None, commands: Mapping[str, int], firsts: Mapping[str, int] | None = None
                 ) -> None:
        """The current game changed (start, resume, new game): its command ids from the journal (the last
        command of each id, and ``firsts``: the first, for the ids of several commands)."""
        self.game = game_id
        self.commands = dict(commands)
        self.firsts = dict(firsts or {})

    def first(self, input_id: str, last: int) -> int:
        """The first command ``input_id`` completed (its answer replays the events of all of them)."""
        return self.firsts.get(input_id, last)

    def known(self, input_id: str) -> Known | None:
        """What ``input_id`` did, if it is known."""
        if input_id in self.commands:
            return self.game, self.commands[input_id]
        return self.recent.get(input_id)

    def remember(self, input_id: str, game_id: int | None, command: int | None) -> None:
        """``input_id`` was handled (``command``: the number of the command it completed, if any)."""
        if command is not None and game_id == self.game:
            if input_id not in self.commands:
                self.firsts[input_id] = command
            self.commands[input_id] = command
        self.recent[input_id] = (game_id, command)
        self.recent.move_to_end(input_id)
        self.order[input_id] = self.count
        self.count += 1
        while len(self.recent) > RECENT_IDS:
            self.order.pop(self.recent.popitem(last=False)[0], None)

    def forget(self, input_id: str) -> None:
        """``input_id`` was not done after all (its input's commit failed): resent, it is applied."""
        self.commands.pop(input_id, None)
        self.firsts.pop(input_id, None)
        self.recent.pop(input_id, None)
        self.order.pop(input_id, None)

    def as_record(self, before: int | None = None) -> list[list[object]]:
        """The recent ids, oldest first, as plain data for the banker's record; only those remembered
        before the count ``before``, if given (the ones after it are dropped)."""
        return [[i, g, n] for i, (g, n) in self.recent.items() if before is None or self.order[i] < before]

    def load_record(self, rows: Iterable[object]) -> None:
        """Recent ids from the banker's record (malformed rows are skipped)."""
        for row in rows:
            if isinstance(row, list) and len(row) == 3 and isinstance(row[0], str) and valid_id(row[0]):
                game, number = row[1], row[2]
                self.remember(row[0], game if isinstance(game, int) else None,
                              number if isinstance(number, int) else None)


def answer_known(ctx: Any, input_id: str, view: Callable[[], Any]) -> Reaction | None:
    """A :class:`~engine.banker.reaction.Reaction` for an input whose id ``ctx.ids`` knows (None if it is new):
    the events of every command it applied (an input may apply several: X on the build screen takes back
    each building), from the journal, and the current prompt (``view()``); nothing is applied."""
    from engine.banker.reaction import Reaction  # (at run time: the import above is for the type checker)

    known = ctx.ids.known(input_id)
    if known is None:
        return None
    game, command = known
    durable = ctx.durable
    events: tuple[Any, ...] = ()
    if command is not None and durable is not None and durable.game_id == game:
        first = ctx.ids.first(input_id, command)
        events = tuple(e for e in durable.game.events if first <= e.command <= command)
    shown = view()
    return Reaction(events, (), shown.prompt, None, shown, {}, input_id, True)
