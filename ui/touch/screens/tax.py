"""A tax (the classic game): who pays which tax, the printed amount, and with the option
``income_tax_choice`` the share of worth beside it, each as a big answer button (the view's ``choices``)."""

from __future__ import annotations

from typing import Any

from ui.touch.screens.base import BankScreen
from ui.touch.screens.card import fill_choices
from ui.touch.screens.classic_text import field
from ui.touch.screens.present import Presenter


class TaxScreen(BankScreen):
    """The tax and its amounts; the answers when there is a choice; the actions."""

    def render(self, presenter: Presenter) -> None:
        ids = self.ids
        ids.prompt.text = presenter.prompt()
        tax: Any = field(presenter, "tax")
        if tax is not None:
            ids.title.text = presenter.tr(f"tax.{tax.kind}" if tax.kind in ("income", "luxury") else "tax.income",
                                          player=presenter.player_name(tax.player))
            choices = tuple(field(presenter, "choices", ()) or ())
            # with a choice, its two buttons say both amounts; without one, the amount due stands here
            ids.flat.text = "" if choices else presenter.tr("tax.due", amount=presenter.money(tax.flat))
        fill_choices(self, presenter, tuple(field(presenter, "choices", ()) or ()))
        super().render(presenter)
