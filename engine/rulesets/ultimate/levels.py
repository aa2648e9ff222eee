"""Rent and rent levels (docs/rules.md 1.9, 6.2): buying, paying rent, landing on your own deed, Location, GO.

Rent is the current level's rent (level-1 rent during ON THE RUN) paid to the owner, then the level rises
by one (max 5); levels still rise during ON THE RUN, as in G1. Landing on your own deed raises it by one.
A jailed owner collects nothing and the level stays unless ``jailed_owner_collects_rent`` is on. An
unaffordable rent becomes a debt (engine/rulesets/ultimate/debt.py); the level rise happens all the same. Amounts are
in money units.
"""

from __future__ import annotations

from engine import events as ev
from engine.commands import BuyDeed, PassGo, PayRent
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.api import check_price
from engine.rulesets.ultimate import colour_set
from engine.rulesets.ultimate import events as uev
from engine.rulesets.ultimate.base import MAX_LEVEL, MIN_LEVEL, Table, check_deed, check_play, check_unowned
from engine.rulesets.ultimate.commands import LandOnOwn, UseLocation
from engine.rulesets.ultimate.debt import can_pay, open_debt
from engine.rulesets.ultimate.state import GameState


def raise_level(t: Table, deed: int, steps: int = 1) -> None:
    """Change an owned deed's level by ``steps`` (may be negative), clamped to 1..5; emits if it moved."""
    old = t.state.level[deed]
    new = max(MIN_LEVEL, min(MAX_LEVEL, old + steps))
    if new != old:
        t.emit(uev.LevelChanged, deed, old, new)


def set_level(t: Table, deed: int, new: int) -> None:
    """Set an owned deed's level to ``new`` (1..5); emits if it changed."""
    old = t.state.level[deed]
    if new != old:
        t.emit(uev.LevelChanged, deed, old, new)


def check_pass_go(s: GameState, ed: Edition, cmd: PassGo) -> Refusal | None:
    """PassGo: an active player not in jail, phase play; refused when the unit keeps the tokens (option
    ``positions``: the roll that passes GO pays it, so a second salary would be money invented)."""
    if s.options.positions:
        return refuse("go_paid_by_move", "PassGo: the unit moves the tokens in this game and pays GO itself",
                      command="PassGo", player=str(cmd.player))
    return check_play(s, cmd.player, "PassGo")


def do_pass_go(t: Table, cmd: PassGo) -> None:
    """The Bank pays ``go_salary``."""
    t.emit(ev.SalaryPaid, cmd.player, t.state.options.go_salary)


def check_buy(s: GameState, ed: Edition, cmd: BuyDeed) -> Refusal | None:
    """BuyDeed: an unowned deed, a player not in jail with the printed price in cash."""
    what = "BuyDeed"
    reason = check_unowned(s, ed, cmd.player, cmd.deed, what)
    if reason:
        return reason
    return check_price(s.balance(cmd.player), cmd.player, cmd.deed, ed.deeds[cmd.deed].price, what)


def do_buy(t: Table, cmd: BuyDeed) -> None:
    """Pay the price to the Bank, own the deed at level 1, then the colour-set bonus."""
    t.emit(ev.DeedBought, cmd.player, cmd.deed, t.edition.deeds[cmd.deed].price)
    colour_set.after_acquisition(t, cmd.deed)


def check_land_own(s: GameState, ed: Edition, cmd: LandOnOwn) -> Refusal | None:
    """LandOnOwn: the deed must be the player's."""
    what = "LandOnOwn"
    reason = check_play(s, cmd.player, what) or check_deed(ed, cmd.deed, what)
    if reason:
        return reason
    if s.owner.get(cmd.deed) != cmd.player:
        owner = s.owner.get(cmd.deed)
        return refuse("deed_not_yours", f"{what}: deed {cmd.deed} belongs to {owner or 'the Bank'}, not {cmd.player}",
                      command=what, deed=cmd.deed, player=cmd.player, owner=owner or BANK)
    return None


def do_land_own(t: Table, cmd: LandOnOwn) -> None:
    """Level +1 (nothing beyond 5)."""
    t.emit(uev.OwnDeedVisited, cmd.player, cmd.deed)
    raise_level(t, cmd.deed)


def check_rent(s: GameState, ed: Edition, cmd: PayRent) -> Refusal | None:
    """PayRent: the deed must be owned by another player."""
    what = "PayRent"
    reason = check_play(s, cmd.payer, what) or check_deed(ed, cmd.deed, what)
    if reason:
        return reason
    owner = s.owner.get(cmd.deed)
    if owner is None:
        return refuse("deed_unowned",
                      f"{what}: deed {cmd.deed} is unowned; expected a deed owned by another player (buy or decline it)",
                      command=what, deed=cmd.deed)
    if owner == cmd.payer:
        return refuse("deed_is_own", f"{what}: deed {cmd.deed} is {cmd.payer}'s own; expected LandOnOwn",
                      command=what, deed=cmd.deed, player=cmd.payer)
    return None


def do_rent(t: Table, cmd: PayRent) -> None:
    """Rent at the current level to the owner, then level +1; a jailed owner may collect nothing."""
    s = t.state
    owner = s.owner[cmd.deed]
    if owner in s.jail and not s.options.jailed_owner_collects_rent:
        t.emit(ev.RentWaived, cmd.payer, owner, cmd.deed, "owner_in_jail")
        return
    amount = s.rent_due(cmd.deed)
    if can_pay(s, cmd.payer, amount):
        t.emit(ev.RentPaid, cmd.payer, owner, cmd.deed, amount)
        raise_level(t, cmd.deed)
    else:
        raise_level(t, cmd.deed)
        open_debt(t, cmd.payer, owner, amount, "rent")


def check_location(s: GameState, ed: Edition, cmd: UseLocation) -> Refusal | None:
    """UseLocation: a deed to jump to, the fee in cash, ``origin`` a Location space or None."""
    what = "UseLocation"
    reason = check_play(s, cmd.player, what) or check_deed(ed, cmd.deed, what)
    if reason:
        return reason
    if cmd.origin is not None:
        spots = [sp.position for sp in ed.spaces if sp.kind == "location"]
        if type(cmd.origin) is not int or cmd.origin not in spots:
            return refuse("not_a_location_space", f"{what}: origin {cmd.origin!r} is not a Location space; expected one of {spots} or none",
                          command=what, origin=cmd.origin, spaces=", ".join(map(str, spots)))
    fee = s.options.location_fee
    if not can_pay(s, cmd.player, fee):
        cash = s.balance(cmd.player)
        return refuse("not_enough_cash_location_fee", f"{what}: {cmd.player} has {cash}, the Location fee is {fee}",
                      command=what, player=cmd.player, cash=cash, fee=fee)
    return None


def jump(t: Table, player: str, position: int, origin: int | None) -> None:
    """Move a token by a jump; with ``jump_collects_go`` a jump past GO (target before origin) pays salary."""
    t.emit(ev.TokenMoved, player, position)
    opts = t.state.options
    if opts.jump_collects_go and origin is not None and position < origin:
        t.emit(ev.SalaryPaid, player, opts.go_salary)


def do_location(t: Table, cmd: UseLocation) -> None:
    """Pay the fee to the Bank and move to the deed; the landing is resolved by the next command."""
    t.emit(uev.LocationUsed, cmd.player, cmd.deed, t.state.options.location_fee)
    jump(t, cmd.player, t.edition.deeds[cmd.deed].position, cmd.origin)
