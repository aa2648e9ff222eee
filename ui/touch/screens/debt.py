"""The debt screen: who owes whom how much, and the debtor's deeds to return to the Bank.

Returning a deed is what tapping its deed card does in the banker's ``debt`` state; the banker and the
engine decide what it is worth.
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import NumericProperty

from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton


class DeedButton(FitButton):
    """A deed the debtor may return; ``deed`` is its number."""

    deed = NumericProperty(0)


class DebtScreen(BankScreen):
    """Debtor, creditor, amount due; a button per deed the debtor owns."""

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        debt = view.debt
        self.ids.prompt.text = presenter.prompt()
        grid = self.ids.deeds
        grid.clear_widgets()
        if debt is not None:
            self.ids.summary.text = presenter.tr(
                "debt.summary", debtor=presenter.player_name(debt.debtor),
                creditor=presenter.player_name(debt.creditor), amount=presenter.money(debt.due))
            debtor = presenter.player(debt.debtor)
            cash = debtor.balance if debtor is not None else 0
            # still short = what is owed beyond the cash in hand (the view's DebtView has no such field yet)
            self.ids.prompt.text = presenter.tr("debt.cash", cash=presenter.money(cash),
                                                short=presenter.money(max(0, debt.due - max(0, cash))))
            can_return = self.app().may("tap_deed")
            for number in debtor.deeds if debtor else ():
                space = presenter.space_for_deed(number)
                price = presenter.money(space.price) if space and space.price is not None else ""
                button = DeedButton(text=f"{presenter.deed_name(number)}\n{price}", deed=number,
                                    bg=palette.deed_rgba(space.colour if space else None),
                                    max_font_size=dp(18), disabled=not can_return,
                                    size_hint=(None, None), size=(dp(180), dp(64)))
                button.bind(on_release=lambda b: self.app().touch_deed(int(b.deed)))
                grid.add_widget(button)
        super().render(presenter)
