"""The final standings: rank, player, cash, deeds and total, with a chart of each player's wealth."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitLabel


class StandingsScreen(BankScreen):
    """A ranking table on the left, the wealth chart and its legend on the right."""

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        self.ids.prompt.text = presenter.prompt()
        rows = self.ids.rows
        rows.clear_widgets()
        header = (presenter.tr("standings.rank"), presenter.tr("standings.player"),
                  presenter.tr("standings.cash"), presenter.tr("standings.deeds"), presenter.tr("standings.total"))
        rows.add_widget(_row(header, palette.MUTED, bold=True))
        for s in view.standings:
            p = presenter.player(s.player)
            rows.add_widget(_row((str(s.rank), presenter.player_name(s.player), presenter.money(s.cash),
                                  presenter.money(s.deeds_value), presenter.money(s.total)),
                                 palette.token_rgba(p.token) if p else palette.TEXT, bold=s.rank == 1))
        series = []
        legend = self.ids.legend
        legend.clear_widgets()
        for player_id, values in view.wealth_history:
            p = presenter.player(player_id)
            rgba = palette.token_rgba(p.token) if p else palette.TEXT
            series.append((rgba, values))
            legend.add_widget(FitLabel(text=presenter.player_name(player_id), color=rgba, max_font_size=dp(13),
                                       wrap=True))
        chart = self.ids.chart
        chart.show(series)
        self.ids.top.text = presenter.money(chart.top_value)
        self.ids.bottom.text = presenter.money(0)
        super().render(presenter)


def _row(cells: tuple[str, ...], rgba: palette.RGBA, bold: bool = False) -> BoxLayout:
    row = BoxLayout(spacing=dp(4))
    widths = (0.08, 0.29, 0.21, 0.21, 0.21)
    for i, (text, width) in enumerate(zip(cells, widths, strict=True)):
        row.add_widget(FitLabel(text=text, color=rgba, bold=bold, size_hint_x=width, max_font_size=dp(16),
                                wrap=i == 1))
    return row
