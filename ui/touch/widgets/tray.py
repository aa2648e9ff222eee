"""The mock card tray: with ``mock://`` every known card is a button; pressing one taps it on the reader.

Each card is ``(card_uid, caption, rgba)``; the caption is already translated by the screen. The players' bank
cards (and the blank card of an enrolment) stand in a group of their own at the left, always in sight; the
deeds, event cards and the banker's card scroll in the row beside them. So a deed and then the player who
takes it are two taps without a scroll back within the gesture's timeout. Both rows stop where the finger
leaves them (:class:`TrayScrollEffect`: no bounce past the ends, little coasting). The ``on_card`` callback
receives the card UID (upper-case hex); the blank card (a new, unenrolled card for enrolment) calls
``on_blank``. The rows are RecycleViews: only the cards in sight are widgets, so a full box of 50 cards costs
the frame no more than the eight on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.effects.scroll import ScrollEffect
from kivy.properties import ColorProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton

Card = tuple[str, str, palette.RGBA]
TRAY_FRICTION = 0.3
"""How fast a swipe's coasting stops (Kivy's KineticEffect friction; its default 0.05 coasts a flicked row of
deeds several cards past where the finger left it)."""


class TrayScrollEffect(ScrollEffect):
    """Scrolling that stops at the ends (no overscroll bounce) and coasts only a little after a swipe."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("friction", TRAY_FRICTION)
        super().__init__(**kwargs)


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
    """The players' bank cards (left, in sight) and a scrollable row of the other cards; :meth:`show`
    replaces them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_card: Callable[[str], None] | None = None
        self.on_blank: Callable[[], None] | None = None
        self._shown: tuple[list[Card], list[Card]] = ([], [])

    def show(self, players: Sequence[Card], others: Sequence[Card] = (), blank: str | None = None) -> None:
        """Show the players' bank cards ``players`` (after a blank card captioned ``blank`` if given) in their
        group, and ``others`` (deeds, events, the banker's card) in the scrolling row; each is (uid, caption,
        colour)."""
        shown = (([("", blank, palette.TEXT)] if blank else []) + list(players), list(others))
        if shown == self._shown:
            return
        self._shown = shown
        for rv, cards in zip((self.ids.players, self.ids.rv), shown, strict=True):
            rv.data = [{"card_uid": uid, "text": caption, "stripe": rgba, "tray": self} for uid, caption, rgba in cards]

    def pressed(self, card_uid: str) -> None:
        """A card of the tray was touched."""
        if not card_uid:
            if self.on_blank is not None:
                self.on_blank()
        elif self.on_card is not None:
            self.on_card(card_uid)

    def uids(self) -> list[str]:
        """The UIDs on the tray, players' group first ("" is the blank card)."""
        return [uid for group in self._shown for uid, _, _ in group]

    def _row_of(self, card_uid: str) -> tuple[Any, int, int]:
        """The row view holding ``card_uid``, its index there and the row's card count."""
        for rv, group in zip((self.ids.players, self.ids.rv), self._shown, strict=True):
            uids = [uid for uid, _, _ in group]
            if card_uid in uids:
                return rv, uids.index(card_uid), len(uids)
        raise ValueError(f"expected a card on the tray, got {card_uid!r}")

    def scroll_to_card(self, card_uid: str) -> None:
        """Scroll so that the card is in sight (tests touch it afterwards)."""
        rv, index, count = self._row_of(card_uid)
        content = rv.layout_manager.width
        if content <= rv.width:
            return
        step = content / max(1, count)
        rv.scroll_x = min(1.0, max(0.0, (index * step - rv.width / 2 + step / 2) / (content - rv.width)))

    def button_for(self, card_uid: str) -> CardButton | None:
        """The button of a card in sight, or None."""
        for rv in (self.ids.players, self.ids.rv):
            for child in rv.layout_manager.children:
                if isinstance(child, CardButton) and child.card_uid == card_uid:
                    return child
        return None
