"""Count it: a counting player works out a payment before it goes through (docs/flows.md, "Count it").

The question is a step of the banker, never of the engine: the money is the same as in the same game
without counting, only the order of screens changes. When an input would apply a command that moves money
to or from a counting player, :meth:`Counting.gate` (called by ``Context.apply`` before anything is applied)
previews the command on a twin of the game (``Game.preview``), finds its first payment of a counting player
and raises :class:`AskFirst`; the banker then puts itself back as it was before the input, keeps the input
and shows the question. The kept input is fired again, with the gate open, when the question ends: a right
answer (praised), a second wrong answer (the answer shown), Skip, the timeout, or any other input (which is
then handled as usual). A question never holds another input hostage, and the payment is applied once.

Amounts are ints in the edition's money unit. Scores (right answers, answers given) are kept per game in the
banker's record (engine/banker/resume.py), which is written after every input of a game with counters.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.banker.setup import player_id
from engine.banker.viewmodel import CountedView, QuestionView, ScoreView
from engine.receipts import Receipt, money_of
from engine.rulesets.registry import get_ruleset

PAYING_FIELDS = ("payer", "debtor", "buyer", "winner", "bidder")
"""Event fields naming the player who pays."""
PAID_FIELDS = ("payee", "owner", "creditor", "seller")
"""Event fields naming the player who is paid."""
SETUP_KEY = "count"
"""The setup answer ``count=SEAT,SEAT`` (empty: nobody counts, the default)."""


class AskFirst(Exception):  # not an error: the banker asks before the command
    """Raised by the gate inside a transition: ask ``question`` before the command is applied."""

    def __init__(self, question: QuestionView) -> None:
        super().__init__(question.player)
        self.question = question


def parse_seats(raw: str) -> list[int] | None:
    """``"1,3"`` -> [1, 3]; ``""`` -> []; None when a part is not a seat number."""
    parts = [p.strip() for p in raw.split(",") if p.strip()]
    if not all(p.isdigit() and 0 < int(p) <= 99 for p in parts):
        return None
    return sorted({int(p) for p in parts})


@dataclass
class Pending:
    """A question on the screen and the input it holds back (fired again when it ends)."""

    question: QuestionView
    trigger: str
    value: str | int | None
    asked_at: float  # clock seconds of the last touch of the question (the timeout counts from it)


@dataclass
class Counting:
    """Who counts in which game, their scores and the question under way."""

    seats: list[int] = field(default_factory=list)  # setup: the seats chosen to count in the next game
    game: int | None = None  # the game the players and scores below belong to
    players: tuple[str, ...] = ()  # player ids who count in ``game``
    scores: dict[str, list[int]] = field(default_factory=dict)  # player id -> [right answers, answers given]
    pending: Pending | None = None
    counted: CountedView | None = None  # the question just ended (shown until the next input)
    open_gate: bool = False  # the kept input is being fired again: no question

    # -- the game ----------------------------------------------------------------------------------------
    def follow(self, game_id: int | None, started: bool) -> None:
        """After an input: a game started by it takes the seats chosen; another game drops the counters."""
        if game_id == self.game:
            return
        if started and game_id is not None:
            self.game, self.players = game_id, tuple(player_id(s) for s in self.seats)
            self.scores = {p: [0, 0] for p in self.players}
        else:
            self.game, self.players, self.scores = game_id, (), {}
        self.seats, self.pending = [], None

    @property
    def active(self) -> bool:
        """Whether anyone counts in the game under way."""
        return bool(self.players)

    # -- the gate ----------------------------------------------------------------------------------------
    def gate(self, game: Any, cmd: Any, applied_before: bool) -> None:
        """Raise :class:`AskFirst` if ``cmd`` moves money of a counting player and nothing was applied yet
        by this input (``applied_before``: a command earlier in the same input, then no question)."""
        if not self.players or self.open_gate or applied_before or self.pending is not None:
            return
        try:
            events = game.preview(cmd)
        except ValueError:
            return  # refused: the real apply says why
        ruleset = get_ruleset(game.edition.ruleset)
        state = game.state.copy()
        for event in events:
            amount = money_of(event)
            who = _counter_of(event, self.players)
            if amount is not None and amount > 0 and who is not None:
                receipt = ruleset.receipt(state, game.edition, event, events) if ruleset.receipt else None
                raise AskFirst(_question(event, who, amount, receipt))
            ruleset.fold[type(event)](state, event)

    # -- answers -----------------------------------------------------------------------------------------
    def answer(self, raw: str, now: float) -> str:
        """A number typed for the question: ``"right"``, ``"wrong"`` (a hint, a second try), ``"revealed"``
        (the second wrong answer: the answer is shown), or ``"bad"`` (not a number: nothing changes). The
        score is counted here; the caller ends the question (:meth:`end`) when it is not ``"wrong"``."""
        pending = self.pending
        assert pending is not None
        text = raw.strip().replace(",", "").replace(" ", "")
        if not text.isdigit() or len(text) > 9:
            return "bad"
        q = pending.question
        score = self.scores.setdefault(q.player, [0, 0])
        if int(text) == q.amount:
            score[0] += 1
            score[1] += 1
            pending.question = replace(q, given=int(text))
            return "right"
        pending.question = replace(q, tries=q.tries + 1, given=int(text))
        if q.tries == 0:
            pending.asked_at = now
            return "wrong"
        score[1] += 1
        return "revealed"

    def end(self, outcome: str) -> None:
        """The question ends (``right``, ``revealed``, ``skipped``, ``timeout``, ``interrupted``)."""
        assert self.pending is not None
        q = self.pending.question
        self.counted = CountedView(q.player, q.amount, outcome, q.given)
        self.pending = None

    def score_views(self) -> tuple[ScoreView, ...]:
        """Each counter's score, in the order they count."""
        return tuple(ScoreView(p, *self.scores.get(p, [0, 0])) for p in self.players)

    # -- the banker's record ---------------------------------------------------------------------------
    def as_record(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players), "seats": list(self.seats),
                "scores": {p: list(v) for p, v in self.scores.items()}}

    def restore(self, raw: object, game_id: int | None) -> None:
        """The counters and scores of ``raw`` (a record's ``count``) when they belong to ``game_id``."""
        if not isinstance(raw, dict):
            return
        seats = raw.get("seats")
        if isinstance(seats, list) and all(isinstance(s, int) for s in seats):
            self.seats = list(seats)
        if raw.get("game") != game_id or game_id is None:
            return
        players, scores = raw.get("players"), raw.get("scores")
        if isinstance(players, list) and isinstance(scores, dict):
            self.game, self.players = game_id, tuple(str(p) for p in players)
            self.scores = {str(p): [int(v[0]), int(v[1])] for p, v in scores.items()
                           if isinstance(v, list) and len(v) == 2}


def _counter_of(event: Any, players: tuple[str, ...]) -> tuple[str, str] | None:
    """(player, ``"pays"`` / ``"paid"``) of the first counting player the event names, or None."""
    for names, role in ((PAYING_FIELDS, "pays"), (PAID_FIELDS, "paid")):
        for name in names:
            who = getattr(event, name, None)
            if who in players:
                return str(who), role
    who = getattr(event, "player", None)
    if who in players:
        paid = type(event).__name__ in ("SalaryPaid", "JackpotWon", "BuildingSold", "DeedMortgaged")
        return str(who), "paid" if paid else "pays"
    return None


def _question(event: Any, who: tuple[str, str], amount: int, receipt: Receipt | None) -> QuestionView:
    deed = getattr(event, "deed", None)
    rule = receipt.rule if receipt is not None else type(event).__name__
    terms = receipt.terms if receipt is not None else ()
    houses = receipt.term("houses") if receipt is not None else 0
    return QuestionView(who[0], amount, who[1], rule, terms, deed if isinstance(deed, int) else None, houses)
