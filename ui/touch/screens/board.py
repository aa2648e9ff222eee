"""The board: all spaces with owner and rent level. Touching a deed space does what tapping its deed
card does (for lost cards): the screen asks the app to ``touch_deed(number)``."""

from __future__ import annotations

from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette


class BoardScreen(BankScreen):
    """Four columns of spaces and a back button."""

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        board = self.ids.board
        board.on_deed = self.on_deed
        names = [presenter.space_name(s) for s in view.board]
        details = [presenter.money(s.rent) if s.owner and s.rent is not None
                   else (presenter.money(s.price) if s.price is not None else "") for s in view.board]
        owners = [palette.token_rgba(p.token) if (p := presenter.player(s.owner)) else None for s in view.board]
        board.show(view.board, names, details, owners)
        self.ids.prompt.text = presenter.prompt()
        super().render(presenter)

    def on_deed(self, deed: int) -> None:
        """A deed space was touched."""
        self.app().touch_deed(deed)
