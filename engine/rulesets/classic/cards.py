"""Chance, Community Chest, the taxes and Free Parking (docs/rules-classic.md 3, 5, 8; docs/rules.md 3.3, 3.4).

``DrawCard`` takes the top card of the space's deck (or the physical card the table drew); it goes to the bottom, except a Get Out of Jail Free
card, which the drawer keeps until it is used (``UseJailCard``), traded, or returned on a bankruptcy to the
Bank. A card that moves the token emits ``TokenMoved`` and pays the salary when it passes or reaches GO
(never "back three spaces" or "go to jail"); the caller then resolves the new square with the usual command.
"Nearest railroad" and "nearest utility" record the card's rule for the rent (``CardRentSet``). Taxes and the
card payments to the Bank go to the Free Parking pot with ``free_parking_jackpot`` (seed 001's house rule);
Income Tax may be the share of worth with ``income_tax_choice`` (seed 001). Amounts in money units.
"""

from __future__ import annotations

from engine import events as ev
from engine.editions import Edition, EventCard
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.base import Table, charge, check_turn, pay
from engine.rulesets.classic.commands import CollectJackpot, DrawCard, PayTax, UseJailCard
from engine.rulesets.classic.edition import cards, taxes
from engine.rulesets.classic.moves import jail, placed
from engine.rulesets.classic.rent import RENT_TAX
from engine.rulesets.classic.standings import worth
from engine.rulesets.classic.state import HOTEL, POT, ClassicState
from engine.rulesets.classic.turns import salary


def check_draw(s: ClassicState, ed: Edition, cmd: DrawCard) -> Refusal | None:
    """DrawCard: the player whose turn it is, on a Chance or Community Chest space."""
    what = "DrawCard"
    reason = check_turn(s, cmd.player, what)
    if reason:
        return reason
    pos = cmd.position
    if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos < len(ed.spaces) \
            or ed.spaces[pos].kind not in ("chance", "chest"):
        return refuse("not_a_card_space", f"{what}: expected a Chance or Community Chest position, got {pos!r}",
                      command=what, position=repr(pos))
    if cmd.card is not None:
        deck = s.chance if ed.spaces[pos].kind == "chance" else s.chest
        if isinstance(cmd.card, bool) or cmd.card not in deck:
            return refuse("card_not_in_deck", f"{what}: card {cmd.card!r} is not in the {ed.spaces[pos].kind} deck "
                          "(another deck's, or a jail card a player holds)", command=what, card=repr(cmd.card))
    return None


def _move(t: Table, player: str, origin: int, target: int) -> None:
    t.emit(ev.TokenMoved, player, target)
    placed(t, player, target, "card")
    if target < origin:
        t.emit(ev.SalaryPaid, player, salary(t.state))


def _nearest(ed: Edition, origin: int, kind: str) -> int:
    size = len(ed.spaces)
    for k in range(1, size + 1):
        deed = ed.spaces[(origin + k) % size].deed
        if deed is not None and ed.deeds[deed].kind == kind:
            return (origin + k) % size
    raise KeyError(kind)


def card_tax(s: ClassicState, card: EventCard) -> int:
    """What the late-game rent tax keeps of a Chance card's payout with ``rent_tax_on_cards`` (seed 002
    l. 282: "this tax also reduces Chance payouts"), rounded down as the rent's; money units."""
    if not (s.options.rent_tax_on_cards and s.options.late_game_rent_tax and card.deck == "chance"):
        return 0
    for minute, percent in RENT_TAX:
        if s.minute >= minute:
            return card.amount * percent // 100
    return 0


def apply_card(t: Table, player: str, origin: int, card: EventCard) -> None:
    """The effect of ``card`` drawn by ``player`` on the space ``origin``."""
    s, ed = t.state, t.edition
    effect, p = card.effect, card.params
    if effect == "advance":
        _move(t, player, origin, int(str(p["target"])))
    elif effect == "back":
        back = (origin - int(str(p["steps"]))) % len(ed.spaces)
        t.emit(ev.TokenMoved, player, back)
        placed(t, player, back, "card")
    elif effect == "nearest":
        target = _nearest(ed, origin, str(p["kind"]))
        _move(t, player, origin, target)
        deed = ed.spaces[target].deed
        assert deed is not None
        owner = s.owner.get(deed)
        if owner is not None and owner != player:
            t.emit(cev.CardRentSet, player, deed, str(p["rule"]))
    elif effect == "jail":
        jail(t, player)
    elif effect == "collect":
        t.emit(ev.MoneyTransferred, BANK, player, card.amount - card_tax(s, card), "card")
    elif effect == "pay":
        charge(t, player, card.amount, "card")
    elif effect == "pay_each":
        for other in s.active_players():
            if other != player:
                pay(t, player, other, card.amount, "card")
    elif effect == "collect_each":
        for other in s.active_players():
            if other != player:
                pay(t, other, player, card.amount, "card")
    elif effect == "repairs":
        levels = [v for d, v in s.level.items() if s.owner.get(d) == player]
        houses = sum(v for v in levels if v < HOTEL)
        hotels = sum(1 for v in levels if v == HOTEL)
        charge(t, player, houses * int(str(p["per_house"])) + hotels * int(str(p["per_hotel"])), "repairs")


def do_draw(t: Table, cmd: DrawCard) -> None:
    """Draw the top card of the space's deck and carry out its effect."""
    s = t.state
    deck = s.chance if t.edition.spaces[cmd.position].kind == "chance" else s.chest
    card = cards(t.edition)[deck[0] if cmd.card is None else cmd.card]
    t.emit(cev.CardDrawn, cmd.player, card.id)
    apply_card(t, cmd.player, cmd.position, card)


def check_use_card(s: ClassicState, ed: Edition, cmd: UseJailCard) -> Refusal | None:
    """UseJailCard: a jailed player whose turn it is, holding a Get Out of Jail Free card."""
    what = "UseJailCard"
    reason = check_turn(s, cmd.player, what)
    if reason:
        return reason
    if cmd.player not in s.jail:
        return refuse("not_in_jail", f"{what}: player {cmd.player} is not in jail", command=what, player=cmd.player)
    if cmd.player not in s.held.values():
        return refuse("no_jail_card", f"{what}: {cmd.player} holds no Get Out of Jail Free card", command=what,
                      player=cmd.player)
    return None


def do_use_card(t: Table, cmd: UseJailCard) -> None:
    """Return the lowest-numbered card held to its deck and leave jail."""
    t.emit(cev.JailCardUsed, cmd.player, t.state.cards_of(cmd.player)[0])
    t.emit(ev.JailLeft, cmd.player, "card")


def tax_amount(s: ClassicState, ed: Edition, player: str, position: int, percent: bool) -> int:
    """The tax due on ``position`` (the share of worth for Income Tax when chosen), in money units."""
    if percent:
        return worth(s, ed, player, mortgaged_at_half=False) * s.options.income_tax_percent // 100
    return int(taxes(ed)[position][1])


def check_tax(s: ClassicState, ed: Edition, cmd: PayTax) -> Refusal | None:
    """PayTax: the player whose turn it is on a tax space; the percent only on Income Tax with the option."""
    what = "PayTax"
    reason = check_turn(s, cmd.player, what)
    if reason:
        return reason
    table = taxes(ed)
    if cmd.position not in table:
        return refuse("not_a_tax_space", f"{what}: expected a tax position {sorted(table)}, got {cmd.position!r}",
                      command=what, position=repr(cmd.position))
    if cmd.percent and (table[cmd.position][0] != "income" or not s.options.income_tax_choice):
        return refuse("no_tax_choice", f"{what}: the share of worth needs Income Tax and option income_tax_choice",
                      command=what, position=cmd.position)
    return None


def do_tax(t: Table, cmd: PayTax) -> None:
    """Pay the tax to the Bank (or the pot); a debt if the cash is short."""
    kind = taxes(t.edition)[cmd.position][0]
    amount = tax_amount(t.state, t.edition, cmd.player, cmd.position, cmd.percent)
    if amount <= 0:  # the share of a worth of nothing: settled at 0, and the journal says so
        t.emit(ev.MoneyTransferred, cmd.player, POT if t.state.options.free_parking_jackpot else BANK, 0,
               f"{kind}_tax")
        return
    charge(t, cmd.player, amount, f"{kind}_tax")


def check_jackpot(s: ClassicState, ed: Edition, cmd: CollectJackpot) -> Refusal | None:
    """CollectJackpot: the player whose turn it is, option free_parking_jackpot, money in the pot."""
    what = "CollectJackpot"
    reason = check_turn(s, cmd.player, what)
    if reason:
        return reason
    if not s.options.free_parking_jackpot:
        return refuse("no_jackpot", f"{what}: the game has no Free Parking pot (option free_parking_jackpot)",
                      command=what)
    if s.pot <= 0:
        return refuse("pot_empty", f"{what}: the pot is empty", command=what)
    return None


def do_jackpot(t: Table, cmd: CollectJackpot) -> None:
    """The player takes the whole pot."""
    t.emit(ev.MoneyTransferred, POT, cmd.player, t.state.pot, "jackpot")
