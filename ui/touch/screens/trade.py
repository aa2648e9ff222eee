"""A deal between two players (the classic game): both sides side by side, what each hands over (deeds,
cash, Get Out of Jail Free cards), the transfer fees on mortgaged deeds, and each side's confirmation.

The deal is put together by taps on the players' and deeds' cards; the screen only shows the banker's
``TradeView`` and its actions.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp

from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitLabel
from ui.touch.widgets.panel import Panel

MAX_DEEDS = 6
"""Deed chips shown per side; more are summed up in the last chip."""


class TradeScreen(BankScreen):
    """Left: the first side; right: the second; the prompt above, the actions below."""

    def render(self, presenter: Presenter) -> None:
        self.ids.prompt.text = presenter.prompt()
        trade = getattr(presenter.view, "trade", None)
        for name, side in (("left", trade.first if trade else None), ("right", trade.second if trade else None)):
            self._side(presenter, name, side)
        self.ids.arrows.text = presenter.tr("trade.swap")
        super().render(presenter)

    def _side(self, presenter: Presenter, name: str, side: Any) -> None:
        ids = self.ids
        header, deeds, money, status = (ids[f"{name}_header"], ids[f"{name}_deeds"], ids[f"{name}_money"],
                                        ids[f"{name}_status"])
        deeds.clear_widgets()
        if side is None or side.player is None:
            header.text, header.band = presenter.tr("trade.tap_player"), palette.PANEL_LIGHT
            money.text, status.text = "", ""
            return
        player = presenter.player(side.player)
        header.band = palette.token_rgba(player.token if player else None)
        header.text = presenter.tr("trade.gives", player=presenter.player_name(side.player))
        shown = list(side.deeds)
        if len(shown) > MAX_DEEDS:
            shown = shown[: MAX_DEEDS - 1]
        for number in shown:
            space = presenter.space_for_deed(number)
            mortgaged = bool(getattr(space, "mortgaged", False))
            text = presenter.deed_name(number)
            if mortgaged:
                text = presenter.tr("trade.mortgaged_deed", deed=text)
            chip = Panel(bg=palette.deed_rgba(space.colour if space else None), size_hint_y=None, height=dp(34))
            label = FitLabel(text=text, max_font_size=dp(17))
            label.color = palette.text_on(chip.bg)
            chip.add_widget(label)
            deeds.add_widget(chip)
        if len(side.deeds) > MAX_DEEDS:
            deeds.add_widget(FitLabel(text=presenter.tr("trade.more_deeds", count=len(side.deeds) - len(shown)),
                                      size_hint_y=None, height=dp(30), max_font_size=dp(16)))
        if not side.deeds:
            deeds.add_widget(FitLabel(text=presenter.tr("trade.no_deeds"), size_hint_y=None, height=dp(30),
                                      max_font_size=dp(16), color=palette.MUTED))
        lines = [presenter.tr("trade.cash", amount=presenter.money(side.cash))]
        if side.cards:
            lines.append(presenter.tr("trade.jail_cards", count=len(side.cards)))
        if side.fees:
            lines.append(presenter.tr("trade.fees", amount=presenter.money(side.fees)))
        money.text = "\n".join(lines)
        status.text = presenter.tr("trade.confirmed" if side.confirmed else "trade.waiting")
        status.band = palette.OK if side.confirmed else palette.PANEL_LIGHT
