"""Starting a game and the turn order, the same in both rulesets (docs/rules.md 1.3, 6.2;
docs/rules-classic.md 1, 10).

What each ruleset says on its own: its options class, what else its start checks (the classic short
game's two deeds paid at once), what it does at the start (decks, deals) and after a turn ends (the
classic ``RollsReset`` when the unit keeps the tokens), and which commands may move the turn on (the
Ultimate Banking table's next lander). What is the same is here:

- :func:`start_options`, :func:`check_start`: ``StartGame`` in phase setup, with valid options (the
  ruleset's defaults, then the edition's ``[options]``, then the command's), 2..``max_players`` unique ids
  and a whole seed;
- :func:`next_active`: the turn goes round the registration order, skipping bankrupt players;
- :func:`check_turn`: a command only the player whose turn it is may send (``EndTurn``): phase play, a
  registered player who is not bankrupt, the turn's; :func:`not_your_turn` is its refusal;
- :func:`end_turn`: ``TurnEnded`` to the next active player; :func:`follow_turn`: another player acting
  first (their landing, their roll) passes the turn to them as End turn would.

Every check is pure; a ``do`` emits events through the rule's table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engine import events as ev
from engine.commands import StartGame
from engine.errors import OptionError, Refusal, refuse
from engine.ledger import BANK
from engine.options import RuleOptions
from engine.players import check_players
from engine.rulesets.api import Edition, Seats, Table, check_phase, check_player

OptionsT = TypeVar("OptionsT", bound=RuleOptions)


def start_options(ed: Edition, cmd: StartGame, options: type[OptionsT]) -> OptionsT:
    """The options in force for ``cmd``: ``options``' defaults, then the edition's ``[options]``, then the
    command's (raises :class:`~engine.errors.OptionError` for a bad one)."""
    return options.from_mapping({**ed.options, **cmd.options})


def check_start(s: Seats, ed: Edition, cmd: StartGame, options: type[OptionsT], *,
                more: Callable[[OptionsT], Refusal | None] | None = None,
                reserved: tuple[str, ...] = (BANK,)) -> Refusal | None:
    """StartGame: phase setup, valid options (``bad_option``), the ruleset's own check of them (``more``),
    2..max_players unique ids none of which is ``reserved`` (an account name), an int seed."""
    what = "StartGame"
    reason = check_phase(s, "setup", what)
    if reason:
        return reason
    try:
        opts = start_options(ed, cmd, options)
    except OptionError as exc:
        return refuse("bad_option", f"{what}: {exc}", command=what, error=str(exc))
    if more is not None:
        reason = more(opts)
        if reason:
            return reason
    return check_players(cmd.players, opts.max_players, cmd.seed, what, reserved=reserved)


def next_active(s: Seats, player: str) -> str:
    """The next player after ``player`` in registration order who is not bankrupt (``player`` itself when
    alone)."""
    order = s.order
    i = order.index(player)
    for k in range(1, len(order) + 1):
        p = order[(i + k) % len(order)]
        if p not in s.bankrupt:
            return p
    return player


def not_your_turn(s: Seats, player: object, what: str) -> Refusal:
    """The refusal of ``what`` sent by ``player`` when it is another player's turn."""
    return refuse("not_your_turn", f"{what}: expected the player whose turn it is ({s.turn}), got {player!r}",
                  command=what, turn=str(s.turn), player=player)


def check_turn(s: Seats, player: object, what: str) -> Refusal | None:
    """Phase ``play`` and an active ``player`` whose turn it is."""
    if player == s.turn and s.phase == "play":  # the turn is always an active player's (invariants)
        return None
    reason = check_phase(s, "play", what) or check_player(s, player, what)
    if reason:
        return reason
    if player != s.turn:
        return not_your_turn(s, player, what)
    return None


def end_turn(t: Table[Any], player: str) -> None:
    """``player``'s turn ends: the next active player's begins (``TurnEnded``)."""
    t.emit(ev.TurnEnded, player, next_active(t.state, player))


def follow_turn(t: Table[Any], player: str) -> None:
    """``player`` acts before the player whose turn it is ended it (the next lander, the next roller): the
    turn passes to them first, as End turn would (``TurnEnded``)."""
    turn = t.state.turn
    if turn is not None and player != turn:
        t.emit(ev.TurnEnded, turn, player)
