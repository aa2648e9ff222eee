"""Jail (docs/rules-classic.md 8; docs/rules.md 3.1; seeds 000, 001, 002).

A player goes to jail from the Go To Jail square, by a card, or on a third double (the caller sends
``GoToJail``); the token stands on In Jail, apart from Just Visiting on the same corner. Out: pay
``jail_fine`` before rolling, hand back a Get Out of Jail Free card (cards.py), or roll doubles on one of
``jail_max_turns`` turns; after the last failed roll the fine is paid (as a debt if need be) and the player
moves by that roll. A jailed player may still buy, build, trade and collect rent. Amounts in money units.
"""

from __future__ import annotations

from engine import events as ev
from engine.commands import GoToJail, JailRoll, PayJailFee
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.moves import roller as roller_after
from engine.rulesets.api import check_jailed
from engine.rulesets.classic.base import Table, charge, check_turn, next_active
from engine.rulesets.classic.state import ClassicState


def check_jailed_turn(s: ClassicState, player: object, what: str) -> Refusal | None:
    """A jailed player's turn (the fine or a card before rolling): the player whose turn it is, or, when the
    unit keeps the tokens, the jailed player who rolls next (their roll would pass the turn to them, and so
    does paying or handing back the card: :func:`take_turn`)."""
    if (s.options.positions and s.phase == "play" and player != s.turn and player in s.jail
            and player == roller_after(s.turn, s.roll, lambda turn: next_active(s, turn))):
        return None
    return check_turn(s, player, what)


def take_turn(t: Table, player: str) -> None:
    """The turn passes to ``player`` first when it is still the last player's (the unit keeps the tokens)."""
    if player != t.state.turn:
        t.emit(ev.TurnEnded, t.state.turn, player)


def jail_position(ed: Edition) -> int:
    """The board position of the jail corner."""
    return next(sp.position for sp in ed.spaces if sp.kind == "jail")


def send_to_jail(t: Table, player: str) -> None:
    """The player goes to In Jail (no GO salary)."""
    t.emit(ev.JailEntered, player)
    t.emit(ev.TokenMoved, player, jail_position(t.edition))


def check_go_to_jail(s: ClassicState, ed: Edition, cmd: GoToJail) -> Refusal | None:
    """GoToJail: the player whose turn it is, not already in jail."""
    what = "GoToJail"
    reason = check_turn(s, cmd.player, what)
    if reason:
        return reason
    if cmd.player in s.jail:
        return refuse("player_in_jail", f"{what}: player {cmd.player} is in jail", command=what, player=cmd.player)
    return None


def do_go_to_jail(t: Table, cmd: GoToJail) -> None:
    """Into jail."""
    send_to_jail(t, cmd.player)


def _check_jailed(s: ClassicState, player: object, what: str) -> Refusal | None:
    reason = check_jailed_turn(s, player, what) if what == "PayJailFee" else check_turn(s, player, what)
    if reason:
        return reason
    return check_jailed(s.jail, player, what)


def check_pay_fee(s: ClassicState, ed: Edition, cmd: PayJailFee) -> Refusal | None:
    """PayJailFee: a jailed player whose turn it is, with the fine in cash."""
    what = "PayJailFee"
    reason = _check_jailed(s, cmd.player, what)
    if reason:
        return reason
    fine = s.options.jail_fine
    if s.ledger.balances[cmd.player] < fine:
        return refuse("not_enough_cash_jail_fee", f"{what}: {cmd.player} has {s.ledger.balances[cmd.player]}, the "
                      f"fine is {fine}", command=what, player=cmd.player, cash=s.ledger.balances[cmd.player], fee=fine)
    return None


def do_pay_fee(t: Table, cmd: PayJailFee) -> None:
    """Pay the fine (to the Bank or the pot) and leave before rolling."""
    take_turn(t, cmd.player)
    charge(t, cmd.player, t.state.options.jail_fine, "jail_fine")
    t.emit(ev.JailLeft, cmd.player, "fee")


def check_roll(s: ClassicState, ed: Edition, cmd: JailRoll) -> Refusal | None:
    """JailRoll: a jailed player whose turn it is; ``doubles`` true or false. Refused when the unit keeps
    the tokens (option ``positions``: the jail roll is the ``RollDice`` of the dice, moves.py, which also
    moves the token, so a roll by hand would release the player without moving them and leave them a second
    roll)."""
    what = "JailRoll"
    if s.options.positions:
        return refuse("jail_roll_by_dice", f"{what}: the unit keeps the tokens in this game; the jail roll is the "
                      "dice entered (RollDice)", command=what, player=str(cmd.player))
    reason = _check_jailed(s, cmd.player, what)
    if reason:
        return reason
    if not isinstance(cmd.doubles, bool):
        return refuse("bad_doubles", f"{what}: expected doubles true/false, got {cmd.doubles!r}", command=what,
                      doubles=repr(cmd.doubles))
    return None


def do_roll(t: Table, cmd: JailRoll) -> None:
    """Doubles free the player; the last allowed failure charges the fine and frees them too."""
    s = t.state
    if cmd.doubles:
        t.emit(ev.JailLeft, cmd.player, "doubles")
        return
    tries = s.jail[cmd.player] + 1
    if tries >= s.options.jail_max_turns:
        charge(t, cmd.player, s.options.jail_fine, "jail_fine")
        t.emit(ev.JailLeft, cmd.player, "tries_used")
    else:
        t.emit(ev.JailRollFailed, cmd.player, tries)
