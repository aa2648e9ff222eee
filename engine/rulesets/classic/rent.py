"""Buying, declining and rent (docs/rules-classic.md 4, 5; docs/rules.md 3.1, 3.2).

A deed on an unowned space is bought at its printed price or declined; a declined deed goes to auction
(auction.py). Rent: a street's printed rent, doubled without houses when its owner holds the whole colour
set, then the rent with 1-4 houses or a hotel; a railroad 25/50/100/200 with 1-4 owned (double after the
"nearest railroad" card); a utility 4 or 10 times the dice (``PayUtilityRent`` carries the dice total;
ten times after the "nearest utility" card). A mortgaged deed charges nothing; a jailed owner still
collects. With ``late_game_rent_tax`` the Bank keeps part of each rent from minute 61 (seed 002). With
``rent_must_be_claimed`` rent can only be charged during the lander's own turn (seed 000). Amounts in
money units.
"""

from __future__ import annotations

from typing import Final

from engine import events as ev
from engine.commands import BuyDeed, DeclineDeed, PayRent
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.api import check_price
from engine.rulesets.classic.base import (
    Table,
    check_deed,
    check_phase,
    check_player,
    check_turn,
    in_debt,
    rent_for,
)
from engine.rulesets.classic.commands import PayUtilityRent
from engine.rulesets.classic.state import ClassicState

RENT_TAX: Final = ((106, 99), (91, 90), (76, 75), (61, 50))
"""(from minute, percent of each rent the Bank keeps) with ``late_game_rent_tax`` (seed 002)."""
UTILITY_CARD_TIMES: Final = 10  # the "nearest utility" card: ten times the dice


def _unowned(s: ClassicState, ed: Edition, player: object, deed: object, what: str) -> Refusal | None:
    reason = check_turn(s, player, what) or check_deed(ed, deed, what)
    if reason:
        return reason
    owner = s.owner.get(deed)  # type: ignore[call-overload]
    if owner is not None:
        return refuse("deed_owned", f"{what}: deed {deed} is already owned by {owner}; expected an unowned deed",
                      command=what, deed=deed, owner=owner)
    return None


def check_buy(s: ClassicState, ed: Edition, cmd: BuyDeed) -> Refusal | None:
    """BuyDeed: the player whose turn it is, an unowned deed, enough cash for its price."""
    what = "BuyDeed"
    reason = _unowned(s, ed, cmd.player, cmd.deed, what)
    if reason:
        return reason
    return check_price(s.ledger.balances[cmd.player], cmd.player, cmd.deed, ed.deeds[cmd.deed].price, what)


def do_buy(t: Table, cmd: BuyDeed) -> None:
    """The player pays the printed price to the Bank and owns the deed."""
    t.emit(ev.DeedBought, cmd.player, cmd.deed, t.edition.deeds[cmd.deed].price)


def check_decline(s: ClassicState, ed: Edition, cmd: DeclineDeed) -> Refusal | None:
    """DeclineDeed: the player whose turn it is and an unowned deed."""
    return _unowned(s, ed, cmd.player, cmd.deed, "DeclineDeed")


def do_decline(t: Table, cmd: DeclineDeed) -> None:
    """The deed goes to auction among the players still in (the decliner too with ``decliner_may_bid``)."""
    s = t.state
    t.emit(ev.DeedDeclined, cmd.player, cmd.deed)
    bidders = tuple(p for p in s.order if p not in s.bankrupt
                    and (p != cmd.player or s.options.decliner_may_bid))
    if bidders:
        t.emit(ev.AuctionOpened, cmd.deed, bidders)


def _check_rent(s: ClassicState, ed: Edition, payer: object, deed: object, what: str,
                utility: bool) -> Refusal | None:
    if not (s.phase == "play" and type(payer) is str and payer in s.specs and payer not in s.bankrupt
            and type(deed) is int and deed in ed.deeds):  # else the refusal, from the common checks
        reason = check_phase(s, "play", what) or check_player(s, payer, what) or check_deed(ed, deed, what)
        if reason:
            return reason
    assert isinstance(deed, int)
    owner = s.owner.get(deed)
    if owner is None:
        return refuse("deed_unowned", f"{what}: deed {deed} is unowned; buy it or decline it", command=what,
                      deed=deed)
    if owner == payer:
        return refuse("deed_is_own", f"{what}: deed {deed} is {payer}'s own", command=what, deed=deed, player=payer)
    if (ed.deeds[deed].kind == "utility") != utility:
        other = "PayUtilityRent" if not utility else "PayRent"
        return refuse("wrong_rent_command", f"{what}: deed {deed} is a {ed.deeds[deed].kind}; expected {other}",
                      command=what, deed=deed, expected=other)
    if s.options.rent_must_be_claimed and payer != s.turn:
        return refuse("rent_not_claimed", f"{what}: the rent for deed {deed} had to be claimed during {payer}'s "
                      "turn (option rent_must_be_claimed)", command=what, deed=deed, player=payer)
    return None


def check_rent(s: ClassicState, ed: Edition, cmd: PayRent) -> Refusal | None:
    """PayRent: a street or railroad owned by another player."""
    return _check_rent(s, ed, cmd.payer, cmd.deed, "PayRent", False)


def check_utility_rent(s: ClassicState, ed: Edition, cmd: PayUtilityRent) -> Refusal | None:
    """PayUtilityRent: a utility owned by another player and a dice total of 2..12."""
    reason = _check_rent(s, ed, cmd.payer, cmd.deed, "PayUtilityRent", True)
    if reason:
        return reason
    if isinstance(cmd.dice, bool) or not isinstance(cmd.dice, int) or not 2 <= cmd.dice <= 12:
        return refuse("bad_dice_total", f"PayUtilityRent: expected a dice total 2..12, got {cmd.dice!r}",
                      command="PayUtilityRent", dice=repr(cmd.dice))
    return None


def _charge_rent(t: Table, payer: str, deed: int, amount: int) -> None:
    s = t.state
    owner = s.owner[deed]
    if amount <= 0:
        t.emit(ev.RentWaived, payer, owner, deed, "mortgaged")
        return
    tax = 0
    if s.options.late_game_rent_tax:
        for minute, percent in RENT_TAX:
            if s.minute >= minute:
                tax = amount * percent // 100
                break
    kept = amount - tax
    if s.ledger.balances[payer] >= amount and not in_debt(s, payer):
        t.emit(ev.RentPaid, payer, owner, deed, kept)
        if tax:
            t.emit(ev.MoneyTransferred, payer, BANK, tax, "rent_tax")
        return
    t.emit(ev.DebtOpened, payer, owner, kept, "rent")
    if tax:
        t.emit(ev.DebtOpened, payer, BANK, tax, "rent_tax")


def do_rent(t: Table, cmd: PayRent) -> None:
    """Rent for a street or railroad (double for a railroad reached by the card)."""
    s = t.state
    amount = rent_for(s, t.edition, cmd.deed)
    card = s.card_rent
    if card is not None and card[0] == cmd.payer and card[1] == cmd.deed and card[2] == "double":
        amount *= 2
    _charge_rent(t, cmd.payer, cmd.deed, amount)


def do_utility_rent(t: Table, cmd: PayUtilityRent) -> None:
    """Rent for a utility: 4 or 10 times the dice, or ten times after the card."""
    s = t.state
    card = s.card_rent
    if card is not None and card[0] == cmd.payer and card[1] == cmd.deed and card[2] == "tenfold":
        amount = 0 if cmd.deed in s.mortgaged else UTILITY_CARD_TIMES * cmd.dice
    else:
        amount = rent_for(s, t.edition, cmd.deed, cmd.dice)
    _charge_rent(t, cmd.payer, cmd.deed, amount)
