"""A numeric keypad for amounts and the banker PIN: digits, clear, backspace, OK.

``value`` holds the typed digits; ``masked`` shows dots instead (PIN). ``on_ok`` fires with the value.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

DIGIT_KEYS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "<")


class Keypad(BoxLayout):
    """Digits in a 4x3 grid with a display line above and OK below (``compact``: 3x4, OK beside the display)."""

    value = StringProperty("")
    shown = StringProperty("")
    masked = BooleanProperty(False)
    show_ok = BooleanProperty(True)
    """False: the page has its own confirming button (the banker settings' Save), the keypad has no OK."""
    title = StringProperty("")
    """What the keypad is for (a translated caption over its display); empty: no caption."""
    max_digits = NumericProperty(6)
    compact = BooleanProperty(False)
    """Keys four to a row and OK beside the value (a narrow column: the trade's cash); each key stays at least
    64x48 px at 800x480."""
    __events__ = ("on_ok",)

    def on_value(self, *_: Any) -> None:
        self.shown = "\u25cf" * len(self.value) if self.masked else self.value

    def on_masked(self, *_: Any) -> None:
        self.on_value()

    def press(self, key: str) -> None:
        """Apply one key: a digit, ``C`` (clear) or ``<`` (backspace)."""
        if key == "C":
            self.value = ""
        elif key == "<":
            self.value = self.value[:-1]
        elif key.isdigit() and len(self.value) < self.max_digits:
            self.value = self.value + key
        self.on_value()

    def ok(self) -> None:
        """Send the value (``on_ok``) and clear."""
        value = self.value
        self.value = ""
        self.on_value()
        self.dispatch("on_ok", value)

    def ok_button(self) -> Any:
        """The OK key shown (beside the value in the compact keypad, under the keys otherwise)."""
        return self.ids.ok_side if self.compact else self.ids.ok_bottom

    def on_ok(self, value: str) -> None:
        """Default handler: nothing (bind ``on_ok``)."""
