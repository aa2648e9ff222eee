"""The board: every space with its owner's token colour and rent level, in four columns (sides A-D).

Touching a deed space calls ``on_deed(deed_number)`` (the screen does what tapping the deed card does,
for lost cards). The widget shows :class:`~engine.banker.viewmodel.SpaceView` data only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.properties import ColorProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from engine.banker.viewmodel import SpaceView
from ui.touch.widgets import palette

MAX_LEVEL = 5


def shown_level(level: int | None, owned: bool) -> int:
    """The number of lit level pips (0-5): the rent level of an owned deed, 0 otherwise."""
    if not owned or not level:
        return 0
    return max(0, min(MAX_LEVEL, level))


class SpaceCell(ButtonBehavior, BoxLayout):
    """One space: colour band, name, owner colour, level pips, rent."""

    position = NumericProperty(0)
    deed = NumericProperty(0)  # 0 = not a deed space
    name = StringProperty("")
    detail = StringProperty("")
    level = NumericProperty(0)  # lit pips: the rent level of an owned deed (drawn in ui/kv/widgets.kv)
    band_color = ColorProperty(palette.PANEL_LIGHT)
    owner_color = ColorProperty((0, 0, 0, 0))


class BoardView(BoxLayout):
    """Four columns of nine spaces (one column per side of the board)."""

    columns = NumericProperty(4)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.on_deed: Callable[[int], None] | None = None
        self._cells: list[SpaceCell] = []

    def show(self, spaces: Sequence[SpaceView], names: Sequence[str], details: Sequence[str],
             owner_colors: Sequence[palette.RGBA | None]) -> None:
        """Show ``spaces`` with display ``names``, ``details`` (rent text) and owner colours."""
        if len(self._cells) != len(spaces):
            self._build(len(spaces))
        for cell, space, name, detail, owner in zip(self._cells, spaces, names, details, owner_colors,
                                                    strict=True):
            cell.position = space.position
            cell.deed = space.deed or 0
            cell.name = name
            cell.detail = detail
            cell.level = shown_level(space.level, space.owner is not None)
            if space.kind == "deed":
                cell.band_color = palette.deed_rgba(space.colour)
            else:
                cell.band_color = palette.SPACE_KINDS.get(space.kind, palette.PANEL_LIGHT)
            cell.owner_color = owner if owner is not None else (0, 0, 0, 0)

    def _build(self, count: int) -> None:
        self.clear_widgets()
        self._cells = []
        per_column = max(1, -(-count // int(self.columns)))
        column: BoxLayout | None = None
        for i in range(count):
            if i % per_column == 0:
                column = BoxLayout(orientation="vertical", spacing=2)
                self.add_widget(column)
            cell = SpaceCell()
            cell.bind(on_release=self._pressed)
            assert column is not None
            column.add_widget(cell)
            self._cells.append(cell)

    def _pressed(self, cell: SpaceCell) -> None:
        if cell.deed and self.on_deed is not None:
            self.on_deed(int(cell.deed))

    def cell_for_deed(self, deed: int) -> SpaceCell | None:
        """The cell of a deed number (tests touch it)."""
        for cell in self._cells:
            if cell.deed == deed:
                return cell
        return None
