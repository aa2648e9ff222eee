"""Jail (docs/rules.md 1.12, 6.2; options ``jail_fee``, ``jail_max_tries``).

``GoToJail`` (space 27, the third double, PICK YOUR OWN) puts the token on the Jail space. A jailed player
may pay ``jail_fee`` before rolling (a debt, paid by returning deeds, when the cash is short), or roll for
doubles with ``JailRoll``: one roll per turn, in the player's own turn; doubles release at once; the
failure that uses up ``jail_max_tries`` charges the fee (a debt if the cash is short) and releases. Jail
resets nothing else. A jailed player cannot land, buy or bid (engine/rulesets/ultimate/base.py ``free``). Amounts are
in money units.
"""

from __future__ import annotations

from engine import events as ev
from engine.commands import GoToJail, JailRoll, PayJailFee
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.api import check_jailed
from engine.rulesets.ultimate.base import Table, check_play, space_position
from engine.rulesets.ultimate.debt import charge
from engine.rulesets.ultimate.state import GameState


def send_to_jail(t: Table, player: str) -> None:
    """Jail ``player`` and move the token to the Jail space."""
    t.emit(ev.JailEntered, player)
    t.emit(ev.TokenMoved, player, space_position(t.edition, "jail"))


def check_go_to_jail(s: GameState, ed: Edition, cmd: GoToJail) -> Refusal | None:
    """GoToJail: a player not already in jail."""
    return check_play(s, cmd.player, "GoToJail")


def do_go_to_jail(t: Table, cmd: GoToJail) -> None:
    """To jail."""
    send_to_jail(t, cmd.player)


def _check_jailed(s: GameState, player: str, what: str) -> Refusal | None:
    """Refusal unless ``player`` is active and in jail, in phase play."""
    reason = check_play(s, player, what, free=False)
    if reason:
        return reason
    return check_jailed(s.jail, player, what)


def check_pay_fee(s: GameState, ed: Edition, cmd: PayJailFee) -> Refusal | None:
    """PayJailFee: a jailed player (short of cash, the fee becomes a debt, as rent does)."""
    return _check_jailed(s, cmd.player, "PayJailFee")


def do_pay_fee(t: Table, cmd: PayJailFee) -> None:
    """Leave, and pay the fee to the Bank (or owe it: engine/rulesets/ultimate/debt.py ``charge``)."""
    t.emit(ev.JailLeft, cmd.player, "fee")
    charge(t, cmd.player, BANK, t.state.options.jail_fee, "jail_fee")


def check_roll(s: GameState, ed: Edition, cmd: JailRoll) -> Refusal | None:
    """JailRoll by hand (the jail-roll buttons): :func:`check_try`; refused when the unit keeps the tokens
    (option ``positions``: the jail roll is the ``RollDice`` of the dice, which also moves the token, so a roll
    by hand would release the player without moving them and leave them a second roll)."""
    if s.options.positions:
        return refuse("jail_roll_by_dice", "JailRoll: the unit keeps the tokens in this game; the jail roll is "
                      "the dice entered (RollDice)", command="JailRoll", player=str(cmd.player))
    return check_try(s, ed, cmd)


def check_try(s: GameState, ed: Edition, cmd: JailRoll) -> Refusal | None:
    """One try for doubles: a jailed player, in their own turn, who has not rolled yet this turn; ``doubles``
    a bool (also the jail roll inside ``RollDice``, moves.py)."""
    what = "JailRoll"
    if not isinstance(cmd.doubles, bool):
        return refuse("bad_doubles", f"{what}: expected doubles true or false, got {cmd.doubles!r}",
                      command=what, doubles=cmd.doubles)
    reason = _check_jailed(s, cmd.player, what)
    if reason:
        return reason
    if s.jail_rolled == cmd.player and cmd.player == s.turn:  # (the turn itself: the rule table's turn_bound)
        return refuse("jail_roll_done", f"{what}: {cmd.player} already rolled for doubles this turn",
                      command=what, player=cmd.player)
    return None


def do_roll(t: Table, cmd: JailRoll) -> None:
    """Doubles: out. Otherwise count the try; the last allowed failure charges the fee and releases."""
    if cmd.doubles:
        t.emit(ev.JailLeft, cmd.player, "doubles")
        return
    s = t.state
    tries = s.jail[cmd.player] + 1
    t.emit(ev.JailRollFailed, cmd.player, tries)
    if tries >= s.options.jail_max_tries:
        t.emit(ev.JailLeft, cmd.player, "tries_used")
        charge(t, cmd.player, BANK, s.options.jail_fee, "jail_fee")
