"""The action row laid out per ruleset, for the table and the board's centre.

The banker's view lists what can be done now (``view.actions``, each allowed by ``may_<trigger>``); when that
is more than :data:`MAX_BUTTONS`, the actions of one kind (what the square the token stopped on asks, what a
jailed player may do) stand behind one button that opens them, with Back beside them (:data:`TABLE_GROUPS`).
Which actions there are is the banker's; how they are grouped on the 800x480 panel is the screen's.
"""

from __future__ import annotations

from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter

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
"""Per ruleset, in order: a group's name (its caption in :data:`GROUP_CAPTIONS`) and the banker actions (without
``press_``) it gathers. Groups are formed only while the row would hold more than :data:`MAX_BUTTONS`."""
GROUP_CAPTIONS: dict[str, str] = {"square": "action.group_square", "in_jail": "action.group_in_jail"}
"""A group's name -> the translation key of its button."""


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



class GroupedActions(BankScreen):
    """A screen whose action row folds the ruleset's groups (:func:`table_buttons`)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.open_group: str | None = None
        """The group of actions opened by its button (None: the row shows the groups)."""
        self._presenter: Presenter | None = None
        self._shown: tuple[object, ...] | None = None

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        self._presenter = presenter
        if (view.seq, view.state, view.actions) != self._shown:  # the game moved on: the groups fold again
            self.open_group = None
            self._shown = (view.seq, view.state, view.actions)
        super().render(presenter)

    def action_buttons(self, presenter: Presenter) -> list[tuple[str, str, bool]]:
        """The banker's actions now, laid out for this ruleset (:func:`table_buttons`)."""
        caption = {GROUP_PREFIX + name: presenter.tr(key) for name, key in GROUP_CAPTIONS.items()}
        caption[BACK] = presenter.tr("nav.back")
        return table_buttons(super().action_buttons(presenter), presenter.ruleset, self.open_group, caption)

    def group_of(self, trigger: str) -> str | None:
        """The group whose button holds ``trigger`` now (None: it has a button of its own, or none)."""
        row = self.ids.get("actions")
        if row is None or row.button_for(trigger) is not None or self._presenter is None:
            return None
        ruleset = self._presenter.ruleset
        return next((name for name, members in TABLE_GROUPS.get(ruleset, ())
                     if trigger.removeprefix("press_") in members
                     and row.button_for(GROUP_PREFIX + name) is not None), None)

    def on_action(self, trigger: str) -> None:
        """A group's button opens it, Back closes it (both on the screen); any other goes to the banker."""
        if trigger.startswith(GROUP_PREFIX) or trigger == BACK:
            self.open_group = trigger.removeprefix(GROUP_PREFIX) if trigger != BACK else None
            self.app().sounds.play("tap")
            if self._presenter is not None:
                BankScreen.render(self, self._presenter)
            return
        self.open_group = None
        super().on_action(trigger)
