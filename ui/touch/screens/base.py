"""The base of every screen: it is given a :class:`~ui.touch.screens.present.Presenter` and shows it."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from ui.touch.screens.present import Presenter
from ui.touch.widgets.kept import Kept

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

    def kept(self, box: str, make: Callable[[Hashable], Widget]) -> Kept[Any]:
        """The :class:`~ui.touch.widgets.kept.Kept` widgets of the box ``self.ids[box]`` (made on first use,
        with ``make``): a render updates them in place and changes the box only when its keys change."""
        keeps: dict[str, Kept[Any]] = self.__dict__.setdefault("_kept_boxes", {})
        if box not in keeps:
            keeps[box] = Kept(self.ids[box], make, self.render_again)
        return keeps[box]

    def render_again(self) -> None:
        """Render the app's current view again if this screen is still the one shown (a change that waited
        for a finger to lift)."""
        manager = self.manager
        if manager is not None and manager.current == self.name:
            self.show(self.app().presenter)

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
