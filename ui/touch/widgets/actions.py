"""A row of context buttons: one per banker trigger allowed now, enabled by ``may_<trigger>()``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.gridlayout import GridLayout

from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton

PRIMARY_TRIGGERS: frozenset[str] = frozenset({"confirm", "ok", "start", "buy", "pay", "yes", "start_game", "mortgage",
                                             "lift"})
CANCEL_TRIGGERS: frozenset[str] = frozenset({"cancel", "x", "back"})
"""Leave the step, nothing changes: a neutral button."""
DECLINE_TRIGGERS: frozenset[str] = frozenset({"decline", "no"})
"""Say no to an offer (a deed goes to auction): a style of its own, never the red of Cancel or Bankrupt."""
DANGER_TRIGGERS: frozenset[str] = frozenset({"bankrupt"})
"""What cannot be taken back lightly: red."""


def trigger_colour(trigger: str) -> palette.RGBA:
    """The button colour of banker trigger ``trigger`` (``press_cancel`` or ``cancel``)."""
    name = trigger.removeprefix("press_")
    if name in PRIMARY_TRIGGERS:
        return palette.ACCENT
    if name in DECLINE_TRIGGERS:
        return palette.DECLINE
    if name in DANGER_TRIGGERS:
        return palette.DANGER
    if name in CANCEL_TRIGGERS:
        return palette.NEUTRAL
    return palette.PANEL_LIGHT


class TriggerButton(FitButton):
    """A button that sends ``trigger`` to the banker."""

    trigger = StringProperty("")


ROW_HEIGHT = 48
"""The height of one row of buttons (dp): a finger's width."""
ROW_HEIGHT_TIGHT = 48
"""The row height when three rows are needed (dp): still a fingertip, and the screen keeps room."""
ONE_ROW = 6
"""Up to this many buttons stand in one row; more take two rows, and more than twice as many three (the
classic game's table offers fifteen): their words stay at a readable size."""


def grid_shape(count: int) -> tuple[int, int]:
    """(columns, rows) for ``count`` buttons."""
    rows = 1 if count <= ONE_ROW else (2 if count <= 2 * ONE_ROW else 3)
    return max(1, -(-count // rows)), rows


class ActionRow(GridLayout):
    """Buttons for ``(trigger, caption, enabled)`` triples; ``on_action(trigger)`` when one is pressed.

    Up to :data:`ONE_ROW` buttons stand in one row, more in two or three."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("rows", 1)
        super().__init__(**kwargs)
        self.on_action: Callable[[str], None] | None = None
        self._buttons: list[TriggerButton] = []

    def show(self, actions: Sequence[tuple[str, str, bool]]) -> None:
        """Show the buttons, reusing the existing ones."""
        while len(self._buttons) < len(actions):
            button = TriggerButton()
            button.bind(on_release=self._pressed)
            self._buttons.append(button)
        for button in self._buttons[len(actions):]:
            if button.parent is not None:
                self.remove_widget(button)
        self.cols, self.rows = grid_shape(len(actions))
        if self.size_hint_y is None:
            row = ROW_HEIGHT if self.rows < 3 else ROW_HEIGHT_TIGHT
            self.height = dp(row) * self.rows + self.spacing[1] * (self.rows - 1)
        for button, (trigger, caption, enabled) in zip(self._buttons, actions, strict=False):
            button.trigger = trigger
            button.text = caption
            button.disabled = not enabled
            button.bg = trigger_colour(trigger)
            if button.parent is None:
                self.add_widget(button)

    def _pressed(self, button: TriggerButton) -> None:
        if self.on_action is not None and not button.disabled:
            self.on_action(button.trigger)

    def button_for(self, trigger: str) -> TriggerButton | None:
        """The visible button of ``trigger`` (tests touch it)."""
        for button in self._buttons:
            if button.parent is not None and button.trigger == trigger:
                return button
        return None
