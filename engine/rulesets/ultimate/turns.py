"""Starting the game and passing the turn (docs/rules.md 1.3, 6.2; options ``max_players``, ``start_money``).

``StartGame`` registers 2..``max_players`` players with unique ids, gives each ``start_money`` from the
Bank, records the options in force (docs/rules.md 6.2 defaults, then the edition's ``[options]``, then the command's) and shuffles the virtual event deck with ``random.Random(seed)``; the
shuffled order is recorded in ``GameStarted`` so a replay never re-shuffles. ``EndTurn`` passes the turn to
the next player who is not bankrupt and counts down ON THE RUN.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import events as ev
from engine.commands import EndTurn, StartGame
from engine.editions import Edition
from engine.errors import OptionError, Refusal, refuse
from engine.players import check_players
from engine.rulesets.ultimate.base import Table, check_phase, check_play
from engine.rulesets.ultimate.options import Options
from engine.rulesets.ultimate.state import GameState


def check_start(s: GameState, ed: Edition, cmd: StartGame) -> Refusal | None:
    """StartGame: phase setup, valid options, 2..max_players unique ids, an int seed."""
    what = "StartGame"
    reason = check_phase(s, "setup", what)
    if reason:
        return reason
    try:
        opts = Options.from_mapping({**ed.options, **cmd.options})
    except OptionError as exc:
        return refuse("bad_option", f"{what}: {exc}", command=what, error=str(exc))
    return check_players(cmd.players, opts.max_players, cmd.seed, what)


def do_start(t: Table, cmd: StartGame) -> None:
    """Record the players, options in force and the shuffled deck; the fold pays the start money."""
    opts = Options.from_mapping({**t.edition.options, **cmd.options})
    deck = [card.id for card in t.edition.events]
    random.Random(cmd.seed).shuffle(deck)
    t.emit(ev.GameStarted, t.edition.id, tuple(cmd.players), opts.as_dict(), cmd.seed, tuple(deck))


def check_end_turn(s: GameState, ed: Edition, cmd: EndTurn) -> Refusal | None:
    """EndTurn: only the player whose turn it is (jailed or not)."""
    what = "EndTurn"
    reason = check_play(s, cmd.player, what, free=False)
    if reason:
        return reason
    if cmd.player != s.turn:
        return refuse("not_your_turn", f"{what}: expected the player whose turn it is ({s.turn}), got {cmd.player!r}",
                      command=what, turn=s.turn, player=cmd.player)
    return None


def do_end_turn(t: Table, cmd: EndTurn) -> None:
    """Pass the turn to the next active player in registration order."""
    t.emit(ev.TurnEnded, cmd.player, next_player(t.state, cmd.player))


def next_player(s: GameState, player: str) -> str:
    """The active player after ``player`` in registration order (``player`` itself when alone)."""
    order = s.order
    i = order.index(player)
    for k in range(1, len(order) + 1):
        cand = order[(i + k) % len(order)]
        if cand not in s.bankrupt:
            return cand
    return player


def check_turn(s: GameState, player: object, what: str) -> Refusal | None:
    """Turns follow the table (docs/flows.md): the player whose turn it is may land, and so may the next
    one, whose landing moves the turn on; anyone else is refused (End turn skips a player)."""
    if s.turn is None or player == s.turn or not isinstance(player, str) or player not in s.specs:
        return None
    if player == next_player(s, s.turn):
        return None
    return refuse("not_your_turn", f"{what}: expected the player whose turn it is ({s.turn}), got {player!r}",
                  command=what, turn=s.turn, player=player)


def follow_turn(t: Table, player: str) -> None:
    """When the next player lands, the turn passes to them first (as End turn would)."""
    s = t.state
    if s.turn is not None and player != s.turn:
        t.emit(ev.TurnEnded, s.turn, player)


def turn_bound(rule: tuple[Callable[..., Refusal | None], Callable[..., None]], field: str, what: str
               ) -> tuple[Callable[..., Refusal | None], Callable[..., None]]:
    """``rule`` for a landing command: the command's ``field`` (the lander) must have the turn or be next,
    and the next player's landing first moves the turn on (:func:`follow_turn`)."""
    check, do = rule

    def checked(s: GameState, ed: Edition, cmd: Any) -> Refusal | None:
        return check(s, ed, cmd) or check_turn(s, getattr(cmd, field), what)

    def done(t: Table, cmd: Any) -> None:
        follow_turn(t, getattr(cmd, field))
        do(t, cmd)

    return checked, done
