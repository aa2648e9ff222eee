"""The final standings: the winner in a banner, then rank, player, cash, deeds (and in the classic game
buildings) and total (each row in its token's colour, which is also its line in the wealth chart), the
bars of each player's cash, deeds and buildings, the wealth over the game, and the New game button when
the banker offers it (``may("press_new_game")``, behind the PIN)."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ui.countit import scores_text
from ui.story.names import Names
from ui.touch.screens.base import BankScreen
from ui.touch.screens.classic_text import wealth_split
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.balance import TokenChip
from ui.touch.widgets.fitlabel import FitLabel

WIDTHS = (0.08, 0.05, 0.33, 0.18, 0.18, 0.18)
"""Columns: rank, token, player, cash, deeds, total (fractions of the table's width)."""
CLASSIC_WIDTHS = (0.07, 0.04, 0.23, 0.165, 0.165, 0.165, 0.165)
"""The classic game's columns: rank, token, player, cash, deeds, buildings, total."""


class StandingsScreen(BankScreen):
    """The winner banner, the ranking table on the left, the wealth chart on the right. The table's
    amounts are digits alone, with the edition's unit said once under it (a unit such as ``тыс. ₽`` or
    ``千ルーブル`` in every cell would not fit four columns of amounts at 800x480)."""

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        self.ids.prompt.text = presenter.prompt()
        classic = presenter.ruleset == "classic"
        split = {w.player: w for w in wealth_split(presenter)}
        header = (presenter.tr("standings.rank"), "", presenter.tr("standings.player"),
                  presenter.tr("standings.cash"), presenter.tr("standings.deeds"),
                  *((presenter.tr("standings.buildings"),) if classic else ()), presenter.tr("standings.total"))
        winners = [s for s in view.standings if s.rank == 1]
        lines: list[tuple[tuple[str, ...], palette.RGBA, palette.RGBA | None, bool, bool]] = [
            (header, palette.MUTED, None, True, False)]  # _row's arguments
        for s in view.standings:
            p = presenter.player(s.player)
            rgba = palette.token_rgba(p.token) if p else palette.TEXT
            parts = split.get(s.player)
            money = (presenter.amount(parts.deeds), presenter.amount(parts.buildings)) if classic and parts else \
                (presenter.amount(s.deeds_value),)
            lines.append(((str(s.rank), "", presenter.player_name(s.player), presenter.amount(s.cash), *money,
                           presenter.amount(s.total)), palette.TEXT, rgba, s.rank == 1, s.rank == 1))
        caption = presenter.tr("standings.amounts", unit=presenter.money_unit())
        scores = scores_text(view.scores, Names.from_view(view, presenter.tr.lang, presenter.tr)) \
            if view.scores else ""  # count it: the counters' scores beside the unit's caption
        if (lines, caption, scores) != self.__dict__.get("_rows_shown"):  # built again only when they change
            self.__dict__["_rows_shown"] = (lines, caption, scores)
            rows = self.ids.rows
            rows.clear_widgets()
            for texts, colour, token, bold, highlight in lines:
                rows.add_widget(_row(texts, colour, token, bold=bold, highlight=highlight))
            amounts = FitLabel(text=caption, color=palette.MUTED, max_font_size=dp(16), halign="right",
                               size_hint_y=0.6)
            if scores:
                amounts.size_hint = (0.3, 1)
                line = BoxLayout(size_hint_y=1.0, spacing=dp(6))
                line.add_widget(FitLabel(text=scores, color=palette.TEXT, wrap=True, max_font_size=dp(16),
                                         halign="left"))
                line.add_widget(amounts)
                rows.add_widget(line)
            else:
                rows.add_widget(amounts)
        if winners:
            names = ", ".join(presenter.player_name(s.player) for s in winners)
            self.ids.winner.text = presenter.tr("standings.winner", player=names,
                                                total=presenter.money(winners[0].total))
            first = presenter.player(winners[0].player)
            self.ids.winner.band = palette.token_rgba(first.token) if first else palette.WARNING
        else:
            self.ids.winner.text, self.ids.winner.band = "", palette.PANEL
        series = []
        for player_id, values in view.wealth_history:
            p = presenter.player(player_id)
            series.append((palette.token_rgba(p.token) if p else palette.TEXT, values))
        bars = []
        for w in split.values():
            p = presenter.player(w.player)
            bars.append((palette.token_rgba(p.token) if p else palette.TEXT, (w.cash, w.deeds, w.buildings)))
        self.ids.bars.show(bars)
        self.ids.legend_cash.text = presenter.tr("standings.cash")
        self.ids.legend_deeds.text = presenter.tr("standings.deeds")
        legend = self.ids.legend_buildings  # only the classic game has buildings to show
        legend.text = presenter.tr("standings.buildings") if classic else ""
        legend.opacity, legend.size_hint_y, legend.height = (1, 1, legend.height) if classic else (0, None, 0)
        legend.parent.height = dp(66 if classic else 44)  # a line each: the bars take the room left
        chart = self.ids.chart
        chart.show(series)
        self.ids.top.text = presenter.amount(chart.top_value)  # the unit: the caption under the table
        self.ids.bottom.text = presenter.amount(0)
        super().render(presenter)

    def action_buttons(self, presenter: Presenter) -> list[tuple[str, str, bool]]:
        """The banker's actions, with New game when the banker allows it now."""
        buttons = super().action_buttons(presenter)
        if self.app().may("press_new_game") and not any(t in ("press_new_game", "new_game") for t, _, _ in buttons):
            buttons.append(("press_new_game", presenter.action_label("press_new_game"), True))
        return buttons


def _row(cells: tuple[str, ...], rgba: palette.RGBA, token: palette.RGBA | None, bold: bool = False,
         highlight: bool = False) -> BoxLayout:
    row = BoxLayout(spacing=dp(4))
    if highlight:
        from kivy.graphics import Color, RoundedRectangle

        with row.canvas.before:
            Color(*palette.PANEL_LIGHT)
            rect = RoundedRectangle(pos=row.pos, size=row.size, radius=[dp(6)])
        row.bind(pos=lambda w, v: setattr(rect, "pos", v), size=lambda w, v: setattr(rect, "size", v))
    widths = CLASSIC_WIDTHS if len(cells) == len(CLASSIC_WIDTHS) else WIDTHS
    for i, (text, width) in enumerate(zip(cells, widths, strict=True)):
        if i == 1:
            row.add_widget(TokenChip(token_color=token or (0, 0, 0, 0), size_hint_x=width))
            continue
        row.add_widget(FitLabel(text=text, color=rgba, bold=bold, size_hint_x=width, max_font_size=dp(18),
                                halign="left" if i == 2 else "center", wrap=i == 2))
    return row
