"""The setup screen's parts: a seat row (name field and token colour chips) and a rule-option row (a toggle
or a -/+ stepper, and under the option's name its effect line, ui/setup_effects.py). They only show what the banker's view says and report what was touched or typed; the
screen turns that into the banker's answers (``name=SEAT:TEXT``, ``token=SEAT:COLOUR``, ``option=NAME:VALUE``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from ui.touch.fonts import font_for_text, undrawable
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton, FitLabel

NAME_MAX = 24
"""Characters a name field accepts (the banker checks the same limit)."""

OPTION_STEPS: dict[str, int] = {
    "start_money": 100, "go_salary": 10, "location_fee": 10, "jail_fee": 10, "auction_step": 10,
    "max_players": 1, "jail_max_tries": 1,
}
"""How much one touch of - or + changes a whole-number option (money units for amounts)."""


def option_step(name: str) -> int:
    """The step of option ``name``'s stepper (1 for an option not listed)."""
    return OPTION_STEPS.get(name, 1)


class ColourChip(ButtonBehavior, Widget):
    """A round token-colour button; ``selected`` draws a ring, ``taken`` (by another player) dims it."""

    token = StringProperty("")
    token_color = ColorProperty(palette.TOKENS["white"])
    selected = BooleanProperty(False)
    taken = BooleanProperty(False)


_ADJUST_VIEWPORT: Callable[..., None] = TextInput._adjust_viewport.__wrapped__
"""Kivy's ``TextInput._adjust_viewport`` without its shared trigger (functools.wraps keeps it)."""


class NameInput(TextInput):
    """A one-line name field: at most :data:`NAME_MAX` characters; its font follows the text, or the hint
    while it is empty (CJK or not)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("multiline", False)
        kwargs.setdefault("write_tab", False)
        self._viewport_at = (0, 0)
        self._adjust_later = Clock.create_trigger(self._adjust_now, -1)
        super().__init__(**kwargs)
        self.fbind("text", self._font)
        self.fbind("hint_text", self._font)

    def _adjust_viewport(self, cc: int, cr: int) -> None:
        """Scroll the text to the cursor (column ``cc``, row ``cr``) before the next frame, as Kivy does,
        through a trigger of this field's own.

        Kivy's ``TextInput._adjust_viewport`` is one ``@triggered`` function shared by every text field,
        which keeps its last call's arguments in a closure for the rest of the run: the last name field
        typed in, and through it the whole setup screen (its option rows, chips and label textures, about
        7 MiB at 800x480), stayed alive through the game after the screen was dropped. Kivy's clock holds
        this trigger's callback by a weak reference, so a dropped field is freed."""
        self._viewport_at = (cc, cr)
        self._adjust_later()

    def _adjust_now(self, _dt: float) -> None:
        _ADJUST_VIEWPORT(self, *self._viewport_at)

    def refused(self, characters: str) -> None:
        """Say which typed characters the screen cannot show (they were left out of the name)."""
        from kivy.app import App

        app: Any = App.get_running_app()
        if app is not None:
            app.sounds.play("err")
            shown = " ".join(f"U+{ord(ch):04X}" for ch in characters)  # the characters themselves would be boxes
            app.toast(app.t("error.undrawable_name", characters=shown))

    def _font(self, *_: Any) -> None:
        self.font_name = font_for_text(self.text or str(self.hint_text))

    def insert_text(self, substring: str, from_undo: bool = False) -> Any:
        missing = undrawable(self.text + substring)
        if missing:  # an emoji or a script no UI font has would show as an empty box: refused at entry
            substring = "".join(ch for ch in substring if ch not in missing)
            self.refused(missing)
        room = NAME_MAX - len(self.text)
        if room <= 0:
            return None
        return super().insert_text(substring[:room], from_undo=from_undo)


class SeatRow(BoxLayout):
    """One seated player: the seat's number, the name field, and a chip per token colour."""

    def __init__(self, seat: int, on_name: Callable[[int, str], None], on_token: Callable[[int, str], None],
                 **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", dp(48))
        kwargs.setdefault("spacing", dp(4))
        super().__init__(**kwargs)
        self.seat = seat
        self._on_name = on_name
        self._on_token = on_token
        self._sent = ""
        self.label = FitLabel(size_hint_x=None, width=dp(50), color=palette.MUTED, max_font_size=dp(16), wrap=True)
        self.name_input = NameInput(font_size=dp(18), padding=(dp(6), dp(10)))
        self.name_input.bind(on_text_validate=self._send_name, focus=self._focus)
        self.chips = BoxLayout(spacing=0, size_hint_x=None, width=dp(8 * 29))
        self.add_widget(self.label)
        self.add_widget(self.name_input)
        self.add_widget(self.chips)

    def update(self, seat_label: str, hint: str, name: str, token: str, tokens: Sequence[str],
               taken: set[str]) -> None:
        """Show the banker's name (empty while it is the seat's default, which ``hint`` shows) and token; a
        field being typed in keeps its text."""
        self.label.text = seat_label
        self.name_input.hint_text = hint
        if not self.name_input.focus:
            self.name_input.text = name
        self._sent = name
        if [c.token for c in self.chips.children[::-1]] != list(tokens):
            self.chips.clear_widgets()
            self.chips.width = dp(29) * len(tokens)
            for colour in tokens:
                chip = ColourChip(token=colour, token_color=palette.token_rgba(colour))
                chip.bind(on_release=self._chip)
                self.chips.add_widget(chip)
        for chip in self.chips.children:
            chip.selected = chip.token == token
            chip.taken = chip.token in taken

    def chip_for(self, token: str) -> ColourChip | None:
        """The chip of colour ``token`` (tests touch it)."""
        return next((c for c in self.chips.children if c.token == token), None)

    def _chip(self, chip: ColourChip) -> None:
        if not chip.selected:
            self._on_token(self.seat, chip.token)

    def _focus(self, field: NameInput, focused: bool) -> None:
        if not focused:
            self._send_name(field)

    def _send_name(self, field: NameInput) -> None:
        text = field.text.strip()
        if text != self._sent:
            self._on_name(self.seat, text)


OPTION_HEIGHT = 48
"""An option row's height in dp: its name beside the toggle or stepper."""
EFFECT_LINE_HEIGHT = 22
"""The height in dp of each line of an option's effects (16 px text), under its name and control."""


class OptionRow(BoxLayout):
    """One rule option: its name, and a toggle (yes/no options) or - value + (whole numbers); under them,
    the whole row wide, its effects (one line each, :meth:`show_effect`)."""

    def __init__(self, name: str, on_change: Callable[[str, str], None], **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", dp(OPTION_HEIGHT))
        super().__init__(**kwargs)
        self.option = name
        self._on_change = on_change
        self._value: int | bool = 0
        self.controls = BoxLayout(size_hint_y=None, height=dp(OPTION_HEIGHT), spacing=dp(3))
        self.label = FitLabel(halign="left", wrap=True, max_font_size=dp(16), color=palette.MUTED)
        self.controls.add_widget(self.label)
        self.add_widget(self.controls)
        self.effect: FitLabel | None = None
        self.toggle: FitButton | None = None
        self.minus: FitButton | None = None
        self.plus: FitButton | None = None
        self.value_label: FitLabel | None = None

    def update(self, caption: str, value: int | bool, shown: str) -> None:
        """Show ``value`` (``shown`` is its display text: on/off, money, a number)."""
        self.label.text = caption
        self._value = value
        if isinstance(value, bool):
            if self.toggle is None:
                self.toggle = FitButton(size_hint_x=None, width=dp(80), max_font_size=dp(16))
                self.toggle.bind(on_release=lambda *_: self._on_change(self.option, "off" if self._value else "on"))
                self.controls.add_widget(self.toggle)
            self.toggle.text = shown
            self.toggle.bg = palette.ACCENT if value else palette.PANEL_LIGHT
            return
        if self.value_label is None:
            self.minus = FitButton(text="\u2212", size_hint_x=None, width=dp(44), max_font_size=dp(20))
            self.value_label = FitLabel(size_hint_x=None, width=dp(92), max_font_size=dp(16), wrap=True)
            self.plus = FitButton(text="+", size_hint_x=None, width=dp(44), max_font_size=dp(20))
            self.minus.bind(on_release=lambda *_: self._step(-1))
            self.plus.bind(on_release=lambda *_: self._step(1))
            for widget in (self.minus, self.value_label, self.plus):
                self.controls.add_widget(widget)
        self.value_label.text = shown

    def show_effect(self, text: str) -> None:
        """Show the option's effects under it, one a line (``estimating…``; ``games 12 % longer`` and
        ``first player wins 3 points more often``), or none (``""``: the row is one line again). The label
        is made once; afterwards only its text (and the row's height with the lines' count) changes."""
        if not text:
            if self.effect is not None and self.effect.parent is not None:
                self.remove_widget(self.effect)
                self.height = dp(OPTION_HEIGHT)
            return
        if self.effect is None:
            self.effect = FitLabel(halign="left", valign="top", wrap=True, max_font_size=dp(16),
                                   color=palette.TEXT, size_hint_y=None, padding=(dp(6), 0))
            self.fbind("width", self._size_effect)
        if self.effect.parent is None:
            self.add_widget(self.effect)
        self.effect.text = text
        self._size_effect()

    def _size_effect(self, *_: Any) -> None:
        """The effect label's height: a line of :data:`EFFECT_LINE_HEIGHT` for each line drawn at 16 px in
        the row's width (a long one, e.g. Japanese with thousands of rubles, takes two)."""
        if self.effect is None or self.effect.parent is None:
            return
        from kivy.core.text import Label as CoreLabel

        room = max(1.0, self.width - 2 * dp(6) - dp(4))
        rows = 0
        for line in self.effect.text.split("\n"):
            width = CoreLabel(font_size=dp(16), font_name=font_for_text(line)).get_extents(line)[0]
            rows += max(1, -(-int(width) // int(room)))
        self.effect.height = dp(EFFECT_LINE_HEIGHT) * rows
        self.height = dp(OPTION_HEIGHT) + self.effect.height

    def _step(self, sign: int) -> None:
        self._on_change(self.option, str(int(self._value) + sign * option_step(self.option)))


class OptionPager(BoxLayout):
    """‹ page/pages › under the rule options: the family turns to every option, one page at a time."""

    def __init__(self, on_turn: Callable[[int], None], **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", dp(48))
        kwargs.setdefault("spacing", dp(3))
        super().__init__(**kwargs)
        self.back = FitButton(text="\u2039", size_hint_x=None, width=dp(64), max_font_size=dp(24))
        self.page_label = FitLabel(color=palette.MUTED, max_font_size=dp(16))
        self.forward = FitButton(text="\u203a", size_hint_x=None, width=dp(64), max_font_size=dp(24))
        self.back.bind(on_release=lambda *_: on_turn(-1))
        self.forward.bind(on_release=lambda *_: on_turn(1))
        for widget in (self.back, self.page_label, self.forward):
            self.add_widget(widget)

    def update(self, page: int, pages: int) -> None:
        """Show page ``page`` (from 0) of ``pages``; the end's button is dimmed."""
        self.page_label.text = f"{page + 1} / {pages}"
        self.back.disabled = page == 0
        self.forward.disabled = page >= pages - 1
