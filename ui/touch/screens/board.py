"""The board: the spaces in a ring in board order, each with its colour band, owner colour and rent level;
the centre shows the touched space's details (owner, level, rent now, price), the prompt and the actions.

Touching a deed space does what tapping its deed card does (for lost cards): the screen asks the app to
``touch_deed(number)``, and the board stays open, so the centre shows what the banker says of that deed.
Touching another space only shows it in the centre. In the classic game the owner disc carries no level
(the houses stand on the band), a mortgaged deed is struck through, and the centre says the
buildings; when the view gives the players' board positions (the unit keeps the tokens), the tokens stand on
their squares and the centre offers the dice pad: 1..6 (two touches, one die each) and Roll (the unit rolls);
each touch is one ``choose`` answer to the banker.
"""

from __future__ import annotations

from kivy.factory import Factory
from kivy.metrics import dp

from engine.banker.viewmodel import SpaceView
from ui.touch.screens.classic_text import buildings_of, buildings_words
from ui.touch.screens.grouped import GroupedActions
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.setmark import attach_mark

NO_BAND: palette.RGBA = (0.0, 0.0, 0.0, 0.0)


def token_marks(presenter: Presenter) -> list[tuple[int, palette.RGBA, str]]:
    """(position, colour, initial) of every player still in whose board position the view gives, when the
    unit keeps the tokens (the view's ``positions``); none otherwise."""
    marks: list[tuple[int, palette.RGBA, str]] = []
    if not presenter.view.positions:
        return marks
    for p in presenter.view.players:
        position = getattr(p, "position", None)
        if isinstance(position, int) and not p.bankrupt:
            name = presenter.player_name(p.id)
            marks.append((position, palette.token_rgba(p.token), name[:1].upper()))
    return marks


class BoardScreen(GroupedActions):
    """The ring, and the centre: prompt, back, the details of one space, the context actions."""

    touched = -1  # the position of the space last touched here (the banker's selected deed wins)

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        board = self.ids.board
        board.on_deed = self.on_deed
        board.on_space = self.on_space
        selected = self.shown_position(presenter)
        names = [presenter.board_name(s) for s in view.board]
        owners = [palette.token_rgba(p.token) if (p := presenter.player(s.owner)) else None for s in view.board]
        classic = presenter.ruleset == "classic"
        board.show(view.board, names, owners, selected, levels=not classic)
        board.show_tokens(token_marks(presenter))
        self.ids.prompt.text = presenter.prompt()
        space = next((s for s in view.board if s.position == selected), None)
        self.show_details(presenter, space)
        self.show_pad(presenter)
        super().render(presenter)

    # -- the unit keeps the tokens: the dice pad ------------------------------------------------------------
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
            attach_mark(ids.space_name, None)
            ids.owner.text = ""
            return
        ids.space_name.text = presenter.space_name(space)
        ids.space_name.band = palette.deed_rgba(space.colour) if space.kind == "deed" else \
            palette.SPACE_KINDS.get(space.kind, NO_BAND)
        attach_mark(ids.space_name, space.colour if space.kind == "deed" else None)
        if space.kind != "deed":
            key = f"board.about.{space.kind}"
            ids.owner.text = tr(key) if tr.has(key, "en") else ""
            return
        owner = presenter.player_name(space.owner) if space.owner else None
        ids.owner.text = tr("board.owner", player=owner) if owner else tr("board.unowned")
        if getattr(space, "mortgaged", False):
            ids.owner.text += "\n" + tr("board.mortgaged")
        ids.price_key.text, ids.price.text = tr("board.price"), presenter.money(space.price or 0)
        if space.owner and presenter.ruleset == "classic":
            ids.level_key.text = tr("board.buildings")
            ids.level.text = buildings_words(presenter, buildings_of(space))
            if space.rent is not None:
                ids.rent_key.text, ids.rent.text = tr("board.rent_now"), presenter.money(space.rent)
        elif space.owner and space.level:
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
