"""Double-entry money: every transfer posts to two accounts; the Bank is an account with unlimited funds.

Amounts are ``int`` in the edition's money unit. A player's account never goes below zero (the rules turn
an unaffordable payment into a debt before it reaches the ledger). The Bank's side is kept as two running
totals: ``issued`` (everything the Bank ever paid out) and ``bank_position`` (everything it received back),
so that at every moment ``issued == sum(player balances) + bank_position``.
"""

from __future__ import annotations

from typing import Final

from engine.errors import LedgerError

BANK: Final = "bank"


class Ledger:
    """Player balances plus the Bank's totals. Cheap to copy (one small dict and two ints)."""

    __slots__ = ("balances", "bank_position", "issued")

    def __init__(self, balances: dict[str, int] | None = None, issued: int = 0, bank_position: int = 0) -> None:
        self.balances: dict[str, int] = {} if balances is None else balances
        self.issued = issued  # money units paid out by the Bank since the game began
        self.bank_position = bank_position  # money units the Bank received back

    def copy(self) -> Ledger:
        """An independent copy (for undo snapshots)."""
        return Ledger(dict(self.balances), self.issued, self.bank_position)

    def open_account(self, account: str) -> None:
        """Open a player's account at zero; the Bank's account always exists."""
        if account == BANK or account in self.balances:
            raise LedgerError(f"expected a new account name, got {account!r} (already exists)")
        self.balances[account] = 0

    def balance(self, account: str) -> int:
        """A player's balance in money units (the Bank has no balance: see ``bank_position``)."""
        try:
            return self.balances[account]
        except KeyError:
            raise LedgerError(f"expected a player account, got {account!r}") from None

    def transfer(self, payer: str, payee: str, amount: int) -> None:
        """Move ``amount`` money units from ``payer`` to ``payee`` (either may be ``BANK``): two postings."""
        if amount < 0:
            raise LedgerError(f"expected an amount >= 0, got {amount!r} ({payer} -> {payee})")
        if payer == payee:
            raise LedgerError(f"expected two different accounts, got {payer!r} twice")
        balances = self.balances
        if payee != BANK and payee not in balances:
            raise LedgerError(f"expected a known payee account, got {payee!r}")
        if payer == BANK:
            self.issued += amount
        else:
            have = balances.get(payer)
            if have is None:
                raise LedgerError(f"expected a known payer account, got {payer!r}")
            if have < amount:
                raise LedgerError(f"{payer} cannot pay {amount}: balance {have}")
            balances[payer] = have - amount
        if payee == BANK:
            self.bank_position += amount
        else:
            balances[payee] += amount

    def problems(self) -> list[str]:
        """Why the books do not balance (empty when healthy)."""
        out: list[str] = []
        balances = self.balances
        total = sum(balances.values())
        if self.issued != total + self.bank_position:
            out.append(f"money issued {self.issued} != balances {total} + bank position {self.bank_position}")
        if balances and min(balances.values()) < 0:  # checked after every command: the common case first
            out.extend(f"negative balance {acct}: {bal}" for acct, bal in balances.items() if bal < 0)
        return out

    def snapshot(self) -> dict[str, object]:
        """Plain-data view for comparisons."""
        return {"balances": dict(self.balances), "issued": self.issued, "bank_position": self.bank_position}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ledger):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]
