"""Mortgaging a deed or lifting its mortgage (the classic game): the deed, its mortgage value, the lift
price (the value plus 10 %), and the buttons to confirm; the banker's ``MortgageView`` holds the figures."""

from __future__ import annotations

from ui.touch.screens.base import BankScreen
from ui.touch.screens.classic_text import field
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.setmark import attach_mark


class MortgageScreen(BankScreen):
    """The deed card on the left, the money on the right, the actions below."""

    def render(self, presenter: Presenter) -> None:
        ids = self.ids
        ids.prompt.text = presenter.prompt()
        m = field(presenter, "mortgage")
        if m is None:
            super().render(presenter)
            return
        space = presenter.space_for_deed(m.deed)
        ids.deed.text = presenter.deed_name(m.deed)
        ids.band.bg = palette.deed_rgba(space.colour if space else None)
        attach_mark(ids.band, space.colour if space else None)
        ids.owner.text = presenter.tr("board.owner", player=presenter.player_name(m.player))
        ids.state.text = presenter.tr("mortgage.is_mortgaged" if m.mortgaged else "mortgage.not_mortgaged")
        ids.state.color = palette.WARNING if m.mortgaged else palette.MUTED
        ids.value_key.text = presenter.tr("mortgage.value")
        ids.value.text = presenter.money(m.value)
        ids.lift_key.text = presenter.tr("mortgage.lift")
        ids.lift.text = presenter.money(m.lift_cost)
        ids.interest.text = presenter.tr("mortgage.interest", value=presenter.money(m.value),
                                         interest=presenter.money(m.interest), total=presenter.money(m.lift_cost))
        if m.mortgaged:
            ids.headline.text = presenter.tr("mortgage.pay", amount=presenter.money(m.lift_cost))
        elif m.blocked:
            key = m.blocked if m.blocked.startswith("reason.") else f"reason.{m.blocked}"
            ids.headline.text = presenter.tr(key, deed=presenter.deed_name(m.deed)) \
                if presenter.tr.has(key, "en") else presenter.tr("mortgage.blocked")
        else:
            ids.headline.text = presenter.tr("mortgage.get", amount=presenter.money(m.value))
        ids.headline.band = palette.WARNING if m.mortgaged else (palette.DANGER if m.blocked else palette.ACCENT)
        super().render(presenter)
