"""Count it in words (docs/flows.md, "Count it"): the question a counting player answers, the hint after a
wrong answer (the payment's receipt, engine/receipts.py, said by ui/story/receipts.py's catalog entries but
without its total), the praise or the answer, and the scores. The banker decides everything; this only says
it in the table's language. Amounts are ints in the edition's money unit.
"""

from __future__ import annotations

from engine.banker.viewmodel import CountedView, QuestionView, ScoreView
from engine.receipts import Receipt
from ui.story.names import Names
from ui.story.receipts import MONEY_TERMS

RENT_RULES = frozenset({"rent_level", "rent_on_the_run", "rent_hotel", "rent_houses", "rent_set", "rent_base",
                        "rent_railroad", "rent_railroad_card", "rent_utility", "rent_utility_card"})
"""Receipt rules of a rent: the question names the deed (and its houses)."""


def question_text(q: QuestionView, names: Names) -> str:
    """``Rent for Baltic Avenue with 2 houses?``, ``Price of Baltic Avenue?``, ``Change from M500 for M230?``,
    or what the player pays / gets."""
    player = names.player(q.player)
    if q.rule == "change":  # the change from the next note up (engine/banker/counting.py)
        return names.text("count.ask.change", player=player, note=names.money(q.note),
                          paid=names.money(q.note - q.amount))
    if q.rule in RENT_RULES and q.deed is not None:
        if q.houses:
            houses = names.count("receipt.with_houses", q.houses)
            return names.text("count.ask.rent_houses", player=player, deed=names.deed(q.deed), houses=houses)
        return names.text("count.ask.rent", player=player, deed=names.deed(q.deed))
    if q.rule == "price" and q.deed is not None:
        return names.text("count.ask.price", player=player, deed=names.deed(q.deed))
    if q.rule == "salary":
        return names.text("count.ask.salary", player=player)
    return names.text("count.ask.pays" if q.role == "pays" else "count.ask.paid", player=player)


def hint_text(q: QuestionView, names: Names) -> str:
    """After a wrong answer: the receipt's rule and figures without its total; a figure that is the answer
    itself (a printed rent or price) is not said: the card is named instead. A change question's hint is its
    arithmetic (``M500 − M230``)."""
    given = names.money(q.given) if q.given is not None else ""
    if q.rule == "change":  # the arithmetic: the note less the payment
        return names.text("count.hint.change", given=given, note=names.money(q.note),
                          paid=names.money(q.note - q.amount))
    if not q.terms or any(name in MONEY_TERMS and value == q.amount for name, value in q.terms):
        return names.text("count.hint.card", given=given)
    receipt = Receipt(q.rule, "", q.amount, q.terms)
    params: dict[str, object] = {}
    for name, value in receipt.terms:
        params[name] = names.money(value) if name in MONEY_TERMS else names.number(value)
    if receipt.rule == "rent_houses":
        params["houses"] = names.count("receipt.with_houses", receipt.term("houses"))
    return names.text("count.hint", given=given, rule=names.text(f"receipt.{q.rule}", **params))


def counted_text(done: CountedView, names: Names) -> str:
    """The question that ended: praise, the answer after two wrong ones, or the payment that went through."""
    passed = "count.passed_change" if done.note else "count.passed"  # a change: the amount is the change
    key = {"right": "count.right", "revealed": "count.revealed"}.get(done.outcome, passed)
    return names.text(key, player=names.player(done.player), amount=names.money(done.amount),
                      note=names.money(done.note))


def scores_text(scores: tuple[ScoreView, ...], names: Names) -> str:
    """One line: each counter's right answers of those answered."""
    parts = [names.text("count.score", player=names.player(s.player), right=s.right, answered=s.answered)
             for s in scores]
    return names.text("count.scores", scores=", ".join(parts))


def counted_notice(view: object, translator: object) -> str | None:
    """The notice of a question that just ended (a view's ``counted``), in the translator's language; None
    when none ended."""
    done = getattr(view, "counted", None)
    if done is None:
        return None
    return counted_text(done, Names.from_view(view, translator.lang, translator))  # type: ignore[attr-defined,arg-type]
