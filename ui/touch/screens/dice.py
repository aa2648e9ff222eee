"""A utility's rent (the classic game): the players roll, and the screen takes the dice total with one
touch (2 to 12); each button says what that total comes to at the utility's multiplier now (the view's
``rent`` of the space). The banker and the engine charge the rent."""

from __future__ import annotations

from kivy.metrics import dp

from ui.touch.screens.base import BankScreen
from ui.touch.screens.event import ChoiceButton
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.setmark import attach_mark

TOTALS = tuple(range(2, 13))
"""The totals two dice can show."""


class DiceScreen(BankScreen):
    """The utility and who pays, the eleven totals, the actions."""

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        self.ids.prompt.text = presenter.prompt()
        space = presenter.space_for_deed(view.selected_deed)
        times = int(space.rent or 0) if space is not None else 0
        self.ids.title.text = presenter.tr("dice.title", deed=presenter.deed_name(view.selected_deed),
                                           player=presenter.player_name(view.selected_player))
        self.ids.title.band = palette.deed_rgba(space.colour if space else None)
        attach_mark(self.ids.title, space.colour if space else None)
        buttons = self.kept("totals", self._total_button).show([str(total) for total in TOTALS])
        for button, total in zip(buttons or (), TOTALS, strict=False):
            button.value = str(total)
            button.text = presenter.tr("dice.total", total=total, amount=presenter.money(total * times)) \
                if times else str(total)
        super().render(presenter)

    def _total_button(self, value: object) -> ChoiceButton:
        button = ChoiceButton(value=str(value), max_font_size=dp(30), bg=palette.PANEL_LIGHT)
        button.bind(on_release=lambda b: self.app().choose(b.value))
        return button
