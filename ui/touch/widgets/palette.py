"""Colours of the UI: the theme, token colours and deed colour bands (RGBA tuples, 0.0-1.0).

Two themes: ``standard`` and ``high_contrast`` (for low vision: black panels, white text, brighter accents),
and a text scale (``large_text``: every fitted label up to 1.25 times its usual size where its box has room,
never below its usual smallest size). :func:`apply_theme` sets both before the app builds its widgets (the kv
rules read these names when a widget is made): the settings ``theme`` and ``large_text``, at the start; the
menu's look row applies them again and makes the whole screen anew (ui/touch/screens/looks.py)."""

from __future__ import annotations

RGBA = tuple[float, float, float, float]

BACKGROUND: RGBA = (0.09, 0.11, 0.16, 1.0)
PANEL: RGBA = (0.15, 0.18, 0.25, 1.0)
PANEL_LIGHT: RGBA = (0.22, 0.26, 0.35, 1.0)
TEXT: RGBA = (0.95, 0.96, 0.98, 1.0)
MUTED: RGBA = (0.68, 0.72, 0.80, 1.0)
ACCENT: RGBA = (0.18, 0.62, 0.42, 1.0)
WARNING: RGBA = (0.90, 0.55, 0.15, 1.0)
DANGER: RGBA = (0.82, 0.22, 0.22, 1.0)
OK: RGBA = (0.22, 0.72, 0.40, 1.0)
NEUTRAL: RGBA = (0.36, 0.39, 0.46, 1.0)
"""Cancel, Back: leave the step, nothing changes (grey, lighter than an ordinary button)."""
DECLINE: RGBA = (0.70, 0.45, 0.10, 1.0)
"""Decline an offer (the deed goes to auction): amber, apart from Cancel's grey and an error's red."""
NOTICE: RGBA = (0.24, 0.34, 0.50, 1.0)
"""A notice's band (a game resumed, enrolment done): calm blue-grey, never the red of an error."""
HOUSE: RGBA = (0.30, 0.88, 0.42, 1.0)
"""A house on the classic board (a small green block on the colour band)."""
HOTEL: RGBA = (0.90, 0.16, 0.16, 1.0)
"""A hotel on the classic board (a red block)."""

THEME_NAMES = ("standard", "high_contrast")
THEME_KEYS = ("BACKGROUND", "PANEL", "PANEL_LIGHT", "TEXT", "MUTED", "ACCENT", "WARNING", "DANGER", "OK", "NEUTRAL",
              "DECLINE", "NOTICE")
HIGH_CONTRAST: dict[str, RGBA] = {
    "BACKGROUND": (0.0, 0.0, 0.0, 1.0),
    "PANEL": (0.07, 0.07, 0.08, 1.0),
    "PANEL_LIGHT": (0.20, 0.20, 0.23, 1.0),
    "TEXT": (1.0, 1.0, 1.0, 1.0),
    "MUTED": (0.88, 0.88, 0.90, 1.0),
    "ACCENT": (0.0, 0.50, 0.28, 1.0),
    "WARNING": (1.0, 0.75, 0.20, 1.0),
    "DANGER": (0.80, 0.05, 0.05, 1.0),
    "OK": (0.0, 0.50, 0.25, 1.0),
    "NEUTRAL": (0.30, 0.30, 0.33, 1.0),
    "DECLINE": (0.62, 0.36, 0.0, 1.0),
    "NOTICE": (0.10, 0.22, 0.45, 1.0),
}
"""The high-contrast theme: white text on near-black, every button colour dark enough for white text."""
LARGE_TEXT_SCALE = 1.25
"""How much larger the large-text setting draws a fitted label's largest size."""
TEXT_SCALE = 1.0
"""The scale of fitted labels' largest size now (1.0, or :data:`LARGE_TEXT_SCALE` with large text)."""
THEME = "standard"
"""The theme applied now."""

TOKENS: dict[str, RGBA] = {
    "red": (0.86, 0.20, 0.20, 1.0),
    "green": (0.20, 0.70, 0.30, 1.0),
    "blue": (0.22, 0.45, 0.90, 1.0),
    "white": (0.92, 0.92, 0.92, 1.0),
    "yellow": (0.95, 0.80, 0.15, 1.0),
    "orange": (0.95, 0.55, 0.15, 1.0),
    "purple": (0.60, 0.35, 0.80, 1.0),
    "black": (0.30, 0.30, 0.32, 1.0),
    "pink": (0.93, 0.45, 0.70, 1.0),
    "cyan": (0.20, 0.75, 0.85, 1.0),
}
"""Token colours a player may take, by name (the view-model's ``PlayerView.token``)."""

DEED_COLOURS: dict[str, RGBA] = {
    "brown": (0.55, 0.33, 0.18, 1.0),
    "light_blue": (0.60, 0.82, 0.95, 1.0),
    "pink": (0.85, 0.30, 0.60, 1.0),
    "orange": (0.95, 0.58, 0.15, 1.0),
    "red": (0.88, 0.15, 0.15, 1.0),
    "yellow": (0.98, 0.90, 0.20, 1.0),
    "green": (0.15, 0.65, 0.30, 1.0),
    "dark_blue": (0.12, 0.25, 0.65, 1.0),
}

SPACE_KINDS: dict[str, RGBA] = {
    "go": (0.85, 0.25, 0.25, 1.0),
    "event": (0.55, 0.35, 0.85, 1.0),
    "location": (0.20, 0.65, 0.70, 1.0),
    "jail": (0.95, 0.55, 0.15, 1.0),
    "parking": (0.40, 0.70, 0.35, 1.0),
    "go_to_jail": (0.60, 0.20, 0.20, 1.0),
}


_STANDARD: dict[str, RGBA] = {key: globals()[key] for key in THEME_KEYS}


def apply_theme(theme: str = "standard", large_text: bool = False) -> None:
    """Use ``theme`` (one of :data:`THEME_NAMES`; an unknown name is the standard theme) and the large-text
    scale for the widgets made from now on."""
    global TEXT_SCALE, THEME
    THEME = theme if theme in THEME_NAMES else "standard"
    values = HIGH_CONTRAST if THEME == "high_contrast" else _STANDARD
    globals().update(values)
    TEXT_SCALE = LARGE_TEXT_SCALE if large_text else 1.0


def norm(name: str | None) -> str:
    """``"Light blue"`` / ``"light-blue"`` -> ``"light_blue"``."""
    return (name or "").strip().lower().replace(" ", "_").replace("-", "_")


def token_rgba(token: str | None) -> RGBA:
    """The colour of a token name (grey for an unknown one)."""
    return TOKENS.get(norm(token), (0.5, 0.5, 0.5, 1.0))


def deed_rgba(colour: str | None) -> RGBA:
    """The colour band of a deed colour name (grey for an unknown one)."""
    return DEED_COLOURS.get(norm(colour), (0.5, 0.5, 0.5, 1.0))


def deed_colour_of(rgba: RGBA | tuple[float, ...] | None) -> str:
    """The colour set's name whose band is ``rgba`` ("" for any other colour): the tray learns a deed
    card's set from the colour its screen gives it."""
    if rgba is None:
        return ""
    key = tuple(round(float(c), 3) for c in tuple(rgba)[:3])
    for name, band in DEED_COLOURS.items():
        if tuple(round(c, 3) for c in band[:3]) == key:
            return name
    return ""


def text_on(rgba: RGBA) -> RGBA:
    """Black or white, whichever reads better on ``rgba``."""
    r, g, b, _ = rgba
    return (0.05, 0.05, 0.05, 1.0) if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else TEXT


def mix(base: RGBA, over: RGBA) -> RGBA:
    """``over`` laid on ``base`` with ``over``'s alpha (one colour instead of two layers to draw)."""
    a = over[3]
    return (base[0] * (1 - a) + over[0] * a, base[1] * (1 - a) + over[1] * a,
            base[2] * (1 - a) + over[2] * a, base[3])
