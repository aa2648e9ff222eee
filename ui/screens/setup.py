"""Setup: the edition, the language, the rule options, and the players enrolled by tapping their cards.

Players join by tapping their bank cards (the banker seats them); ✓ starts the game. The language is
the UI's own setting; the edition and the rule options come from ``boardbank run --edition/--option``
and are shown here as the game will record them.
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ui.screens.base import BankScreen
from ui.screens.present import Presenter
from ui.widgets import palette
from ui.widgets.balance import TokenChip
from ui.widgets.fitlabel import FitLabel


def option_text(presenter: Presenter, name: str, value: object) -> str:
    """An option's value for display: on/off for booleans, money for amounts, the number otherwise."""
    if isinstance(value, bool):
        return presenter.tr("word.on" if value else "word.off")
    if isinstance(value, int) and name in MONEY_OPTIONS:
        return presenter.money(value)
    return str(value)


MONEY_OPTIONS: frozenset[str] = frozenset({"start_money", "go_salary", "location_fee", "jail_fee", "auction_step"})
"""Options that are amounts (ints in the edition's money unit)."""


class SetupScreen(BankScreen):
    """Seats on the left, settings on the right."""

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        app = self.app()
        self.ids.prompt.text = presenter.prompt()
        self.ids.edition.text = presenter.tr("setup.edition", edition=app.edition_name(view.edition))
        seats = self.ids.seats
        seats.clear_widgets()
        for index, p in enumerate(view.players, start=1):
            number = p.id[1:] if p.id.startswith("p") and p.id[1:].isdigit() else index  # the card's seat
            row = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(40))
            rgba = palette.token_rgba(p.token)
            row.add_widget(TokenChip(token_color=rgba, size_hint_x=None, width=dp(28)))
            row.add_widget(FitLabel(text=presenter.tr("setup.seat", number=number), size_hint_x=0.3,
                                    color=palette.MUTED, max_font_size=dp(15)))
            row.add_widget(FitLabel(text=presenter.player_name(p.id), halign="left", max_font_size=dp(18)))
            row.add_widget(FitLabel(text=presenter.token_name(p.token), size_hint_x=0.35, color=rgba,
                                    max_font_size=dp(15)))
            seats.add_widget(row)
        if not view.players:
            seats.add_widget(FitLabel(text=presenter.tr("setup.no_players"), size_hint_y=None, height=dp(40),
                                      color=palette.MUTED, max_font_size=dp(16)))
        options = self.ids.options
        options.clear_widgets()
        for name, value in app.rule_options().items():
            row = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(22))
            row.add_widget(FitLabel(text=presenter.tr(f"option.{name}"), halign="left", max_font_size=dp(13),
                                    color=palette.MUTED))
            row.add_widget(FitLabel(text=option_text(presenter, name, value), size_hint_x=0.35,
                                    max_font_size=dp(13)))
            options.add_widget(row)
        enrolment = app.enrolment
        if enrolment is not None:
            key, params = enrolment.prompt()
            self.ids.prompt.text = presenter.text(key, params)
        self.ids.enrol.text = presenter.tr("enroll.stop" if enrolment else "enroll.start")
        self.ids.enrol_skip.disabled = enrolment is None
        self.ids.enrol.disabled = app.session is None or app.session.registry is None
        super().render(presenter)

    def toggle_enrolment(self) -> None:
        """Start or stop enrolling cards."""
        app = self.app()
        if app.enrolment is None:
            app.start_enrolment()
        else:
            app.stop_enrolment()
