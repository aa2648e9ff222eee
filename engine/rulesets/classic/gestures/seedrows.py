"""The banker's rows of the seeds' remaining rules (classic; docs/flows.md): paying a creditor with deeds
(debtdeeds.py) and the action timers (timers.py). They come before the classic rows, so that in a debt the
deed payment under way takes the taps it expects, and a timer that ran out wins the clock tick."""

from __future__ import annotations

from engine.banker.table import BankerState as S
from engine.banker.table import Row, row

SEED_RULE_ROWS: tuple[Row, ...] = (
    # --- a debt to a player paid partly with deeds: Pay with deeds, the debtor's card, the deeds, the value
    # on the keypad, the creditor's card confirms ------------------------------------------------------------
    row("press_pay_deeds", S.DEBT, None, "can_start_deed_payment", "start_deed_payment"),
    row("tap_player", S.DEBT, None, ["in_deed_payment", "is_debtor_card"], "note_debtor"),
    row("tap_player", S.DEBT, S.IDLE, ["in_deed_payment", "creditor_confirms"], ["do_pay_with_deeds", "then_settle"]),
    row("tap_deed", S.DEBT, None, ["in_deed_payment", "can_toggle_debt_deed"], "toggle_debt_deed"),
    row("answer", S.DEBT, None, ["in_deed_payment", "debt_value_valid"], "set_debt_value"),
    row("press_cancel", S.DEBT, None, "in_deed_payment", "leave_deed_payment"),
    # --- the action timers: a timer that ran out sends TimeOut at the clock's tick ------------------------------
    row("clock", [S.IDLE, S.DEBT, S.TRADE_OPEN], S.IDLE, "timer_ran_out", ["do_time_out", "then_settle"]),
)
"""Rows of the seeds' remaining rules (the classic plug-in puts them first)."""
