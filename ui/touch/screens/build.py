"""Building and selling back (the classic game): the owner's sets with what each street holds, the
buildings added (or taken off) in this gesture, the running total, and OK.

Each deed touched here is what tapping its deed card does: one building bought or sold at once, by the
banker and the engine (``BuildView.offers`` says where one more is allowed now and at what price).
"""

from __future__ import annotations

from collections import Counter

from kivy.metrics import dp
from kivy.properties import NumericProperty

from ui.touch.screens.base import BankScreen
from ui.touch.screens.classic_text import buildings_of, buildings_words, field, set_deeds
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton, FitLabel
from ui.touch.widgets.setmark import attach_mark

MAX_LINES = 6
"""Lines of the running list; more deeds are summed up in the last line."""


class StreetButton(FitButton):
    """A street of the owner's sets; ``deed`` is its number."""

    deed = NumericProperty(0)


class BuildScreen(BankScreen):
    """The owner's streets (left), the running list and its total (right), the actions."""

    def render(self, presenter: Presenter) -> None:
        build = field(presenter, "building")
        self.ids.prompt.text = presenter.prompt()
        if build is None:
            super().render(presenter)
            return
        selling = build.mode == "sell"
        name = presenter.player_name(build.player)
        self.ids.title.text = presenter.tr("build.title_sell" if selling else "build.title", player=name)
        offers = {deed: (amount, hotel) for deed, amount, hotel in build.offers}
        spaces = set_deeds(presenter, build.player, tuple(offers))
        buttons = self.kept("streets", self._street).show([int(space.deed or 0) for space in spaces])
        if buttons is not None:  # None: a finger is down on a street, the other streets wait for it to lift
            self.ids.streets.cols = 2 if len(spaces) <= 6 else 3
            for button, space in zip(buttons, spaces, strict=True):
                number = int(space.deed or 0)
                now = buildings_words(presenter, buildings_of(space))
                if number in offers:
                    amount, hotel = offers[number]
                    key = ("build.sell_hotel" if hotel else "build.sell_house") if selling else \
                        ("build.add_hotel" if hotel else "build.add_house")
                    offer = presenter.tr(key, amount=presenter.money(amount))
                else:
                    offer = presenter.tr("build.not_now")
                # two columns: what stands and the offer side by side; three (smaller tiles): one line each
                between = " · " if self.ids.streets.cols <= 2 else "\n"
                button.text = f"{presenter.deed_name(number)}\n{now}{between}{offer}"
                button.bg = palette.deed_rgba(space.colour)
                attach_mark(button, space.colour)  # the set's letters and pattern, not its colour alone
                button.disabled = number not in offers
        counts = Counter(build.steps)
        lines = [presenter.tr("build.step_sell" if selling else "build.step", deed=presenter.deed_name(d), count=n)
                 for d, n in counts.items()]
        if len(lines) > MAX_LINES:
            lines = [*lines[: MAX_LINES - 1], presenter.tr("build.more", count=len(lines) - MAX_LINES + 1)]
        if not lines:
            lines = [presenter.tr("build.none_yet")]
        for label, line in zip(self.kept("steps", _step_label).show(range(len(lines))) or (), lines, strict=True):
            label.text = line
        key = "build.total_sell" if selling else "build.total"
        self.ids.total.text = presenter.tr(key, amount=presenter.money(build.total))
        self.ids.supply.text = presenter.tr("build.supply", houses=build.houses_left, hotels=build.hotels_left)
        super().render(presenter)

    def _street(self, deed: object) -> StreetButton:
        button = StreetButton(deed=int(str(deed)), max_font_size=dp(22))
        button.bind(on_release=lambda b: self.app().touch_deed(int(b.deed)))
        return button


def _step_label(_index: object) -> FitLabel:
    return FitLabel(halign="left", max_font_size=dp(22))
