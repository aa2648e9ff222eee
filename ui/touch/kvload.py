"""Loading the kv files: the widget classes registered with Kivy's Factory, then every kv file once."""

from __future__ import annotations

from pathlib import Path

KV_DIR = Path(__file__).with_name("kv")
KV_FILES: tuple[str, ...] = ("widgets.kv", "table.kv", "board.kv", "event.kv", "auction.kv", "debt.kv",
                             "standings.kv", "menu.kv", "setup.kv", "build.kv", "mortgage.kv", "trade.kv",
                             "card.kv", "tax.kv", "dice.kv", "question.kv", "app.kv")


def load_kv() -> None:
    """Register the widget classes with the kv language and load every kv file once."""
    from kivy.factory import Factory
    from kivy.lang import Builder

    from ui.touch import fonts
    from ui.touch.screens.auction import AuctionScreen
    from ui.touch.screens.board import BoardScreen
    from ui.touch.screens.build import BuildScreen
    from ui.touch.screens.card import CardScreen
    from ui.touch.screens.debt import DebtScreen
    from ui.touch.screens.dice import DiceScreen
    from ui.touch.screens.event import EventScreen
    from ui.touch.screens.menu import MenuScreen
    from ui.touch.screens.mortgage import MortgageScreen
    from ui.touch.screens.question import QuestionScreen
    from ui.touch.screens.setup import SetupScreen
    from ui.touch.screens.standings import StandingsScreen
    from ui.touch.screens.table import TableScreen
    from ui.touch.screens.tax import TaxScreen
    from ui.touch.screens.trade import TradeScreen
    from ui.touch.widgets.actions import ActionRow
    from ui.touch.widgets.balance import BalanceTile, TokenChip
    from ui.touch.widgets.bars import WealthBars
    from ui.touch.widgets.board import BoardView, SpaceCell, TokenDot
    from ui.touch.widgets.chart import WealthChart
    from ui.touch.widgets.choicegrid import ChoiceGrid, ChoiceScroll
    from ui.touch.widgets.fitlabel import FitButton, FitLabel
    from ui.touch.widgets.keypad import Keypad
    from ui.touch.widgets.paced import PacedRecycleView, PacedScrollView
    from ui.touch.widgets.panel import Panel
    from ui.touch.widgets.qr import ShareCode
    from ui.touch.widgets.setup_parts import ColourChip, NameInput
    from ui.touch.widgets.tray import CardButton, CardTray

    fonts.register_fonts()
    fonts.use_language("en")
    for cls in (AuctionScreen, BoardScreen, DebtScreen, EventScreen, MenuScreen, SetupScreen, StandingsScreen,
                TableScreen, ActionRow, BalanceTile, TokenChip, BoardView, SpaceCell, WealthChart, FitButton,
                FitLabel, Keypad, Panel, CardButton, CardTray, ColourChip, NameInput,
                BuildScreen, CardScreen, DiceScreen, MortgageScreen, TaxScreen, TradeScreen, TokenDot, WealthBars,
                ShareCode, ChoiceGrid, ChoiceScroll, PacedScrollView, PacedRecycleView, QuestionScreen):
        if cls.__name__ not in Factory.classes:
            Factory.register(cls.__name__, cls=cls)
    for name in KV_FILES:
        path = str(KV_DIR / name)
        if path not in Builder.files:
            Builder.load_file(path)
