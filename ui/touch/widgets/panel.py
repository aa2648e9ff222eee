"""A box with a rounded, coloured background (``bg``), for bands and cards on the screens."""

from __future__ import annotations

from kivy.properties import ColorProperty
from kivy.uix.boxlayout import BoxLayout

from ui.touch.widgets import palette


class Panel(BoxLayout):
    """A BoxLayout drawn on a rounded rectangle of colour ``bg``."""

    bg = ColorProperty(palette.PANEL)
