"""Receipts: how an amount the journal recorded was reached (the rule, its figures, its source).

A receipt is pure data made from the state *before* the event (and the events of the same command before
it): ``rule`` names the sentence that explains it (the catalog key ``receipt.<rule>``), ``source`` the rule's
place in the project's rule documents (``rules.md 1.9``, ``rules-classic.md 5; seed 001 l. 53``), ``terms``
its figures by name (money units, counts, percents, dice) and ``amount`` what the figures come to, in
money units. A ruleset's ``receipt(state, edition, event, command)`` (its ``receipts.py``; ``command``: every event of
the event's command, before and after it) makes the receipts of its events and
falls back on :func:`shared_receipt` for the events every ruleset has.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine import events as ev
from engine.editions import Edition


@dataclass(frozen=True, slots=True)
class Receipt:
    """One amount explained. ``amount`` in money units; ``terms`` are (name, int) pairs in the order said."""

    rule: str
    source: str
    amount: int
    terms: tuple[tuple[str, int], ...] = ()

    def term(self, name: str, default: int = 0) -> int:
        """The figure called ``name`` (``default`` when it has none)."""
        for key, value in self.terms:
            if key == name:
                return value
        return default


def money_of(event: Any) -> int | None:
    """The money an event moved, in money units (the sum of its transfers), or None if it moves none."""
    if isinstance(event, ev.RentPaid | ev.MoneyTransferred | ev.MoneyCorrected | ev.DebtSettled):
        return int(event.amount)
    if isinstance(event, ev.SalaryPaid | ev.AuctionWon):
        return int(event.amount)
    if isinstance(event, ev.DeedBought):
        return int(event.price)
    if isinstance(event, ev.PlayerBankrupt):
        return int(event.paid + event.covered)
    row = getattr(event, "money", None)
    if row is not None:
        return int(row[0])
    for name in ("fee", "refund", "cost", "price"):
        value = getattr(event, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def shared_receipt(state: Any, event: Any, command: Sequence[Any] = ()) -> Receipt | None:
    """The receipt of an event both rulesets have (GO, buying, an auction, a debt, a bankruptcy, a banker's
    correction), read from ``state`` before it; None for an event this does not explain."""
    if isinstance(event, ev.SalaryPaid):
        return Receipt("salary", "rules.md 1.13; rules-classic.md 3", event.amount,
                       (("salary", state.options.go_salary),))
    if isinstance(event, ev.DeedBought):
        return Receipt("price", "rules.md 1.8; rules-classic.md 4", event.price, (("price", event.price),))
    if isinstance(event, ev.AuctionWon):
        return Receipt("auction", "rules.md 1.14; rules-classic.md 4", event.amount, (("bid", event.amount),))
    if isinstance(event, ev.DebtSettled):
        return Receipt("debt", "rules.md 1.15; rules-classic.md 9", event.amount, (("owed", event.amount),))
    if isinstance(event, ev.PlayerBankrupt):  # ``deeds``: those handed over in the same command (classic)
        deeds = sum(len(getattr(e, "deeds", ())) for e in command
                    if e.seq > event.seq and getattr(e, "player", None) == event.player and hasattr(e, "cards"))
        return Receipt("bankrupt", "rules.md 1.15; rules-classic.md 9", event.paid + event.covered,
                       (("paid", event.paid), ("covered", event.covered), ("deeds", deeds)))
    if isinstance(event, ev.MoneyCorrected):
        return Receipt("correction", "flows.md", event.amount, (("amount", event.amount),))
    return None


def walk(edition: Edition, events: Iterable[Any]) -> Iterator[tuple[Any, Receipt | None]]:
    """Each event of a game with its receipt (None for one that moves no money), the state folded as it
    goes: the events of a journal, in order. Each receipt sees the events of its whole command (a rent's
    late-game tax follows it). An undo rebuilds the state from the events before it."""
    pending: list[Any] = []
    walker = _Walker(edition)
    for event in events:
        if pending and pending[-1].command != event.command:
            yield from walker.command(tuple(pending))
            pending = []
        pending.append(event)
    if pending:
        yield from walker.command(tuple(pending))


class ReceiptBook:
    """Receipts of a game's events as they become durable (a screen's or a speaker's view of the story).

    Start it with the game's edition and its events so far (or nothing: it waits for a ``GameStarted``);
    :meth:`add` takes each reaction's new events, whole commands at a time, and gives each with its receipt.
    A gap in the numbering or another game it was not started with gives None receipts until the next
    ``GameStarted`` (seq 1), which starts it afresh with that game's edition."""

    def __init__(self, edition: Edition | None = None, events: Iterable[Any] = ()) -> None:
        self._walker = _Walker(edition) if edition is not None else None
        self.seq = 0
        if edition is not None:
            self.add(tuple(events))

    def add(self, events: Sequence[Any]) -> list[tuple[Any, Receipt | None]]:
        """``events`` (in order, whole commands) each with its receipt (None: it moves no money, or the
        book cannot tell)."""
        out: list[tuple[Any, Receipt | None]] = []
        start = 0
        for end in range(1, len(events) + 1):
            if end == len(events) or events[end].command != events[start].command:
                out.extend(self._command(tuple(events[start:end])))
                start = end
        return out

    def _command(self, group: tuple[Any, ...]) -> list[tuple[Any, Receipt | None]]:
        first = group[0]
        if isinstance(first, ev.GameStarted) and first.seq == 1:
            from engine.editions import load_edition

            self._walker, self.seq = _Walker(load_edition(first.edition)), 0
        if self._walker is None or first.seq != self.seq + 1:
            self._walker = None
            return [(event, None) for event in group]
        self.seq = group[-1].seq
        return list(self._walker.command(group))


class _Walker:
    """The state of one game folded command by command, for :func:`walk`."""

    def __init__(self, edition: Edition) -> None:
        from engine.rulesets.registry import get_ruleset

        ruleset = get_ruleset(edition.ruleset)
        self.edition = edition
        self.make = ruleset.receipt
        self.fold = ruleset.fold
        self.state = ruleset.new_state(edition)
        self.done: list[Any] = []

    def command(self, events: tuple[Any, ...]) -> Iterator[tuple[Any, Receipt | None]]:
        from engine.game import Game

        for event in events:
            made = self.make(self.state, self.edition, event, events) if self.make is not None else None
            yield event, made
            self.done.append(event)
            if isinstance(event, ev.CommandUndone):
                self.state = Game.replay(self.edition, self.done).state.copy()
            else:
                self.fold[type(event)](self.state, event)
