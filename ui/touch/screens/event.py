"""An event card being resolved: its name, its text, and the choices it asks for."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import StringProperty

from engine.banker.viewmodel import ChoiceView
from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton


class ChoiceButton(FitButton):
    """A choice; ``value`` is sent back to the banker as-is."""

    value = StringProperty("")


class EventScreen(BankScreen):
    """Card title, card text, a grid of choices, the context actions."""

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        card = view.event_card
        self.ids.title.text = presenter.tr(card.card_key) if card else ""
        body = presenter.tr(card.text_key) if card else ""
        amounts = presenter.event_amounts(card.card_id, str(dict(view.prompt.params).get("player", ""))) if card else ""
        self.ids.body.text = f"{body}\n{amounts}" if amounts else body
        self.ids.prompt.text = presenter.prompt()
        choices = card.choices if card else ()
        buttons = self.kept("choices", self._choice_button).show([choice.value for choice in choices])
        if buttons is not None:  # None: a finger is down on them, the new answers wait for it to lift
            self.ids.choices.cols = 2 if len(choices) <= 4 else (3 if len(choices) <= 9 else 4)
            for button, choice in zip(buttons, choices, strict=True):
                button.value = choice.value
                button.text = presenter.choice_label(choice)
                button.bg = _choice_colour(presenter, choice)
        super().render(presenter)

    def _choice_button(self, value: object) -> ChoiceButton:
        button = ChoiceButton(value=str(value), max_font_size=dp(26))
        button.bind(on_release=lambda b: self.app().choose(b.value))
        return button


def _choice_colour(presenter: Presenter, choice: ChoiceView) -> palette.RGBA:
    """Deeds and colour sets wear their colour, players their token's; others the panel colour."""
    if choice.label_key == "choice.deed" and choice.value.isdigit():
        space = presenter.space_for_deed(int(choice.value))
        return palette.deed_rgba(space.colour) if space is not None else palette.PANEL_LIGHT
    player = presenter.player(choice.value)
    if player is not None:
        return palette.token_rgba(player.token)
    key = palette.norm(choice.value)
    if key in palette.DEED_COLOURS:
        return palette.DEED_COLOURS[key]
    return palette.PANEL_LIGHT
