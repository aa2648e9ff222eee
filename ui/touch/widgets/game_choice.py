"""The setup screen's game choice: one card per game, a colour mark, the game's name and one line saying what
it is (Ultimate Banking, Classic US, Classic UK, Classic Russia), and under the chosen Ultimate Banking game
the street names of its board (UK, US, Russia).

A game is one or more editions: Ultimate Banking's editions share one board and differ only in its names, so
they are one game with a choice of names; each classic edition is its own box (money and streets), so a game.
The cards only show what the banker's view says (its ``editions`` and the ``edition`` chosen) and report the
edition touched; the screen sends ``edition=ID``. Sizes at 800x480: every card and button at least 48 px
high, text at least 16 px.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from kivy.graphics import Color, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitButton, FitLabel

CARD_HEIGHT = 80
"""A game card's height in dp (its name and its line on up to two lines; at least 48 px at 800x480)."""
NAMES_HEIGHT = 48
"""The Ultimate board's street-name buttons' height in dp."""

MARKS: dict[str, tuple[str, tuple[float, float, float, float]]] = {
    "ultimate": ("", (0.42, 0.30, 0.78, 1.0)),  # drawn: a bank card (the game is played with cards, no cash)
    "classic-us": ("$", (0.16, 0.52, 0.30, 1.0)),
    "classic-uk": ("\u00a3", (0.72, 0.16, 0.20, 1.0)),
    "classic-ru": ("\u20bd", (0.20, 0.38, 0.78, 1.0)),
}
"""Each game's mark: a sign and its colour (a game without one gets the accent and its initial)."""
ORDER = ("ultimate-uk", "ultimate-us", "ultimate-ru", "classic-us", "classic-uk", "classic-ru")
"""The order of the built-in editions in the choice (an edition of a user's file comes after, by id)."""


@dataclass(frozen=True)
class Game:
    """One game of the choice: its key (translations ``game.<key>`` and ``game.<key>.line``) and editions."""

    key: str
    editions: tuple[str, ...]


@cache
def _ruleset(edition_id: str) -> str:
    from engine.editions import edition_ruleset

    try:
        return edition_ruleset(edition_id)  # read alone: no ruleset imported
    except ValueError:
        return ""


def games_of(editions: Sequence[str]) -> tuple[Game, ...]:
    """The games the ``editions`` make, in their order: a ruleset whose editions share one board (Ultimate
    Banking) is one game, each edition of any other ruleset is a game of its own."""
    out: list[Game] = []
    shared: dict[str, list[str]] = {}
    for edition_id in sorted(editions, key=lambda e: (ORDER.index(e) if e in ORDER else len(ORDER), e)):
        ruleset = _ruleset(edition_id)
        if ruleset == "ultimate":
            if ruleset not in shared:
                shared[ruleset] = []
                out.append(Game(ruleset, ()))
            shared[ruleset].append(edition_id)
        else:
            out.append(Game(edition_id, (edition_id,)))
    return tuple(Game(g.key, tuple(shared[g.key])) if g.key in shared else g for g in out)


def first_edition(game: Game, lang: str, current: str) -> str:
    """The edition a touch of ``game`` chooses: the current one if it is the game's, else the one in the UI's
    language (``ultimate-ru`` for ru), else the game's UK edition, else its first."""
    if current in game.editions:
        return current
    for wanted in (f"{game.key}-{lang}", f"{game.key}-uk"):
        if wanted in game.editions:
            return wanted
    return game.editions[0]


class GameCard(ButtonBehavior, BoxLayout):
    """A game: the colour mark, the name (bold) and one line; the chosen one is lit."""

    def __init__(self, game: Game, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", dp(CARD_HEIGHT))
        kwargs.setdefault("spacing", dp(8))
        kwargs.setdefault("padding", (dp(6), dp(4)))
        super().__init__(**kwargs)
        self.game = game
        sign, colour = MARKS.get(game.key, (game.key[:1].upper(), palette.ACCENT))
        self.mark = FitLabel(text=sign, bold=True, size_hint_x=None, width=dp(44), max_font_size=dp(26))
        with self.mark.canvas.before:
            Color(rgba=colour)
            self._mark_bg = RoundedRectangle(radius=[dp(8)])
            self._card_colour = Color(rgba=(0.0, 0.0, 0.0, 0.0))
            self._card = RoundedRectangle(radius=[dp(3)])
            self._stripe_colour = Color(rgba=(0.0, 0.0, 0.0, 0.0))
            self._stripe = RoundedRectangle(radius=[0])
        if not sign:  # a small bank card: white, with its dark magnetic stripe
            self._card_colour.rgba, self._stripe_colour.rgba = palette.TEXT, palette.BACKGROUND
        self.mark.bind(pos=self._place_mark, size=self._place_mark)
        texts = BoxLayout(orientation="vertical")
        self.title = FitLabel(bold=True, halign="left", max_font_size=dp(19), min_font_size=dp(16), size_hint_y=0.32)
        self.line = FitLabel(halign="left", valign="top", wrap=True, color=palette.MUTED, max_font_size=dp(16),
                             min_font_size=dp(16),
                             size_hint_y=0.68)
        texts.add_widget(self.title)
        texts.add_widget(self.line)
        self.add_widget(self.mark)
        self.add_widget(texts)
        with self.canvas.before:
            self._bg_colour = Color(rgba=palette.PANEL)
            self._bg = RoundedRectangle(radius=[dp(10)])
        self.bind(pos=self._place, size=self._place)

    def _place_mark(self, *_: Any) -> None:
        side = min(self.mark.width, self.mark.height, dp(44))
        self._mark_bg.pos = (self.mark.center_x - side / 2, self.mark.center_y - side / 2)
        self._mark_bg.size = (side, side)
        x, y = self.mark.center_x - dp(15), self.mark.center_y - dp(10)
        self._card.pos, self._card.size = (x, y), (dp(30), dp(20))
        self._stripe.pos, self._stripe.size = (x, y + dp(12)), (dp(30), dp(4))

    def _place(self, *_: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size

    def update(self, title: str, line: str, chosen: bool) -> None:
        """Show the game's name and line; ``chosen`` lights the card."""
        self.title.text, self.line.text = title, line
        self._bg_colour.rgba = palette.ACCENT if chosen else palette.PANEL
        self.line.color = palette.TEXT if chosen else palette.MUTED  # legible on the lit card too


class GameChoice(BoxLayout):
    """Every game of the view's editions as a card, and the Ultimate board's street names under it when
    it is the game chosen; ``on_choose(edition_id)`` when one is touched."""

    def __init__(self, on_choose: Callable[[str], None], **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("spacing", dp(4))
        super().__init__(**kwargs)
        self._on_choose = on_choose
        self.cards: dict[str, GameCard] = {}
        self.name_buttons: dict[str, FitButton] = {}
        self._names_row = BoxLayout(size_hint_y=None, height=dp(NAMES_HEIGHT), spacing=dp(4))
        self._shown: list[Any] = []
        self._lang = "en"
        self._current = ""
        self.bind(minimum_height=self.setter("height"))

    def update(self, editions: Sequence[str], current: str, lang: str, tr: Callable[[str], str],
               edition_name: Callable[[str], str]) -> None:
        """Show the games of ``editions`` with ``current``'s lit (``tr``: a translation key's text)."""
        self._lang, self._current = lang, current
        widgets: list[Any] = []
        for game in games_of(editions):
            card = self.cards.get(game.key)
            if card is None:
                card = self.cards[game.key] = GameCard(game)
                card.bind(on_release=self._touched)
            chosen = current in game.editions
            card.update(tr(f"game.{game.key}"), tr(f"game.{game.key}.line"), chosen)
            widgets.append(card)
            if chosen and len(game.editions) > 1:
                self._update_names(game, current, tr, edition_name)
                widgets.append(self._names_row)
        if widgets != self._shown:
            self.clear_widgets()
            for widget in widgets:
                self.add_widget(widget)
            self._shown = widgets

    def _update_names(self, game: Game, current: str, tr: Callable[[str], str],
                      edition_name: Callable[[str], str]) -> None:
        buttons = []
        for edition_id in game.editions:
            button = self.name_buttons.get(edition_id)
            if button is None:
                button = self.name_buttons[edition_id] = FitButton(max_font_size=dp(16), size_hint_y=None,
                                                                   height=dp(NAMES_HEIGHT))
                button.bind(on_release=lambda *_, e=edition_id: self._on_choose(e))
            button.text = tr(f"game.names.{edition_id}")
            button.bg = palette.ACCENT if edition_id == current else palette.PANEL_LIGHT
            buttons.append(button)
        if list(self._names_row.children[::-1]) != buttons:
            self._names_row.clear_widgets()
            for button in buttons:
                self._names_row.add_widget(button)

    def _touched(self, card: GameCard) -> None:
        self._on_choose(first_edition(card.game, self._lang, self._current))
