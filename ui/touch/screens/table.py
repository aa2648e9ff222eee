"""The table: every player's balance (large, with token colour and name), the prompt, the last
transaction (animated) and the context buttons the banker allows now; in the classic game a strip with the
time-limited game's minutes left, the late-game rent tax while it applies and the Free Parking pot. The
buttons are laid out per ruleset (:mod:`ui.touch.screens.grouped`)."""

from __future__ import annotations

from kivy.animation import Animation
from kivy.metrics import dp

from ui.touch.screens.classic_text import clock_text, pot_text, rent_tax_text
from ui.touch.screens.grouped import GroupedActions
from ui.touch.screens.present import Presenter
from ui.touch.widgets import paced
from ui.touch.widgets.balance import BalanceTile


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
        super().render(presenter)

    def animate_transaction(self) -> None:
        """Slide the transaction line in and fade it up."""
        label = self.ids.tx
        Animation.cancel_all(label)
        label.opacity = 0.0
        label.slide = dp(16)
        paced.animation(opacity=1.0, slide=0.0, duration=0.35, t="out_cubic").start(label)

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
