"""A player's balance tile: token colour band, name, balance (large) and a jail/bankrupt badge.

Balances change with a short flash (green up, red down) so the table sees the money move.
"""

from __future__ import annotations

from typing import Any

from kivy.animation import Animation
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui.touch.widgets import paced, palette


class BalanceTile(BoxLayout):
    """One player: ``name``, ``balance_text`` (already formatted money), ``badge`` (jail, bankrupt...)."""

    player_id = StringProperty("")
    name = StringProperty("")
    balance_text = StringProperty("")
    badge = StringProperty("")
    token_color = ColorProperty(palette.TOKENS["white"])
    flash_color = ColorProperty((0, 0, 0, 0))
    active = BooleanProperty(False)
    balance = NumericProperty(0)

    def update(self, *, player_id: str, name: str, balance: int, balance_text: str, token: str,
               badge: str, active: bool) -> None:
        """Show a player; ``balance`` is in money units and drives the flash direction."""
        changed = self.player_id == player_id and balance != self.balance
        direction = balance - int(self.balance)
        self.player_id = player_id
        self.name = name
        self.balance_text = balance_text
        self.token_color = palette.token_rgba(token)
        self.badge = badge
        self.active = active
        self.balance = balance
        if changed:
            self.flash(palette.OK if direction > 0 else palette.DANGER)

    def settle(self) -> None:
        """End the flash at once."""
        Animation.cancel_all(self, "flash_color")
        r, g, b, _ = self.flash_color
        self.flash_color = (r, g, b, 0.0)

    def flash(self, rgba: Any) -> None:
        """Fade a coloured overlay out over 0.6 s."""
        Animation.cancel_all(self, "flash_color")
        r, g, b, _ = rgba
        self.flash_color = (r, g, b, 0.55)
        paced.animation(flash_color=(r, g, b, 0.0), duration=0.6, t="out_quad").start(self)


class TokenChip(Widget):
    """A round dot in a token's colour."""

    token_color = ColorProperty(palette.TOKENS["white"])
