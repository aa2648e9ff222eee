"""The double-entry ledger: two postings per transfer, the Bank's unlimited account, no overdraft."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import LedgerError
from engine.ledger import BANK, Ledger


def test_bank_issues_and_receives() -> None:
    ledger = Ledger()
    ledger.open_account("A")
    ledger.open_account("B")
    ledger.transfer(BANK, "A", 1500)
    ledger.transfer(BANK, "B", 1500)
    ledger.transfer("A", "B", 280)
    ledger.transfer("B", BANK, 400)
    assert ledger.balances == {"A": 1220, "B": 1380}
    assert (ledger.issued, ledger.bank_position) == (3000, 400)
    assert ledger.problems() == []


def test_refusals_name_the_bad_input() -> None:
    ledger = Ledger()
    ledger.open_account("A")
    with pytest.raises(LedgerError, match="already exists"):
        ledger.open_account("A")
    with pytest.raises(LedgerError, match="'bank'"):
        ledger.open_account(BANK)
    with pytest.raises(LedgerError, match="A cannot pay 10: balance 0"):
        ledger.transfer("A", BANK, 10)
    with pytest.raises(LedgerError, match="amount >= 0, got -5"):
        ledger.transfer(BANK, "A", -5)
    with pytest.raises(LedgerError, match="known payee account, got 'Z'"):
        ledger.transfer(BANK, "Z", 5)
    with pytest.raises(LedgerError, match="two different accounts"):
        ledger.transfer("A", "A", 5)
    with pytest.raises(LedgerError, match="expected a player account, got 'Q'"):
        ledger.balance("Q")
    assert ledger.balances == {"A": 0} and ledger.issued == 0
    with pytest.raises(ValueError):  # LedgerError is a ValueError
        ledger.transfer("A", BANK, 1)


def test_problems_detects_a_broken_book() -> None:
    ledger = Ledger({"A": 100}, issued=50, bank_position=0)
    assert ledger.problems() == ["money issued 50 != balances 100 + bank position 0"]
    assert Ledger({"A": -1}, issued=-1).problems() == ["negative balance A: -1"]


def test_copy_is_independent() -> None:
    ledger = Ledger()
    ledger.open_account("A")
    ledger.transfer(BANK, "A", 10)
    copy = ledger.copy()
    copy.transfer("A", BANK, 10)
    assert ledger.balances["A"] == 10 and copy.balances["A"] == 0
    assert ledger.snapshot() != copy.snapshot()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([BANK, "A", "B", "C"]), st.sampled_from([BANK, "A", "B", "C"]),
                          st.integers(0, 500)), max_size=60))
def test_books_always_balance(transfers: list[tuple[str, str, int]]) -> None:
    """Whatever transfers succeed or are refused, issued == balances + bank position, nobody negative."""
    ledger = Ledger()
    for p in "ABC":
        ledger.open_account(p)
    for payer, payee, amount in transfers:
        before = ledger.snapshot()
        try:
            ledger.transfer(payer, payee, amount)
        except LedgerError:
            assert ledger.snapshot() == before
        assert ledger.problems() == []
