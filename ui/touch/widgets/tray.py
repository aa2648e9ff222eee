"""The mock card tray: with ``mock://`` every known card is a button; pressing one taps it on the reader.

Each card is ``(card_uid, caption, rgba)``; the caption is already translated by the screen. The
``on_card`` callback receives the card UID (upper-case hex); the blank card (a new, unenrolled card for
enrolment) calls ``on_blank``. The row is a RecycleView: only the cards in sight are widgets, so a full
box of 50 cards costs the frame no more than the eight on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.properties import ColorProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton


class CardButton(FitButton):
    """One card of the tray; ``card_uid`` is its UID (``uid`` is read-only on Kivy widgets)."""

    card_uid = StringProperty("")
    stripe = ColorProperty(palette.PANEL_LIGHT)
    tray = ObjectProperty(None, allownone=True)
    cut_ok = True  # a stand-in for a physical card: a long name may end in an ellipsis (the card has it whole)

    def on_release(self) -> None:
        if self.tray is not None:
            self.tray.pressed(self.card_uid)


class CardTray(BoxLayout):
    """A scrollable row of cards; :meth:`show` replaces them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_card: Callable[[str], None] | None = None
        self.on_blank: Callable[[], None] | None = None
        self._shown: list[tuple[str, str, palette.RGBA]] = []

    def show(self, cards: Sequence[tuple[str, str, palette.RGBA]], blank: str | None = None) -> None:
        """Show ``cards`` as (uid, caption, colour), after a blank card captioned ``blank`` if given."""
        cards = ([("", blank, palette.TEXT)] if blank else []) + list(cards)
        if cards == self._shown:
            return
        self._shown = cards
        self.ids.rv.data = [{"card_uid": uid, "text": caption, "stripe": rgba, "tray": self}
                            for uid, caption, rgba in cards]

    def pressed(self, card_uid: str) -> None:
        """A card of the tray was touched."""
        if not card_uid:
            if self.on_blank is not None:
                self.on_blank()
        elif self.on_card is not None:
            self.on_card(card_uid)

    def uids(self) -> list[str]:
        """The UIDs on the tray, in order ("" is the blank card)."""
        return [uid for uid, _, _ in self._shown]

    def scroll_to_card(self, card_uid: str) -> None:
        """Scroll so that the card is in sight (tests touch it afterwards)."""
        rv = self.ids.rv
        index = self.uids().index(card_uid)
        layout = rv.layout_manager
        content = layout.width
        if content <= rv.width:
            return
        step = content / max(1, len(self._shown))
        rv.scroll_x = min(1.0, max(0.0, (index * step - rv.width / 2 + step / 2) / (content - rv.width)))

    def button_for(self, card_uid: str) -> CardButton | None:
        """The button of a card in sight, or None."""
        for child in self.ids.rv.layout_manager.children:
            if isinstance(child, CardButton) and child.card_uid == card_uid:
                return child
        return None
