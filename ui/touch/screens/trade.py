"""A deal between two players (the classic game): both sides side by side, what each hands over (deeds,
cash, Get Out of Jail Free cards), the transfer fees on mortgaged deeds, and each side's confirmation.

The deal is put together by taps on the players' and deeds' cards; cash is typed on the keypad for the
side chosen above it (``choose cash=SEAT:AMOUNT``), and a Get Out of Jail Free card a side holds is added
or taken out with its button (``choose card=ID``). The screen only shows the banker's ``TradeView`` and
sends those answers.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty

from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton, FitLabel
from ui.touch.widgets.panel import Panel
from ui.touch.widgets.setmark import attach_mark

MAX_DEEDS = 6
"""Deed chips shown per side; more are summed up in the last chip."""


class TradeScreen(BankScreen):
    """Left: the first side; right: the second; the prompt above, the actions below."""

    cash_side: str | None = None
    """The player whose cash the keypad sets (one of the two sides)."""
    putting_together = BooleanProperty(False)
    """The deal is being put together (not yet proposed): the cash keypad shows."""

    def render(self, presenter: Presenter) -> None:
        self.ids.prompt.text = presenter.prompt()
        trade = getattr(presenter.view, "trade", None)
        for name, side in (("left", trade.first if trade else None), ("right", trade.second if trade else None)):
            self._side(presenter, name, side)
        self.ids.arrows.text = presenter.tr("trade.swap")
        players = [side.player for side in (trade.first, trade.second)] if trade else []
        open_to_answers = bool(trade) and not trade.proposed and all(players) and self.app().may("answer")
        if self.cash_side not in players:
            self.cash_side = players[0] if players else None
        for button, pid in zip((self.ids.cash_left, self.ids.cash_right), [*players, None, None], strict=False):
            button.text = presenter.player_name(pid) if pid else ""
            button.disabled = not open_to_answers or pid is None
            button.bg = palette.ACCENT if pid is not None and pid == self.cash_side else palette.PANEL_LIGHT
        self.putting_together = bool(trade) and not trade.proposed
        self.ids.keypad.disabled = not open_to_answers
        self.ids.keypad.title = presenter.tr("trade.keypad")
        super().render(presenter)

    def _item(self, key: object) -> Any:
        """A widget of a side's list: a deed's chip, the "more" or "none" line, a jail card's button."""
        kind, number = key  # type: ignore[misc]
        if kind == "deed":
            chip = Panel(size_hint_y=None, height=dp(34))
            chip.add_widget(FitLabel(max_font_size=dp(17)))
            return chip
        if kind == "card":
            button = FitButton(size_hint=(0.5, None), height=dp(48), max_font_size=dp(16))
            button.bind(on_release=lambda _b, c=number: self.app().choose(f"card={c}"))
            return button
        return FitLabel(size_hint_y=None, height=dp(30), max_font_size=dp(16),
                        color=palette.MUTED if kind == "none" else palette.TEXT)

    def pick_cash_side(self, index: int) -> None:
        """The keypad now sets the cash of the first (0) or second (1) side."""
        trade = getattr(self.app().presenter.view, "trade", None)
        if trade is not None:
            self.cash_side = (trade.first, trade.second)[index].player
            self.render(self.app().presenter)

    def cash_typed(self, value: str) -> None:
        """The keypad's OK: the chosen side hands over ``value`` (money units)."""
        if value.isdigit() and self.cash_side is not None and self.cash_side[1:].isdigit():
            self.app().choose(f"cash={self.cash_side[1:]}:{int(value)}")
        elif value:
            self.app().sounds.play("err")

    def _side(self, presenter: Presenter, name: str, side: Any) -> None:
        ids = self.ids
        header, money, status = ids[f"{name}_header"], ids[f"{name}_money"], ids[f"{name}_status"]
        kept = self.kept(f"{name}_deeds", self._item)
        if side is None or side.player is None:
            kept.show(())
            header.text, header.band = presenter.tr("trade.tap_player"), palette.PANEL_LIGHT
            money.text, status.text = "", ""
            return
        player = presenter.player(side.player)
        header.band = palette.token_rgba(player.token if player else None)
        header.text = presenter.tr("trade.gives", player=presenter.player_name(side.player))
        shown = list(side.deeds)
        if len(shown) > MAX_DEEDS:
            shown = shown[: MAX_DEEDS - 1]
        holder = presenter.player(side.player)
        cards = tuple(getattr(holder, "jail_cards", ()) or ())
        keys: list[tuple[str, int]] = [("deed", number) for number in shown]
        if len(side.deeds) > MAX_DEEDS:
            keys.append(("more", 0))
        if not side.deeds:
            keys.append(("none", 0))
        keys += [("card", card) for card in cards]  # a Get Out of Jail Free card: in or out
        items = kept.show(keys)
        for (kind, number), item in zip(keys, items or (), strict=False):
            if kind == "deed":
                space = presenter.space_for_deed(number)
                text = presenter.deed_name(number)
                if getattr(space, "mortgaged", False):
                    text = presenter.tr("trade.mortgaged_deed", deed=text)
                item.bg = palette.deed_rgba(space.colour if space else None)
                attach_mark(item, space.colour if space else None)
                item.children[0].text, item.children[0].color = text, palette.text_on(item.bg)
            elif kind == "more":
                item.text = presenter.tr("trade.more_deeds", count=len(side.deeds) - len(shown))
            elif kind == "none":
                item.text = presenter.tr("trade.no_deeds")
            else:
                given = number in side.cards
                item.text = presenter.tr("trade.jail_card_in" if given else "trade.jail_card_add")
                item.bg = palette.OK if given else palette.PANEL_LIGHT
                item.disabled = not self.app().may("answer")
        lines = [presenter.tr("trade.cash", amount=presenter.money(side.cash))]
        if side.fees:
            lines.append(presenter.tr("trade.fees", amount=presenter.money(side.fees)))
        money.text = "\n".join(lines)
        status.text = presenter.tr("trade.confirmed" if side.confirmed else "trade.waiting")
        status.band = palette.OK if side.confirmed else palette.PANEL_LIGHT
