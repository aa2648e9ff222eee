"""Receipts of the classic game: how each amount its events record was reached (engine/receipts.py).

Made from the state before the event and the other events of its command (the card just drawn, the rent's tax after it);
amounts in money units; sources as docs/rules-classic.md and the seeds name them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import events as ev
from engine.editions import Edition
from engine.receipts import Receipt, shared_receipt
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.base import MORTGAGE_INTEREST, owns_set
from engine.rulesets.classic.building import sell_refund
from engine.rulesets.classic.edition import cards, taxes
from engine.rulesets.classic.rent import RENT_TAX, UTILITY_CARD_TIMES
from engine.rulesets.classic.standings import worth
from engine.rulesets.classic.state import HOTEL, ClassicState

RENT = "rules-classic.md 5"


def _rent_tax(s: ClassicState) -> int:
    """The percent of a rent the Bank keeps now (``late_game_rent_tax``, seed 002), 0 when none."""
    if s.options.late_game_rent_tax:
        for minute, percent in RENT_TAX:
            if s.minute >= minute:
                return percent
    return 0


def _taxed(rule: str, source: str, full: int, terms: tuple[tuple[str, int], ...], percent: int) -> Receipt:
    """A rent of ``full`` money units, less the late-game tax at ``percent`` (what the owner keeps)."""
    if not percent:
        return Receipt(rule, source, full, terms)
    tax = full * percent // 100
    return Receipt(rule, f"{source}; seed 002", full - tax, (*terms, ("tax_percent", percent), ("rent_tax", tax)))


def rent_receipt(s: ClassicState, ed: Edition, deed: int, kept: int, tax: int = 0) -> Receipt:
    """How the rent of ``deed`` was reached (``kept``: what the owner got, the event's amount; ``tax``: the
    late-game rent tax the Bank kept of it, the ``rent_tax`` transfer after it)."""
    d = ed.deeds[deed]
    owner = s.owner.get(deed)
    percent = _rent_tax(s)
    card = s.card_rent if s.card_rent is not None and s.card_rent[1] == deed else None
    count = sum(1 for m in ed.colour_sets[d.colour] if s.owner.get(m) == owner)
    if d.kind == "street":
        level = s.level.get(deed, 0)
        if level == HOTEL:
            return _taxed("rent_hotel", RENT, d.rents[level], (("rent", d.rents[level]),), percent)
        if level:
            return _taxed("rent_houses", RENT, d.rents[level], (("houses", level), ("rent", d.rents[level])),
                          percent)
        mortgaged = any(m in s.mortgaged for m in ed.colour_sets[d.colour])
        if owns_set(s, ed, deed) and (s.options.mortgaged_set_double_rent or not mortgaged):
            return _taxed("rent_set", f"{RENT}; seed 001 l. 53", d.rents[0] * 2, (("base", d.rents[0]), ("times", 2)),
                          percent)
        return _taxed("rent_base", RENT, d.rents[0], (("rent", d.rents[0]),), percent)
    if d.kind == "railroad":
        rent = d.rents[count - 1]
        if card is not None and card[2] == "double":
            return _taxed("rent_railroad_card", f"{RENT}; rules.md 3.3", rent * 2,
                          (("count", count), ("rent", rent), ("times", 2)), percent)
        return _taxed("rent_railroad", RENT, rent, (("count", count), ("rent", rent)), percent)
    times = UTILITY_CARD_TIMES if card is not None and card[2] == "tenfold" else d.rents[count - 1]
    rule = "rent_utility_card" if card is not None and card[2] == "tenfold" else "rent_utility"
    full = kept + tax  # the dice total is in the command, not the event: the rent before its tax says it
    return _taxed(rule, RENT, full, (("count", count), ("times", times), ("dice", full // max(1, times))), percent)


def _fee(s: ClassicState, ed: Edition, payer: str, amount: int, command: Sequence[Any]) -> Receipt:
    """A mortgage transfer fee paid as a plain transfer (a debt's deeds): the percent of the deed's mortgage."""
    percent = s.options.mortgage_transfer_fee
    for deed in sorted(ed.deeds):
        mortgage = ed.deeds[deed].mortgage
        if (mortgage * percent + 99) // 100 == amount:
            return Receipt("mortgage_fee", "rules-classic.md 7", amount, (("percent", percent), ("mortgage", mortgage)))
    return Receipt("mortgage_fee", "rules-classic.md 7", amount, (("percent", percent), ("mortgage", amount * 100 // max(1, percent))))


def _card(ed: Edition, command: Sequence[Any], seq: int) -> Any:
    """The card drawn before event ``seq`` in its command (None if none)."""
    for e in reversed([e for e in command if e.seq < seq]):
        if isinstance(e, cev.CardDrawn):
            return cards(ed).get(e.card)
    return None


def _money(s: ClassicState, ed: Edition, e: ev.MoneyTransferred, command: Sequence[Any]) -> Receipt | None:
    reason = e.reason
    if reason == "jail_fine":
        return Receipt("jail_fine", "rules-classic.md 8", e.amount, (("fine", s.options.jail_fine),))
    if reason in ("income_tax", "luxury_tax"):
        position = s.position.get(e.payer) if s.position else None
        flat = next((amount for kind, amount in taxes(ed).values() if f"{kind}_tax" == reason), e.amount)
        if position is not None and position in taxes(ed):
            flat = taxes(ed)[position][1]
        if e.amount == flat:
            return Receipt("tax_flat", "rules-classic.md 3; rules.md 3.2", e.amount, (("tax", flat),))
        value = worth(s, ed, e.payer, mortgaged_at_half=False)
        percent = s.options.income_tax_percent
        return Receipt("tax_percent", "rules-classic.md 2; seed 001", value * percent // 100,
                       (("percent", percent), ("worth", value)))
    if reason == "rent_tax":
        percent = _rent_tax(s)
        return Receipt("rent_tax", "rules-classic.md 2; seed 002", e.amount, (("tax_percent", percent),))
    if reason == "jackpot":
        return Receipt("jackpot", "rules-classic.md 2", s.pot, (("pot", s.pot),))
    if reason == "mortgage_fee":
        return _fee(s, ed, e.payer, e.amount, command)
    if reason == "repairs":
        card = _card(ed, command, e.seq)
        if card is not None:
            levels = [v for d, v in s.level.items() if s.owner.get(d) == e.payer]
            houses = sum(v for v in levels if v < HOTEL)
            hotels = sum(1 for v in levels if v == HOTEL)
            per_house, per_hotel = int(str(card.params["per_house"])), int(str(card.params["per_hotel"]))
            return Receipt("repairs", "rules.md 3.3, 3.4", houses * per_house + hotels * per_hotel,
                           (("houses", houses), ("per_house", per_house), ("hotels", hotels), ("per_hotel", per_hotel)))
    if reason == "card":
        card = _card(ed, command, e.seq)
        if card is not None:
            return Receipt("card", "rules.md 3.3, 3.4", e.amount, (("printed", card.amount),))
    if reason == "bankruptcy":
        return Receipt("bank_covers", "rules-classic.md 9", e.amount, (("amount", e.amount),))
    return None


def receipt(s: ClassicState, ed: Edition, event: Any, command: Sequence[Any] = ()) -> Receipt | None:
    """The receipt of ``event`` from the state ``s`` before it; None for an event that moves no money."""
    if isinstance(event, ev.RentPaid):
        tax = next((e.amount for e in command if e.seq == event.seq + 1 and isinstance(e, ev.MoneyTransferred)
                    and e.reason == "rent_tax"), 0)
        return rent_receipt(s, ed, event.deed, event.amount, tax)
    if isinstance(event, ev.MoneyTransferred):
        return _money(s, ed, event, command)
    if isinstance(event, cev.BuildingBought):
        cost = ed.deeds[event.deed].house_cost
        if event.cost != cost:
            return Receipt("building_auction", "rules-classic.md 6; seed 000", event.cost, (("bid", event.cost),))
        rule = "hotel_cost" if event.level == HOTEL else "house_cost"
        return Receipt(rule, "rules-classic.md 6", cost, (("cost", cost),))
    if isinstance(event, cev.BuildingSold):
        one = sell_refund(s, ed, event.deed)
        count = max(1, event.refund // one) if one else 1
        return Receipt("building_sold", "rules-classic.md 6", one * count,
                       (("count", count), ("cost", ed.deeds[event.deed].house_cost),
                        ("percent", s.options.house_sell_price)))
    if isinstance(event, cev.DeedMortgaged):
        return Receipt("mortgage", "rules-classic.md 7", ed.deeds[event.deed].mortgage,
                       (("mortgage", ed.deeds[event.deed].mortgage),))
    if isinstance(event, cev.MortgageLifted):
        full = s.options.lift_at_full_value
        m = ed.deeds[event.deed].price if full else ed.deeds[event.deed].mortgage
        interest = 0 if event.deed in s.fresh else (m * MORTGAGE_INTEREST + 99) // 100
        return Receipt("lift_full" if full else "lift", "rules-classic.md 7" + ("; seed 000 l. 158" if full else ""),
                       m + interest, (("mortgage", m), ("interest", interest), ("percent", MORTGAGE_INTEREST)))
    if isinstance(event, cev.MortgageFeePaid):
        percent = s.options.mortgage_transfer_fee
        mortgage = ed.deeds[event.deed].mortgage
        return Receipt("mortgage_fee", "rules-classic.md 7", (mortgage * percent + 99) // 100,
                       (("percent", percent), ("mortgage", mortgage)))
    if isinstance(event, cev.TradeCompleted) and s.trade is not None:
        give, take = s.trade.give_cash, s.trade.take_cash
        return Receipt("trade", "rules-classic.md 7", give + take, (("give_cash", give), ("take_cash", take)))
    if isinstance(event, ev.SalaryPaid):
        return Receipt("salary", "rules-classic.md 3", event.amount, (("salary", event.amount),))
    return shared_receipt(s, event, command)
