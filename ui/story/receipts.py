"""Receipts in words: the rule and its arithmetic, with the rule's source (``base rent M20 × 2 for the
whole set = M40 [rules-classic.md 5; seed 001 l. 53]``). The figures come from engine/receipts.py (each
ruleset's ``receipts.py``); this only says them. Money terms are ints in the edition's money unit.
"""

from __future__ import annotations

from engine.receipts import Receipt
from ui.story.names import Names

MONEY_TERMS: frozenset[str] = frozenset({
    "rent", "base", "price", "bid", "owed", "paid", "covered", "amount", "fee", "fine", "printed", "per_deed",
    "tax", "worth", "pot", "per_house", "per_hotel", "cost", "mortgage", "interest", "give_cash", "take_cash",
    "salary", "rent_tax",
})
"""Receipt terms that are money (the rest are counts, levels, percents and dice)."""


def receipt_text(receipt: Receipt, names: Names) -> str:
    """``receipt`` as one line in ``names.lang``: the rule with its figures, ``=`` the amount, the source."""
    params: dict[str, object] = {}
    for name, value in receipt.terms:
        params[name] = names.money(value) if name in MONEY_TERMS else names.number(value)
    if receipt.rule == "rent_houses":
        params["houses"] = names.count("receipt.with_houses", receipt.term("houses"))
    text = names.text(f"receipt.{receipt.rule}", **params)
    if receipt.term("rent_tax"):
        text = names.text("receipt.less_tax", text=text, tax_percent=params["tax_percent"], tax=params["rent_tax"])
    return names.text("story.receipt", text=text, amount=names.money(receipt.amount), source=receipt.source)
