"""The mock card tray: with ``mock://`` every known card is a button; pressing one taps it on the reader.

Each card is ``(card_uid, caption, rgba)``; the caption is already translated by the screen. The
``on_card`` callback receives the card UID (upper-case hex).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.metrics import dp
from kivy.properties import ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ui.widgets import palette
from ui.widgets.fitlabel import FitButton


class CardButton(FitButton):
    """One card of the tray; ``card_uid`` is its UID (``uid`` is read-only on Kivy widgets)."""

    card_uid = StringProperty("")
    stripe = ColorProperty(palette.PANEL_LIGHT)


class CardTray(BoxLayout):
    """A scrollable row of cards; :meth:`show` replaces them."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.on_card: Callable[[str], None] | None = None
        self.on_blank: Callable[[], None] | None = None
        self._shown: list[tuple[str, str, palette.RGBA]] = []

    def show(self, cards: Sequence[tuple[str, str, palette.RGBA]], blank: str | None = None) -> None:
        """Show ``cards`` as (uid, caption, colour), after a blank card captioned ``blank`` if given.

        The row is rebuilt only when the cards change.
        """
        cards = ([("", blank, palette.TEXT)] if blank else []) + list(cards)
        if cards == self._shown:
            return
        self._shown = cards
        row = self.ids.row
        row.clear_widgets()
        for card_uid, caption, rgba in cards:
            button = CardButton(text=caption, card_uid=card_uid, stripe=rgba, size_hint_x=None,
                                width=dp(96), max_font_size=dp(13))
            button.bind(on_release=self._pressed)
            row.add_widget(button)

    def _pressed(self, button: CardButton) -> None:
        if not button.card_uid:
            if self.on_blank is not None:
                self.on_blank()
        elif self.on_card is not None:
            self.on_card(button.card_uid)

    def button_for(self, card_uid: str) -> CardButton | None:
        """The button of a card (tests touch it)."""
        for child in self.ids.row.children:
            if isinstance(child, CardButton) and child.card_uid == card_uid:
                return child
        return None
