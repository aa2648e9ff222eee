"""The board when the unit keeps the tokens (docs/flows.md "The unit keeps the tokens"): each token a disc of
its player's colour with their initial, on the square the view says; the dice pad sends one answer per touch;
and the setup's toggle names the two ways to play."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fixtures.views import board_view
from ui_driver import pump

from ui.touch.screens.setup import option_text
from ui.touch.widgets import palette

pytestmark = pytest.mark.ui


def open_board(app: Any, view: Any) -> Any:
    app.overlay = None
    app.render(view)
    app.show_screen("board")
    pump(3)
    return app.screen("board")


def _kept(view: Any, where: dict[str, int]) -> Any:
    players = tuple(replace(p, position=where.get(p.id, 0)) for p in view.players)
    return replace(view, players=players, positions=True, roller="p3", prompt=replace(view.prompt, key="prompt.roll"))


def _dots(screen: Any) -> list[Any]:
    """The token discs the board widget shows, in the order of the view's players."""
    from ui.touch.widgets.board import TokenDot

    shown = [w for w in screen.ids.board.children if isinstance(w, TokenDot)]
    return sorted(shown, key=lambda d: screen.ids.board._tokens.index(d))


def test_tokens_stand_on_their_squares(ui_app: Any) -> None:
    ui_app.set_language("en")
    view = _kept(board_view(), {"p1": 5, "p2": 5, "p3": 24})
    screen = open_board(ui_app, view)
    discs = _dots(screen)
    assert len(discs) == len(view.players)
    cells = screen.ids.board.cells
    for player, disc in zip(view.players, discs, strict=True):
        cell = cells[player.position]
        assert cell.collide_point(*disc.center), player.id
        assert disc.text == player.name[:1].upper()
        assert tuple(disc.disc_color) == tuple(palette.token_rgba(player.token))
    assert discs[0].pos != discs[1].pos  # two tokens on one square stand side by side
    ui_app.render(_kept(board_view(), {"p1": 6}))
    pump(2)
    assert cells[6].collide_point(*_dots(screen)[0].center)


def test_no_tokens_and_no_pad_when_the_table_moves_them(ui_app: Any) -> None:
    screen = open_board(ui_app, board_view())
    assert not _dots(screen) and not screen.ids.dice_pad.children


def test_the_pad_sends_one_answer_per_touch(ui_app: Any, monkeypatch: Any) -> None:
    ui_app.set_language("en")
    screen = open_board(ui_app, _kept(board_view(), {}))
    sent: list[str] = []
    monkeypatch.setattr(screen, "app", lambda: type("A", (), {"choose": staticmethod(sent.append)})())
    buttons = list(reversed(screen.ids.dice_pad.children))
    assert [b.text for b in buttons] == ["1", "2", "3", "4", "5", "6", "Roll"]
    buttons[2].dispatch("on_release")
    buttons[6].dispatch("on_release")
    assert sent == ["3", "roll"]


def test_the_setup_toggle_says_the_way_to_play(ui_app: Any) -> None:
    ui_app.set_language("en")
    presenter = ui_app.presenter
    assert option_text(presenter, "positions", False) == "at the table"
    assert option_text(presenter, "positions", True) == "the unit keeps the tokens"
