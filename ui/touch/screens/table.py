"""The table: every player's balance (large, with token colour and name), the prompt, the last
transaction (animated) and the context buttons the banker allows now; in the classic game a strip with the
time-limited game's minutes left, the late-game rent tax while it applies and the Free Parking pot.

Each ruleset has its own layout of the buttons (:data:`TABLE_GROUPS`): the banker's view lists what can be
done now (``view.actions``, each allowed by ``may_<trigger>``), and when that is more than :data:`MAX_BUTTONS`
the actions of one kind (what the square the token stopped on asks, what a jailed player may do) stand
behind one button that opens them, with Back beside them. Which actions there are is the banker's; how they
are grouped on the 800x480 panel is the screen's."""

from __future__ import annotations

from kivy.animation import Animation
from kivy.metrics import dp

from ui.touch.screens.base import BankScreen
from ui.touch.screens.classic_text import clock_text, pot_text, rent_tax_text
from ui.touch.screens.present import Presenter
from ui.touch.widgets.balance import BalanceTile


def badge_key(in_jail: bool, bankrupt: bool) -> str | None:
    """The translation key of a player's badge, if any."""
    if bankrupt:
        return "badge.bankrupt"
    if in_jail:
        return "badge.in_jail"
    return None


MAX_BUTTONS = 6
"""At most this many buttons in the table's row (one row of 52 px at 800x480, each word at 16 px or more)."""
GROUP_PREFIX = "group:"
"""A button trigger that opens a group of the table's actions (handled on the screen, not by the banker)."""
BACK = "table_back"
"""The button that closes an open group."""
TABLE_GROUPS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "classic": (
        ("square", ("go", "jail", "income_tax", "luxury_tax", "chance", "chest", "jackpot")),
        ("in_jail", ("pay_fee", "roll_doubles", "roll_no_doubles", "use_card")),
    ),
    "ultimate": (
        ("in_jail", ("pay_fee", "roll_doubles", "roll_no_doubles")),
        ("square", ("go", "location", "jail", "draw")),
    ),
}
"""Per ruleset, in order: a group's name (its caption ``action.group_<name>``) and the banker actions (without
``press_``) it gathers. Groups are formed only while the row would hold more than :data:`MAX_BUTTONS`."""


def table_buttons(actions: list[tuple[str, str, bool]], ruleset: str, open_group: str | None,
                  caption: dict[str, str]) -> list[tuple[str, str, bool]]:
    """The row for ``actions`` ((trigger, caption, enabled), the banker's now): all of them when they fit,
    else the ruleset's groups folded behind one button each (a group of one shows that action itself); with
    ``open_group`` the members of that group and Back. ``caption`` holds the groups' and Back's captions."""
    groups = TABLE_GROUPS.get(ruleset, ())
    if open_group is not None:
        members = dict(groups).get(open_group, ())
        inside = [a for a in actions if a[0].removeprefix("press_") in members]
        if inside:
            return [*inside, (BACK, caption[BACK], True)]
    row = list(actions)
    for name, members in groups:
        if len(row) <= MAX_BUTTONS:
            break
        inside = [a for a in row if a[0].removeprefix("press_") in members]
        if len(inside) < 2:
            continue
        at = row.index(inside[0])
        row = [a for a in row if a not in inside]
        row.insert(at, (GROUP_PREFIX + name, caption[GROUP_PREFIX + name], any(a[2] for a in inside)))
    return row


def grid_columns(players: int) -> int:
    """Tiles per row: 2 for up to 4 players, 3 for 5-6, 4 for 7-8."""
    if players <= 4:
        return 2
    return 3 if players <= 6 else 4


class TableScreen(BankScreen):
    """Balances, prompt, last transaction, actions."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._tiles: list[BalanceTile] = []
        self._last_tx_seq = -1
        self.open_group: str | None = None
        """The group of actions opened by its button (None: the row shows the groups)."""
        self._presenter: Presenter | None = None
        self._shown_seq: tuple[object, ...] | None = None

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        self._presenter = presenter
        if (view.seq, view.state, view.actions) != self._shown_seq:  # the game moved on: the groups fold again
            self.open_group = None
            self._shown_seq = (view.seq, view.state, view.actions)
        self.ids.prompt.text = presenter.prompt()
        grid = self.ids.tiles
        if len(self._tiles) != len(view.players):
            grid.clear_widgets()
            self._tiles = [BalanceTile() for _ in view.players]
            for tile in self._tiles:
                grid.add_widget(tile)
        grid.cols = grid_columns(len(view.players))
        active = dict(view.extra).get("player")
        for tile, p in zip(self._tiles, view.players, strict=True):
            key = badge_key(p.in_jail, p.bankrupt)
            badge = presenter.tr(key) if key else ""
            cards = len(getattr(p, "jail_cards", ()) or ())
            if cards and not p.bankrupt:  # the classic game's Get Out of Jail Free cards held
                held = presenter.tr("badge.jail_cards", count=cards).replace("\n", " ")  # one line under the name
                badge = " ".join(filter(None, (badge, held)))
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

    def action_buttons(self, presenter: Presenter) -> list[tuple[str, str, bool]]:
        """The banker's actions now, laid out for this ruleset's table (:func:`table_buttons`)."""
        caption = {GROUP_PREFIX + name: presenter.tr(f"action.group_{name}")
                   for groups in TABLE_GROUPS.values() for name, _ in groups}
        caption[BACK] = presenter.tr("nav.back")
        return table_buttons(super().action_buttons(presenter), presenter.ruleset, self.open_group, caption)

    def on_action(self, trigger: str) -> None:
        """A group's button opens it, Back closes it (both on the screen); any other goes to the banker."""
        if trigger.startswith(GROUP_PREFIX) or trigger == BACK:
            self.open_group = trigger.removeprefix(GROUP_PREFIX) if trigger != BACK else None
            self.app().sounds.play("tap")
            if self._presenter is not None:
                super().render(self._presenter)
            return
        self.open_group = None
        super().on_action(trigger)

    def animate_transaction(self) -> None:
        """Slide the transaction line in and fade it up."""
        label = self.ids.tx
        Animation.cancel_all(label)
        label.opacity = 0.0
        label.slide = dp(16)
        Animation(opacity=1.0, slide=0.0, duration=0.35, t="out_cubic").start(label)

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
