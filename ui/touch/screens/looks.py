"""The look of the screen from the banker's menu: the high-contrast theme and large text (the settings
``theme`` and ``large_text``, ui/settings.py), applied in place and kept across restarts.

The kv rules and the widgets read the palette (ui/touch/widgets/palette.py) when they are made, so a new look
is applied by making the whole screen again: the root layout (bar, screens, toast, card tray) is replaced by a
new one built from the new palette, and the banker's view is shown on it at once (the menu, where the toggle
was touched). The old layout and its screens are dropped and their memory given back, as when a screen is
left. Nothing of the banker changes.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock

from ui.touch.widgets import palette

LOOKS = ("contrast", "large")
"""The menu's look toggles: the high-contrast theme, large text."""


class LooksMixin:
    """``toggle_look`` and ``set_look`` of the app (``remember`` keeps the choice: ui/touch/screens/prefs.py)."""

    root: Any
    controller: Any
    presenter: Any
    keeper: Any
    _residents_due: bool

    def look_on(self, look: str) -> bool:
        """Whether the look toggle ``look`` (one of :data:`LOOKS`) is on now."""
        return palette.THEME == "high_contrast" if look == "contrast" else palette.TEXT_SCALE > 1.0

    def toggle_look(self, look: str) -> None:
        """The menu's toggle ``look`` touched: the other theme, or text large or not."""
        if look == "contrast":
            self.set_look(theme="standard" if self.look_on("contrast") else "high_contrast")
        elif look == "large":
            self.set_look(large_text=not self.look_on("large"))

    def set_look(self, theme: str | None = None, large_text: bool | None = None) -> None:
        """Use ``theme`` (``standard`` / ``high_contrast``) and large text or not (None: as now), remember them
        in the installation's settings and make the screen again in that look (nothing when unchanged)."""
        theme = palette.THEME if theme is None else theme
        large = self.look_on("large") if large_text is None else large_text
        if theme not in palette.THEME_NAMES or (theme, large) == (palette.THEME, self.look_on("large")):
            return
        palette.apply_theme(theme, large)
        self.remember(theme=palette.THEME, large_text=large)  # type: ignore[attr-defined]
        self.rebuild_root()

    def rebuild_root(self) -> None:
        """Replace the root layout by a new one made from the palette now, showing the banker's view."""
        from kivy.core.window import Window
        from kivy.factory import Factory

        old = self.root
        if old is None:
            return
        Window.clearcolor = palette.BACKGROUND
        new = Factory.RootLayout()
        new.ids.tray.on_card = self.tap_card  # type: ignore[attr-defined]
        new.ids.tray.on_blank = self.tap_blank_card  # type: ignore[attr-defined]
        parent = old.parent
        if parent is not None:
            parent.remove_widget(old)
        for screen in list(old.ids.sm.screens):  # the old screens: dropped, their memory given back
            old.ids.sm.remove_widget(screen)
            self.keeper.dropped(screen.name)
        self.root = new
        if parent is not None:
            parent.add_widget(new)
        self._residents_due = False  # the table and the board are built again, in the new look
        self._show_readers(self.controller.readers if self.controller is not None else None)  # type: ignore[attr-defined]
        self.render(self.presenter.view)  # type: ignore[attr-defined]
        Clock.schedule_once(lambda _dt: self._give_back(), 0.3)  # type: ignore[attr-defined]
