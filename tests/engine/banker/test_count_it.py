"""Count it at the banker (docs/flows.md, "Count it"): a counting player's payment is asked first and applied
once whatever happens to the question (a right answer, two wrong ones, Skip, the timeout, another input, a
restart); nobody else's payment is asked; the scores are kept in the banker's record. Both rulesets."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

A1, A2, DEED = "000000A1", "000000A2", "00000116"


class Table:
    """A banker over a journal on disk with two players and deed 16 enrolled; ``count`` seats count."""

    def __init__(self, tmp_path: Path, edition: str = "ultimate-uk", count: str = "2") -> None:
        self.path, self.edition = tmp_path / "bb.sqlite3", edition
        self.clock, self.cards = ManualClock(), CardTable()
        for uid, kind, value in ((A1, "player", 1), (A2, "player", 2), (DEED, "deed", 16)):
            self.cards.enroll(uid, kind, value)
        self.banker = self.open()
        self.banker.tap(A1)
        self.banker.tap(A2)
        assert self.banker.choose(f"count={count}").error is None
        self.banker.press("ok")

    def open(self) -> Banker:
        return Banker(JournalStore(Journal.open(self.path), self.edition), self.cards, self.clock,
                      seed_source=lambda: 7)

    def balances(self) -> dict[str, int]:
        return {p.id: p.balance for p in self.banker.view.players}

    def rent_due(self) -> int:
        """Ann (not counting) buys deed 16; Ben (counting) taps it and his card: his rent is asked."""
        b = self.banker
        b.tap(DEED)
        b.tap(A1)
        b.press("ok")
        assert b.view.question is None, "Ann does not count: her purchase is not asked"
        before = self.balances()
        b.tap(DEED)
        reaction = b.tap(A2)
        assert reaction.events == () and self.balances() == before, "nothing paid while the question is asked"
        q = b.view.question
        assert q is not None and q.player == "p2" and q.role == "pays" and q.deed == 16
        assert b.view.actions == ("press_skip",) and b.may("press_skip") and not b.may("press_go")
        return q.amount

    def again(self) -> int:
        """Ben lands on deed 16 again: his rent asked (the answer returned)."""
        self.banker.tap(DEED)
        self.banker.tap(A2)
        q = self.banker.view.question
        assert q is not None and q.player == "p2"
        return q.amount


@pytest.fixture(params=["ultimate-uk", "classic-us"])
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Table:
    return Table(tmp_path, request.param)


def test_a_right_answer_is_praised_and_the_rent_is_paid_once(table: Table) -> None:
    rent = table.rent_due()
    before = table.balances()
    reaction = table.banker.choose(str(rent))
    assert reaction.view.counted is not None and reaction.view.counted.outcome == "right"
    assert table.balances() == {"p1": before["p1"] + rent, "p2": before["p2"] - rent}
    assert [(s.player, s.right, s.answered) for s in table.banker.view.scores] == [("p2", 1, 1)]
    assert table.banker.view.question is None and table.banker.view.counted is None


def test_a_wrong_answer_gets_a_hint_then_the_second_shows_the_answer_and_pays(table: Table) -> None:
    rent = table.rent_due()
    before = table.balances()
    first = table.banker.choose(str(rent + 1))
    assert first.events == () and first.view.question is not None and first.view.question.tries == 1
    assert first.view.question.rule.startswith("rent"), "the hint is the payment's receipt"
    second = table.banker.choose(str(rent + 2))
    assert second.view.counted is not None and second.view.counted.outcome == "revealed"
    assert second.view.counted.amount == rent
    assert table.balances()["p2"] == before["p2"] - rent
    assert [(s.right, s.answered) for s in table.banker.view.scores] == [(0, 1)]


def test_skip_and_the_timeout_pay_once_unscored(table: Table) -> None:
    rent = table.rent_due()
    before = table.balances()
    table.clock.advance(table.banker.ctx.timeout_s / 2)
    assert table.banker.tick().events == () and table.banker.view.question is not None
    table.banker.touch()  # a keypad key: the question's timeout restarts
    table.clock.advance(table.banker.ctx.timeout_s * 0.75)
    assert table.banker.tick().events == ()
    table.clock.advance(table.banker.ctx.timeout_s)
    timed_out = table.banker.tick()
    assert timed_out.view.counted is not None and timed_out.view.counted.outcome == "timeout"
    assert table.balances()["p2"] == before["p2"] - rent
    assert table.banker.tick().events == (), "the timeout never pays twice"
    table.banker.tap(DEED)
    table.banker.tap(A2)
    skipped = table.banker.press("skip")
    assert skipped.view.counted is not None and skipped.view.counted.outcome == "skipped"
    assert table.balances()["p2"] < before["p2"] - rent
    assert [(s.right, s.answered) for s in table.banker.view.scores] == [(0, 0)]


def test_another_input_lets_the_payment_through_then_is_handled(table: Table) -> None:
    rent = table.rent_due()
    before = table.balances()
    reaction = table.banker.tap(DEED)  # the next gesture starts: the question does not hold it
    assert table.balances()["p2"] == before["p2"] - rent and reaction.events
    assert reaction.view.state == "deed" and reaction.view.question is None


def test_a_non_number_is_refused_with_nothing_changed(table: Table) -> None:
    table.rent_due()
    before = table.balances()
    reaction = table.banker.choose("lots")
    assert reaction.error == "error.count_number" and reaction.events == ()
    assert table.banker.view.question is not None and table.banker.view.question.tries == 0
    assert table.balances() == before


def test_only_seated_players_may_count(tmp_path: Path) -> None:
    t = Table(tmp_path, count="")
    assert t.banker.view.scores == (), "nobody counts: no scores"
    other = Banker(JournalStore(Journal.open(tmp_path / "y.sqlite3"), "ultimate-uk"), t.cards, t.clock,
                   seed_source=lambda: 7)
    other.tap(A1)
    assert other.choose("count=3").error == "error.not_seated"
    assert other.choose("count=x").error == "error.not_seated"
    assert other.choose("count=1").error is None and dict(other.view.extra)["count"] == "1"


def test_a_restart_during_a_question_shows_the_same_question_and_pays_once_when_it_ends(tmp_path: Path) -> None:
    t = Table(tmp_path)
    rent = t.rent_due()
    t.banker.choose(str(rent))  # one right answer
    t.banker.tap(DEED)
    t.banker.tap(A2)  # asked again, then the unit stops (the record holds the question and the tap)
    asked = t.banker.view.question
    wrong = t.banker.choose(str(asked.amount + 1) if asked is not None else "1")
    asked = wrong.view.question
    assert asked is not None and asked.tries == 1
    before = t.balances()
    t.clock.advance(t.banker.ctx.timeout_s / 2)
    t.banker = t.open()
    assert t.balances() == before and t.banker.view.question == asked, "the same question, its hint too"
    assert [(s.player, s.right, s.answered) for s in t.banker.view.scores] == [("p2", 1, 1)]
    assert t.banker.view.actions == ("press_skip",)
    t.clock.advance(t.banker.ctx.timeout_s * 0.6)
    assert t.banker.tick().events == (), "the timeout counts on from where it stood"
    right = t.banker.choose(str(asked.amount))
    assert right.view.counted is not None and right.view.counted.outcome == "right"
    paid = asked.note - asked.amount if asked.rule == "change" else asked.amount
    assert t.balances()["p2"] == before["p2"] - paid, "the held tap applied once, after the restart"
    t.banker = t.open()
    assert t.banker.view.question is None and t.balances()["p2"] == before["p2"] - paid


def test_every_second_payment_that_is_not_a_note_asks_for_the_change(tmp_path: Path) -> None:
    t = Table(tmp_path, "classic-us")
    rents = []
    for _ in range(2):
        amount = t.rent_due() if not rents else t.again()
        rents.append(t.banker.view.question)
        t.banker.choose(str(amount))
    first, second = rents
    assert first is not None and first.rule != "change"
    assert second is not None and second.rule == "change" and second.role == "pays"
    payment = dict(second.terms)["paid"]
    assert second.note == 100 and second.amount == 100 - payment and dict(second.terms)["note"] == 100
    assert [(s.right, s.answered) for s in t.banker.view.scores] == [(2, 2)]


def test_a_change_question_pays_the_payment_not_the_change(tmp_path: Path) -> None:
    t = Table(tmp_path, "classic-us")
    t.banker.choose(str(t.rent_due()))
    before = t.balances()
    change = t.again()
    q = t.banker.view.question
    assert q is not None and q.rule == "change"
    t.banker.choose(str(change))
    assert t.balances()["p2"] == before["p2"] - (q.note - change)


def test_a_payment_that_is_a_note_is_never_a_change_question() -> None:
    from engine.banker.counting import NOTES, Counting
    from engine.banker.viewmodel import QuestionView

    counting = Counting(players=("p1",))
    note = QuestionView("p1", 500, "pays", "price")
    assert [counting.change(note, NOTES) for _ in range(4)] == [None] * 4
    odd = QuestionView("p1", 230, "pays", "price")
    asked = [counting.change(odd, NOTES) for _ in range(4)]
    assert asked[0] is None and asked[2] is None
    assert asked[1] is not None and (asked[1].amount, asked[1].note) == (270, 500) and asked[1] == asked[3]
    assert counting.change(QuestionView("p1", 230, "paid", "salary"), NOTES) is None, "only a payment made"
    assert NOTES[:4] == (100, 500, 1000, 5000)


def test_a_seat_chosen_to_count_then_left_does_not_count(tmp_path: Path) -> None:
    t = Table(tmp_path, count="")
    t.cards.enroll("000000A3", "player", 3)
    other = Banker(JournalStore(Journal.open(tmp_path / "y.sqlite3"), "classic-us"), t.cards, t.clock,
                   seed_source=lambda: 7)
    for uid in (A1, A2, "000000A3"):
        other.tap(uid)
    assert other.choose("count=3").error is None
    other.press("cancel")  # the seats are cleared; Ann and Ben sit again, Cat does not
    other.tap(A1)
    other.tap(A2)
    assert other.press("ok").error is None
    assert other.view.scores == (), "Cat chose to count and left: nobody counts"


@given(st.lists(st.integers(min_value=1, max_value=10**8), min_size=1, max_size=12))
def test_a_change_question_is_the_next_note_up_less_the_payment(amounts: list[int]) -> None:
    from engine.banker.counting import NOTES, Counting
    from engine.banker.viewmodel import QuestionView

    counting = Counting(players=("p1",))
    eligible = 0
    for amount in amounts:
        asked = counting.change(QuestionView("p1", amount, "pays", "price"), NOTES)
        if amount in NOTES:
            assert asked is None
            continue
        eligible += 1
        assert (asked is not None) == (eligible % 2 == 0), "every second payment that is not a note"
        if asked is not None:
            assert asked.note - asked.amount == amount and asked.amount > 0
            assert asked.note == min(n for n in NOTES if n > amount)


def test_an_edition_s_own_notes_are_used_and_none_means_the_default_series() -> None:
    from types import SimpleNamespace

    from engine.banker.counting import NOTES, notes_of
    from engine.editions import load_edition

    classic = SimpleNamespace(extra={"notes": [500, 1, 5, 10, 20, 50, 100]})
    assert notes_of(classic) == (1, 5, 10, 20, 50, 100, 500)
    assert notes_of(SimpleNamespace(extra={"notes": [0, 5]})) == NOTES, "not notes: the default"
    assert notes_of(load_edition("classic-us")) == NOTES, "no edition lists its notes yet"
