"""The board: the spaces in a ring in board order, each with its colour band, owner colour and rent level;
the centre shows the touched space's details (owner, level, rent now, price), the prompt and the actions.

Touching a deed space does what tapping its deed card does (for lost cards): the screen asks the app to
``touch_deed(number)``, and the board stays open, so the centre shows what the banker says of that deed.
Touching another space only shows it in the centre.

When the unit keeps the tokens (the view's ``positions``), each player's token is a disc of their colour
with their initial on the square the view says, and the centre offers the dice pad: 1..6 (two touches, one
die each) and Roll (the unit rolls); each touch is one ``choose`` answer to the banker.
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp

from engine.banker.viewmodel import PlayerView, SpaceView
from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette

NO_BAND: palette.RGBA = (0.0, 0.0, 0.0, 0.0)


class BoardScreen(BankScreen):
    """The ring, and the centre: prompt, back, the details of one space, the context actions."""

    touched = -1  # the position of the space last touched here (the banker's selected deed wins)

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        board = self.ids.board
        board.on_deed = self.on_deed
        board.on_space = self.on_space
        selected = self.shown_position(presenter)
        names = [presenter.space_name(s) for s in view.board]
        owners = [palette.token_rgba(p.token) if (p := presenter.player(s.owner)) else None for s in view.board]
        board.show(view.board, names, owners, selected)
        self.ids.prompt.text = presenter.prompt()
        space = next((s for s in view.board if s.position == selected), None)
        self.show_details(presenter, space)
        self.show_tokens(presenter)
        self.show_pad(presenter)
        super().render(presenter)

    # -- the unit keeps the tokens -------------------------------------------------------------------------
    def show_tokens(self, presenter: Presenter) -> None:
        """A disc per token on its square (the view's positions); none when the table moves the tokens."""
        layer = self.ids.tokens
        shown = [p for p in presenter.view.players if p.position is not None and not p.bankrupt]
        while len(layer.children) < len(shown):
            layer.add_widget(Factory.TokenDisc(size_hint=(None, None)))
        discs = list(reversed(layer.children))
        for disc in discs[len(shown):]:
            layer.remove_widget(disc)
        self._tokens = shown
        self.place_tokens()
        board = self.ids.board
        if not getattr(self, "_bound", False):
            board.bind(size=self.place_tokens, pos=self.place_tokens)
            self._bound = True

    def place_tokens(self, *_: Any) -> None:
        """Put each disc on its square, side by side when several share one."""
        cells = self.ids.board.cells
        shown: list[PlayerView] = getattr(self, "_tokens", [])
        discs = list(reversed(self.ids.tokens.children))
        per_square: dict[int, int] = {}
        for player, disc in zip(shown, discs, strict=False):
            at = player.position or 0
            if not 0 <= at < len(cells):
                continue
            cell = cells[at]
            size = max(dp(10), min(cell.width, cell.height) * 0.42)
            k = per_square.get(at, 0)
            per_square[at] = k + 1
            disc.size = (size, size)
            disc.pos = (cell.x + dp(2) + (k % 2) * size * 0.9, cell.top - size - dp(2) - (k // 2) * size * 0.9)
            disc.rgba = palette.token_rgba(player.token)
            disc.text = (player.name or player.id)[:1].upper()

    def show_pad(self, presenter: Presenter) -> None:
        """The dice pad (1..6 and Roll), offered while the unit waits for a roll."""
        pad = self.ids.dice_pad
        view = presenter.view
        if not view.positions:
            pad.clear_widgets()
            pad.height = 0
            pad.opacity = 0
            return
        if not pad.children:
            for value in ("1", "2", "3", "4", "5", "6", "roll"):
                button = Factory.FitButton()
                button.value = value
                button.bind(on_release=lambda b: self.app().choose(b.value))
                pad.add_widget(button)
        pad.height, pad.opacity = dp(44), 1
        for button in pad.children:
            button.text = presenter.tr("dice.roll") if button.value == "roll" else button.value
            button.disabled = view.state != "idle"

    def shown_position(self, presenter: Presenter) -> int:
        """The space the centre shows: the deed of the gesture under way, else the one touched here."""
        space = presenter.space_for_deed(presenter.view.selected_deed)
        return space.position if space is not None else self.touched

    def show_details(self, presenter: Presenter, space: SpaceView | None) -> None:
        """Fill the centre with ``space``'s owner, level, rent now and price (labelled)."""
        ids, tr = self.ids, presenter.tr
        keys = (ids.level_key, ids.rent_key, ids.price_key)
        values = (ids.level, ids.rent, ids.price)
        for label in (*keys, *values):
            label.text = ""
        if space is None:
            ids.space_name.text, ids.space_name.band = tr("board.hint"), NO_BAND
            ids.owner.text = ""
            return
        ids.space_name.text = presenter.space_name(space)
        ids.space_name.band = palette.deed_rgba(space.colour) if space.kind == "deed" else \
            palette.SPACE_KINDS.get(space.kind, NO_BAND)
        if space.kind != "deed":
            key = f"board.about.{space.kind}"
            ids.owner.text = tr(key) if tr.has(key, "en") else ""
            return
        owner = presenter.player_name(space.owner) if space.owner else None
        ids.owner.text = tr("board.owner", player=owner) if owner else tr("board.unowned")
        if getattr(space, "mortgaged", False):
            ids.owner.text += "\n" + tr("board.mortgaged")
        ids.price_key.text, ids.price.text = tr("board.price"), presenter.money(space.price or 0)
        if space.owner and space.level:
            ids.level_key.text = tr("board.level")
            ids.level.text = tr("board.level_value", level=space.level, top=5)
            if space.rent is not None:
                ids.rent_key.text, ids.rent.text = tr("board.rent_now"), presenter.money(space.rent)

    def on_space(self, position: int) -> None:
        """Any space was touched: the centre shows it."""
        self.touched = position
        self.render(self.app().presenter)

    def on_deed(self, deed: int) -> None:
        """A deed space was touched: what tapping its deed card does."""
        self.app().touch_deed(deed)
