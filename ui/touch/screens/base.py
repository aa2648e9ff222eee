"""The base of every screen: it is given a :class:`~ui.touch.screens.present.Presenter` and shows it."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen

from ui.touch.screens.present import Presenter

BAR_TRIGGERS: frozenset[str] = frozenset({"press_menu", "menu"})
"""Triggers that have their own button in the top bar, not in the screens' action rows."""


class BankScreen(Screen):
    """A screen bound to the app's controller; :meth:`show` re-renders it from the presenter."""

    def app(self) -> Any:
        """The running BoardBankApp."""
        return App.get_running_app()

    def show(self, presenter: Presenter) -> None:
        """Render the presenter's view-model (each screen overrides it to fill its widgets)."""
        self.render(presenter)

    def render(self, presenter: Presenter) -> None:
        """Fill the widgets; the default shows the context actions when the screen has an ``actions`` row."""
        row = self.ids.get("actions")
        if row is not None:
            row.on_action = self.on_action
            row.show(self.action_buttons(presenter))

    def action_buttons(self, presenter: Presenter) -> list[tuple[str, str, bool]]:
        """(trigger, caption, enabled) for every action the banker offers now."""
        app = self.app()
        return [(trigger, presenter.action_label(trigger), app.may(trigger))
                for trigger in presenter.view.actions if trigger not in BAR_TRIGGERS]

    def on_action(self, trigger: str) -> None:
        """A context button: press it on the banker."""
        self.app().press(trigger)
