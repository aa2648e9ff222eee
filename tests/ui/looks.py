"""The looks the legibility and fit walks run with: the standard theme, and high contrast with large text
(ui/settings.py ``theme`` and ``large_text``; ui/touch/widgets/palette.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

LOOKS = ("standard", "high_contrast_large")
"""``standard``; ``high_contrast_large``: the high-contrast theme with large text."""


def refit_all(root: Any) -> None:
    """Fit every fitted label under ``root`` again (after the text scale changed)."""
    from ui.touch.widgets.fitlabel import FitMixin

    for widget in root.walk(restrict=True):
        if isinstance(widget, FitMixin):
            widget.refit()


@contextmanager
def look(name: str) -> Iterator[None]:
    """Apply the look ``name`` for the walk inside, then go back to the standard one."""
    from ui.touch.widgets import palette

    palette.apply_theme("high_contrast" if name != "standard" else "standard", large_text=name != "standard")
    try:
        yield
    finally:
        palette.apply_theme("standard", False)
        from kivy.app import App

        app = App.get_running_app()
        if name != "standard" and app is not None and app.root is not None:
            refit_all(app.root)  # the labels the walk made large are fitted at their usual size again
