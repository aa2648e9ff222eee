"""The table: every player's balance (large, with token colour and name), the prompt, the last
transaction (animated) and the context buttons the banker allows now; in the classic game a strip with the
time-limited game's minutes left, the late-game rent tax while it applies and the Free Parking pot. The
buttons are laid out per ruleset (:mod:`ui.touch.screens.grouped`)."""

from __future__ import annotations

from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.metrics import dp

from ui.touch.screens.classic_text import clock_text, pot_text, rent_tax_text
from ui.touch.screens.grouped import GroupedActions
from ui.touch.screens.present import Presenter
from ui.touch.widgets import paced
from ui.touch.widgets.balance import BalanceTile

RECEIPT_S = 8.0
"""Seconds a receipt stays on the table when nobody taps it away."""


def badge_key(in_jail: bool, bankrupt: bool) -> str | None:
    """The translation key of a player's badge, if any."""
    if bankrupt:
        return "badge.bankrupt"
    if in_jail:
        return "badge.in_jail"
    return None


def grid_columns(players: int) -> int:
    """Tiles per row: 2 for up to 4 players, 3 for 5-6, 4 for 7-8."""
    if players <= 4:
        return 2
    return 3 if players <= 6 else 4


class TableScreen(GroupedActions):
    """Balances, prompt, last transaction, actions."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._tiles: list[BalanceTile] = []
        self._last_tx_seq = -1
        self._presenter: Any = None
        self._receipt_timeout = Clock.create_trigger(lambda _dt: self.hide_receipt(), RECEIPT_S)
        from kivy.core.window import Window

        Window.bind(on_touch_down=self._window_touched)  # a tap anywhere (the card tray too) takes it away

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        self.ids.prompt.text = presenter.prompt()
        grid = self.ids.tiles
        if len(self._tiles) != len(view.players):
            grid.clear_widgets()
            self._tiles = [BalanceTile() for _ in view.players]
            for tile in self._tiles:
                grid.add_widget(tile)
        grid.cols = grid_columns(len(view.players))
        active = view.turn or dict(view.extra).get("player")  # whose turn it is (else the gesture's player)
        for tile, p in zip(self._tiles, view.players, strict=True):
            key = badge_key(p.in_jail, p.bankrupt)
            badge = presenter.tr(key) if key else ""
            cards = len(getattr(p, "jail_cards", ()) or ())
            if cards and not p.bankrupt:  # the classic game's Get Out of Jail Free cards held
                held = presenter.tr("badge.jail_cards", count=cards).replace("\n", " ")  # one line under the name
                badge = " ".join(filter(None, (badge, held)))
            if active == p.id:  # the turn in words too (the tile's border says it without colour)
                badge = " · ".join(filter(None, (presenter.tr("tile.turn"), badge)))
            tile.update(player_id=p.id, name=presenter.player_name(p.id), balance=p.balance,
                        balance_text=presenter.money(p.balance), token=p.token, badge=badge,
                        active=active == p.id)
        self.ids.clock.text = clock_text(presenter)
        self.ids.rent_tax.text = rent_tax_text(presenter)
        self.ids.pot.text = pot_text(presenter)
        tx = view.last_transaction
        self.ids.tx.text = presenter.transaction(presenter.changes)
        if tx is not None and tx.seq != self._last_tx_seq:
            self._last_tx_seq = tx.seq
            self.animate_transaction()
            self.hide_receipt()  # a new payment: the old one's receipt goes
        self._presenter = presenter
        voice = getattr(self.app(), "voice", None)
        speaks = bool(voice is not None and voice.available and voice.on)
        say = self.ids.say
        say.size_hint_x, say.opacity, say.disabled = (0.2, 1.0, False) if speaks else (0.001, 0.0, True)
        super().render(presenter)

    def animate_transaction(self) -> None:
        """Slide the transaction line in and fade it up."""
        label = self.ids.tx
        Animation.cancel_all(label)
        label.opacity = 0.0
        label.slide = dp(16)
        paced.animation(opacity=1.0, slide=0.0, duration=0.35, t="out_cubic").start(label)

    # -- the receipt of the last payment: shown when its line is touched, gone at a tap or RECEIPT_S --------
    def on_touch_down(self, touch: Any) -> bool:
        """A touch on the transaction line shows its receipt; any touch while it shows takes it away (a touch
        on the receipt itself goes no further; elsewhere it does what it does anyway)."""
        note = self.ids.receipt
        if self.receipt_shown:
            self.hide_receipt()
            if _inside(note, self.to_window(*touch.pos)):
                return True
        elif _inside(self.ids.tx, self.to_window(*touch.pos)) and self.show_receipt():
            return True
        return bool(super().on_touch_down(touch))

    def _window_touched(self, _window: Any, touch: Any) -> None:
        """A touch outside this screen (the card tray, the bar) takes the receipt away and goes on as it was."""
        if self.receipt_shown and not (self.manager is not None and self.manager.current == self.name
                                       and _inside(self, touch.pos)):
            self.hide_receipt()

    @property
    def receipt_shown(self) -> bool:
        """A receipt is on the table."""
        return bool(self.ids.receipt.text)

    def show_receipt(self) -> bool:
        """Show the last payment's sentence and receipt; False when it has none."""
        text = self._presenter.told(with_receipt=True) if self._presenter is not None else ""
        if not text:
            return False
        note = self.ids.receipt
        note.text, note.opacity = text, 1.0
        self._receipt_timeout.cancel()
        self._receipt_timeout()
        return True

    def hide_receipt(self) -> None:
        """Take the receipt off the table."""
        self._receipt_timeout.cancel()
        note = self.ids.receipt
        note.text, note.opacity = "", 0.0

    def settle(self) -> None:
        """Jump every running animation to its end (screenshots show the settled screen)."""
        label = self.ids.tx
        Animation.cancel_all(label)
        label.opacity, label.slide = 1.0, 0.0
        for tile in self._tiles:
            tile.settle()

    def tile_for(self, player_id: str) -> BalanceTile | None:
        """The tile of a player (tests read its text)."""
        for tile in self._tiles:
            if tile.player_id == player_id:
                return tile
        return None


def _inside(widget: Any, window_pos: tuple[float, float]) -> bool:
    """Whether a point in window coordinates falls on ``widget`` (shown: its opacity is not 0)."""
    if not widget.opacity or widget.width <= 1:
        return False
    x, y = widget.to_window(*widget.pos)
    return bool(x <= window_pos[0] <= x + widget.width and y <= window_pos[1] <= y + widget.height)
