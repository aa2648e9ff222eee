"""A Chance or Community Chest card (the classic game): the deck, the card's title and text in the
screen's language with this edition's places and amounts, where it sends the token, and the answers the
banker accepts now (the square of the deck the token stands on, the tax choice...)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp

from engine.banker.viewmodel import ChoiceView
from ui.touch.screens.base import BankScreen
from ui.touch.screens.classic_text import card_text, deck_name, field
from ui.touch.screens.event import ChoiceButton
from ui.touch.screens.grouped import GroupedActions
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette

DECK_COLOURS: dict[str, palette.RGBA] = {
    "chance": (0.95, 0.55, 0.15, 1.0),
    "chest": (0.22, 0.50, 0.85, 1.0),
}
"""The colour of each deck's cards (as printed: orange Chance, blue Community Chest)."""


def choice_text(presenter: Presenter, choice: ChoiceView) -> str:
    """An answer's caption: a board square by its name, a player, or the choice's own words."""
    if choice.value.isdigit() and choice.label_key == "choice.space":
        board = presenter.view.board
        position = int(choice.value)
        space = next((s for s in board if s.position == position), None)
        if space is not None:  # a deck has several squares of one name: say the street before it too
            before = next((s for s in reversed(board[:position]) if s.kind == "deed"), None)
            if before is None:
                return presenter.space_name(space)
            return presenter.tr("card.space_after", place=presenter.space_name(space),
                                deed=presenter.space_name(before))
    tax = getattr(presenter.view, "tax", None)
    if tax is not None and choice.value == "flat":
        return presenter.tr("tax.flat", amount=presenter.money(tax.flat))
    if tax is not None and choice.value == "percent" and tax.percent is not None:
        return presenter.tr("tax.percent_choice", rate=tax.percent_rate, amount=presenter.money(tax.percent))
    if presenter.tr.has(choice.label_key, "en"):
        return presenter.text(choice.label_key, choice.params)
    return presenter.choice_label(choice)


def choice_columns(count: int) -> int:
    """Columns of ``count`` answers: up to three side by side (a deck's three squares in one row), then three
    a row."""
    return max(1, min(3, count))


def fill_choices(screen: BankScreen, presenter: Presenter, choices: tuple[ChoiceView, ...]) -> None:
    """One big button per answer in the screen's ``choices`` grid, kept across renders (updated in place);
    a touch sends it to the banker."""
    grid = screen.ids.choices

    def make(value: object) -> ChoiceButton:
        button = ChoiceButton(value=str(value), max_font_size=dp(22), bg=palette.PANEL_LIGHT)
        button.bind(on_release=lambda b: screen.app().choose(b.value))
        return button

    buttons = screen.kept("choices", make).show([choice.value for choice in choices])
    if buttons is None:  # a finger is down on them: the new answers wait for it to lift
        return
    grid.cols = choice_columns(len(choices))
    for button, choice in zip(buttons, choices, strict=True):
        button.value = choice.value
        button.text = choice_text(presenter, choice)


class CardScreen(GroupedActions):
    """The card (deck band, title, text, what happens), the answers, the actions (folded in groups as on the
    table: a card that asks nothing leaves the table's actions, and a player not in jail was shown Pay the
    fine and Use the card among fourteen buttons)."""

    def render(self, presenter: Presenter) -> None:
        ids = self.ids
        ids.prompt.text = presenter.prompt()
        card: Any = field(presenter, "card")
        if card is not None:
            ids.deck.text = deck_name(presenter, card.deck)
            ids.band.bg = DECK_COLOURS.get(card.deck, palette.PANEL_LIGHT)
            title, body = card_text(presenter, card)
            ids.title.text, ids.body.text = title, body
            lines = []
            if card.player:
                lines.append(presenter.tr("card.drawn_by", player=presenter.player_name(card.player)))
            if card.moved_to is not None:
                space = next((s for s in presenter.view.board if s.position == card.moved_to), None)
                lines.append(presenter.tr("card.moved_to", place=presenter.space_name(space) if space else
                                          str(card.moved_to)))
            ids.outcome.text = "\n".join(lines)
        fill_choices(self, presenter, tuple(field(presenter, "choices", ()) or ()))
        super().render(presenter)
