"""Count it: a counting player works out a payment before it goes through (docs/flows.md, "Count it").

The question is a step of the banker, never of the engine: the money is the same as in the same game
without counting, only the order of screens changes. When an input would apply a command that moves money
to or from a counting player, :meth:`Counting.gate` (called by ``Context.apply`` before anything is applied)
previews the command on a twin of the game (``Game.preview``), finds its first payment of a counting player
and raises :class:`AskFirst`; the banker then puts itself back as it was before the input, keeps the input
and shows the question. The kept input is fired again, with the gate open, when the question ends: a right
answer (praised), a second wrong answer (the answer shown), Skip, the timeout, or any other input (which is
then handled as usual). A question never holds another input hostage, and the payment is applied once.

The change question: every second payment a counting player makes that is not itself a note (the 2nd, the
4th...: counted per player in ``turns``) asks for the change from the next note up instead, "Change from M500
for M230?" (the answer M270). The notes are the edition's (``notes`` in its extra data) or, when it has none,
:data:`NOTES`.

Amounts are ints in the edition's money unit. Scores (right answers, answers given), the change questions'
turns and the question on the screen with the input it holds are kept per game in the banker's record
(engine/banker/resume.py), written after every input of a game with counters: after a power cut the same
question is on the screen, and its input is applied once when it ends.
"""

from __future__ import annotations

from collections.abc import Collection
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
NOTES: tuple[int, ...] = tuple(n * 10 ** k for k in range(2, 9) for n in (1, 5))
"""The notes (money units) of an edition without its own: 100, 500, 1000, 5000... up to 500,000,000."""
CHANGE_EVERY = 2
"""Every this many payments of a player that are not a note, the question is the change question."""


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
    turns: dict[str, int] = field(default_factory=dict)  # player id -> payments not a note asked so far

    # -- the game ----------------------------------------------------------------------------------------
    def follow(self, game_id: int | None, started: bool, seated: Collection[str] = ()) -> None:
        """After an input: a game started by it takes the seats chosen that are among its players
        (``seated``: their ids; a seat chosen then left is not); another game drops the counters."""
        if game_id == self.game:
            return
        if started and game_id is not None:
            self.game = game_id
            self.players = tuple(p for p in (player_id(s) for s in self.seats) if p in seated)
            self.scores = {p: [0, 0] for p in self.players}
        else:
            self.game, self.players, self.scores = game_id, (), {}
        self.turns = {}
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
                question = _question(event, who, amount, receipt)
                raise AskFirst(self.change(question, notes_of(game.edition)) or question)
            ruleset.fold[type(event)](state, event)

    def change(self, q: QuestionView, notes: tuple[int, ...]) -> QuestionView | None:
        """The change question instead of ``q`` when it is this player's turn for one (the module docstring);
        a payment that is a note counts no turn. None: ``q`` as it is."""
        note = next((n for n in notes if n > q.amount), None)
        if q.role != "pays" or q.amount in notes or note is None:
            return None
        turn = self.turns[q.player] = self.turns.get(q.player, 0) + 1
        if turn % CHANGE_EVERY:
            return None
        return replace(q, amount=note - q.amount, rule="change", terms=(("note", note), ("paid", q.amount)),
                       houses=0, note=note)

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
        self.counted = CountedView(q.player, q.amount, outcome, q.given, q.note)
        self.pending = None

    def score_views(self) -> tuple[ScoreView, ...]:
        """Each counter's score, in the order they count."""
        return tuple(ScoreView(p, *self.scores.get(p, [0, 0])) for p in self.players)

    # -- the banker's record ---------------------------------------------------------------------------
    def as_record(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players), "seats": list(self.seats),
                "scores": {p: list(v) for p, v in self.scores.items()}, "turns": dict(self.turns),
                "pending": None if self.pending is None else _pending_record(self.pending)}

    def restore_pending(self, raw: object, saved_at: float, now: float) -> None:
        """The question of ``raw`` (a record's ``count``, written at ``saved_at`` seconds of the clock then)
        on the screen again, its timeout counted on from where it stood (``now``: the clock's seconds now);
        none when the record has none or it is not one this unit wrote."""
        self.pending = None
        p = raw.get("pending") if isinstance(raw, dict) else None
        if not isinstance(p, dict) or self.game is None:
            return
        try:
            q = dict(p["question"])
            question = QuestionView(
                str(q["player"]), int(q["amount"]), str(q["role"]), str(q["rule"]),
                tuple((str(n), int(v)) for n, v in q["terms"]), None if q["deed"] is None else int(q["deed"]),
                int(q["houses"]), int(q["tries"]), None if q["given"] is None else int(q["given"]), int(q["note"]))
            value = p["value"]
            if not isinstance(value, str | int | None) or question.player not in self.players:
                return
            self.pending = Pending(question, str(p["trigger"]), value, now - (saved_at - float(p["asked_at"])))
        except (KeyError, TypeError, ValueError):
            return

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
        turns = raw.get("turns")
        if isinstance(turns, dict):
            self.turns = {str(p): int(n) for p, n in turns.items() if isinstance(n, int)}


def notes_of(edition: Any) -> tuple[int, ...]:
    """The notes of ``edition`` (money units, ascending): its ``notes`` extra data, else :data:`NOTES`."""
    own = getattr(edition, "extra", {}).get("notes")
    if isinstance(own, list | tuple) and own and all(isinstance(n, int) and n > 0 for n in own):
        return tuple(sorted(own))
    return NOTES


def _pending_record(pending: Pending) -> dict[str, Any]:
    """The question on the screen and the input it holds, as the banker's record keeps them."""
    q = pending.question
    return {"question": {"player": q.player, "amount": q.amount, "role": q.role, "rule": q.rule,
                         "terms": [list(t) for t in q.terms], "deed": q.deed, "houses": q.houses,
                         "tries": q.tries, "given": q.given, "note": q.note},
            "trigger": pending.trigger, "value": pending.value, "asked_at": pending.asked_at}


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
