"""Starting the game and passing the turn (docs/rules.md 1.3, 6.2; options ``max_players``, ``start_money``).

``StartGame`` registers 2..``max_players`` players with unique ids, gives each ``start_money`` from the
Bank, records the options in force (docs/rules.md 6.2 defaults, then the edition's ``[options]``, then the command's) and shuffles the virtual event deck with ``random.Random(seed)``; the
shuffled order is recorded in ``GameStarted`` so a replay never re-shuffles. ``EndTurn`` passes the turn to
the next player who is not bankrupt and counts down ON THE RUN. The turn order, the start's checks and
the End turn check are both rulesets' (engine/turns.py); the lander who moves the turn on is this one's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import events as ev
from engine.commands import EndTurn, StartGame
from engine.editions import Edition
from engine.errors import Refusal
from engine.rulesets.ultimate.base import Table
from engine.rulesets.ultimate.options import Options
from engine.rulesets.ultimate.state import GameState
from engine.turns import check_start as check_game_start
from engine.turns import check_turn, end_turn, follow_turn, next_active, not_your_turn, start_options


def check_start(s: GameState, ed: Edition, cmd: StartGame) -> Refusal | None:
    """StartGame: phase setup, valid options, 2..max_players unique ids, an int seed (engine/turns.py)."""
    return check_game_start(s, ed, cmd, Options)


def do_start(t: Table, cmd: StartGame) -> None:
    """Record the players, options in force and the shuffled deck; the fold pays the start money."""
    opts = start_options(t.edition, cmd, Options)
    deck = [card.id for card in t.edition.events]
    random.Random(cmd.seed).shuffle(deck)
    t.emit(ev.GameStarted, t.edition.id, tuple(cmd.players), opts.as_dict(), cmd.seed, tuple(deck))


def check_end_turn(s: GameState, ed: Edition, cmd: EndTurn) -> Refusal | None:
    """EndTurn: only the player whose turn it is (jailed or not)."""
    return check_turn(s, cmd.player, "EndTurn")


def do_end_turn(t: Table, cmd: EndTurn) -> None:
    """Pass the turn to the next active player in registration order."""
    end_turn(t, cmd.player)


def check_lander(s: GameState, player: object, what: str) -> Refusal | None:
    """Turns follow the table (docs/flows.md): the player whose turn it is may land, and so may the next
    one, whose landing moves the turn on; anyone else is refused (End turn skips a player)."""
    if s.turn is None or player == s.turn or not isinstance(player, str) or player not in s.specs:
        return None
    if player == next_active(s, s.turn):
        return None
    return not_your_turn(s, player, what)


def turn_bound(rule: tuple[Callable[..., Refusal | None], Callable[..., None]], field: str, what: str
               ) -> tuple[Callable[..., Refusal | None], Callable[..., None]]:
    """``rule`` for a landing command: the command's ``field`` (the lander) must have the turn or be next,
    and the next player's landing first moves the turn on (engine/turns.py's ``follow_turn``)."""
    check, do = rule

    def checked(s: GameState, ed: Edition, cmd: Any) -> Refusal | None:
        return check(s, ed, cmd) or check_lander(s, getattr(cmd, field), what)

    def done(t: Table, cmd: Any) -> None:
        follow_turn(t, getattr(cmd, field))
        do(t, cmd)

    return checked, done
