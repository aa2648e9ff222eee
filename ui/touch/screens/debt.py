"""The debt screen: who owes whom how much, how much is still short, and the debtor's deeds with what each
can raise; in the classic game, when nothing is left to sell or mortgage and the cash is short, the
bankruptcy: what goes to whom if the debtor gives up.

Touching a deed is what tapping its deed card does in the banker's ``debt`` state (Ultimate Banking: the
deed goes back to the Bank; the classic game: a building sold or the deed mortgaged); the banker and the
engine decide what it is worth.
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import NumericProperty

from engine.banker.viewmodel import DebtView
from ui.touch.screens.base import BankScreen
from ui.touch.screens.classic_text import buildings_of, mortgage_value, sell_value
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton
from ui.touch.widgets.setmark import attach_mark


class DeedButton(FitButton):
    """A deed the debtor may return (or sell on, or mortgage); ``deed`` is its number."""

    deed = NumericProperty(0)


def raises(presenter: Presenter, deed: int) -> tuple[str, bool]:
    """What touching ``deed`` raises in the classic game, in words, and whether it can raise anything."""
    space = presenter.space_for_deed(deed)
    if space is None:
        return "", False
    if buildings_of(space):
        return presenter.tr("debt.sell", amount=presenter.money(sell_value(presenter, deed))), True
    if getattr(space, "mortgaged", False):
        return presenter.tr("debt.mortgaged"), False
    return presenter.tr("debt.mortgage", amount=presenter.money(mortgage_value(presenter, deed))), True


class DebtScreen(BankScreen):
    """Debtor, creditor, amount due, still short; a button per deed the debtor owns; the bankruptcy."""

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        debt = view.debt
        prompt, bankrupt = presenter.prompt(), ""  # each label set once: a text set twice is drawn twice
        if debt is not None:
            classic = presenter.ruleset == "classic"
            reason = getattr(debt, "reason", "")
            key = f"debt.reason.{reason}"
            names = {"debtor": presenter.player_name(debt.debtor), "creditor": presenter.player_name(debt.creditor),
                     "amount": presenter.money(debt.due)}
            if reason and presenter.tr.has(key, "en"):  # what for, where each language puts it
                self.ids.summary.text = presenter.tr("debt.summary_for", reason=presenter.tr(key), **names)
            else:
                self.ids.summary.text = presenter.tr("debt.summary", **names)
            debtor = presenter.player(debt.debtor)
            cash = debtor.balance if debtor is not None else 0
            short = debt.short if debt.short else max(0, debt.due - max(0, cash))
            key = "debt.cash_classic" if classic else "debt.cash"  # short: deeds raise the rest
            prompt = presenter.tr(key if short > 0 else "debt.cash_enough",
                                  cash=presenter.money(cash), short=presenter.money(short))
            can_return = self.app().may("tap_deed")
            left = False
            numbers = tuple(debtor.deeds) if debtor else ()
            buttons = self.kept("deeds", self._deed_button).show(numbers)
            for index, number in enumerate(numbers):
                space = presenter.space_for_deed(number)
                if classic:
                    what, useful = raises(presenter, number)
                else:
                    what = presenter.money(space.price) if space and space.price is not None else ""
                    useful = True
                left = left or useful
                if buttons is not None:  # None: a finger is down on a deed, the others wait for it to lift
                    button = buttons[index]
                    button.text = f"{presenter.deed_name(number)}\n{what}"
                    button.bg = palette.deed_rgba(space.colour if space else None)
                    attach_mark(button, space.colour if space else None)
                    button.disabled = not (can_return and useful)
            if classic and short > 0 and not left:
                bankrupt = bankruptcy_text(presenter, debt)
        else:
            self.kept("deeds", self._deed_button).show(())
        self.ids.prompt.text, self.ids.bankrupt.text = prompt, bankrupt
        super().render(presenter)

    def _deed_button(self, deed: object) -> DeedButton:
        button = DeedButton(deed=int(str(deed)), max_font_size=dp(18), size_hint=(None, None), size=(dp(180), dp(64)))
        button.bind(on_release=lambda b: self.app().touch_deed(int(b.deed)))
        return button


def bankruptcy_text(presenter: Presenter, debt: DebtView) -> str:
    """What a bankruptcy does now (docs/rules-classic.md 9): everything to the creditor, or to the Bank
    with the deeds auctioned."""
    name = presenter.player_name(debt.debtor)
    if debt.creditor is None:
        return presenter.tr("bankrupt.to_bank", player=name)
    return presenter.tr("bankrupt.to_player", player=name, creditor=presenter.player_name(debt.creditor))
